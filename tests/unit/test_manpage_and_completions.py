"""The man page and the shell completions stay in step with the parser (issue 23): every
subcommand and every flag the parser has appears in `paperterm manpage` and in the bash, zsh
and fish completion scripts; `paperterm --help` points to the docs."""

from __future__ import annotations

import argparse

import pytest

from paperterm.cli.parser import build_parser


def _commands_and_flags() -> tuple[list[str], dict[str, list[str]]]:
    """Every subcommand, and the flags of paperterm and of each subcommand (hidden ones
    left out), read from the parser itself."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))

    def flags(p: argparse.ArgumentParser) -> list[str]:
        return [f for a in p._actions if a.help != argparse.SUPPRESS
                for f in a.option_strings if f not in ("-h", "--help")]

    by_command = {"": flags(parser)} | {name: flags(p) for name, p in sub.choices.items()}
    return list(sub.choices), by_command


def _manpage(cli) -> str:
    result = cli("manpage")
    assert result.returncode == 0, result.stderr
    return result.stdout.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "")


def test_every_subcommand_and_flag_is_in_the_man_page(cli, isolated_home) -> None:
    page = _manpage(cli)
    assert page.startswith(".TH PAPERTERM 1")
    commands, flags = _commands_and_flags()
    assert "manpage" in commands and "completions" in commands
    assert {"--curve", "--offline"} <= set(flags["eval"])  # issue 30 s.4; --offline a no-op
    sections = dict(zip(commands, page.split(".SS ")[1:], strict=True))
    for name in commands:
        assert sections[name].startswith(name + "\n"), name
        for flag in flags[name]:
            assert f"\n{flag}" in sections[name] or f", {flag}" in sections[name], (name, flag)
    for flag in flags[""]:
        assert flag in page.split(".SH COMMANDS")[0], flag
    assert "PAPERTERM_HOME" in page.split(".SH ENVIRONMENT")[1]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_every_subcommand_and_flag_is_in_the_completions(cli, isolated_home, shell) -> None:
    result = cli("completions", shell)
    assert result.returncode == 0, result.stderr
    script = result.stdout
    commands, flags = _commands_and_flags()
    for name in commands:
        assert name in script, (shell, name)
    for name, its in flags.items():
        for flag in its:
            # fish names a flag as `-l output` / `-s o`, bash and zsh as written
            fish = f"-l {flag[2:]} " if flag.startswith("--") else f"-s {flag[1:]} "
            assert (fish if shell == "fish" else flag) in script, (shell, name, flag)


def test_help_points_to_the_docs_and_the_man_page(cli, isolated_home) -> None:
    out = cli("--help").stdout
    assert "docs/" in out and "README" in out and "paperterm manpage" in out
