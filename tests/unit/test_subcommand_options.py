"""Each subcommand takes only the shared options it uses (their declarations say which), and
refuses the others in one line (exit 2), after the subcommand or before it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from paperterm.cli.parser import FLAGS, accepted, build_parser, shared
from paperterm.settings import every_setting

ROOT = Path(__file__).parents[2]
SUBCOMMANDS = ["score", "digest", "export", "config", "star", "unstar", "search", "note",
               "library", "summarize", "doctor", "topics", "themes", "zotero", "learn",
               "enrich", "completions", "starred", "eval"]


def _subparsers():
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return action.choices


@pytest.mark.parametrize("argv", [
    ["summarize", "--prefilter", "0.3", "2602.00001"], ["summarize", "2602.00001", "--scorer",
                                                        "local"],
    ["summarize", "2602.00001", "--feed", "day.xml"], ["doctor", "--scorer", "local"],
    ["doctor", "--prefilter", "0.3"], ["doctor", "--feed", "day.xml"],
    ["star", "2602.00001", "--model", "openai/x"], ["topics", "--offline"],
    ["search", "moe", "--date", "2026-02-24"], ["themes", "--bib", "x.bib"],
])
def test_an_option_the_subcommand_does_not_use_is_a_usage_error(cli, argv):
    """Said in one line with the subcommand's name (issue 32: `eval --model X` printed
    the whole usage above "unrecognized arguments")."""
    result = cli(*argv)
    assert result.returncode == 2
    flag = next(w for w in argv if w.startswith("--"))
    assert result.stderr == (f"paperterm {argv[0]}: error: {flag}: not an option of "
                             f"`paperterm {argv[0]}`\n")


@pytest.mark.parametrize("argv", [["eval", "--model", "openai/gpt-4o-mini"], ["eval", "--model"],
                                  ["eval", "--model=openai/x", "--curve"],
                                  ["--model", "openai/x", "eval"]])
def test_eval_with_a_model_says_what_it_does_instead(cli, argv):
    result = cli(*argv)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "usage:" not in result.stderr, result.stderr
    assert "--model: not an option of `paperterm eval`" in result.stderr
    assert "every model with cached scores" in result.stderr


def test_an_unknown_option_keeps_the_usage(cli):
    result = cli("eval", "--modle", "x")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: paperterm eval ")
    assert "paperterm eval: error: unrecognized arguments: --modle x" in result.stderr


@pytest.mark.parametrize(("argv", "command"), [
    (["--prefilter", "0.3", "summarize", "2602.00001"], "summarize"),
    (["--scorer", "local", "doctor"], "doctor"), (["--offline", "library", "export", "-"],
                                                  "library"),
    (["--feed", "day.xml", "star", "2602.00001"], "star"),
])
def test_so_is_one_given_before_the_subcommand(cli, argv, command):
    result = cli(*argv)
    assert result.returncode == 2
    assert result.stderr == (f"paperterm: error: {argv[0]}: not an option of "
                             f"`paperterm {command}`\n")


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_a_subcommand_has_exactly_the_shared_options_declared_for_it(command):
    sub = _subparsers()[command]
    every = set(shared().values())
    has = {s for a in sub._actions for s in a.option_strings if s in every}
    want = {f.flag for f in FLAGS if command in f.commands} | {
        d.flag for d in every_setting() if command in d.spec.commands}
    assert has == want
    assert {shared()[d] for d in accepted(command)} == want


def test_what_the_commands_read_is_what_they_take():
    """Spot checks against the commands' code: summaries and doctor name a model but load
    no day and never prefilter; search filters by --since; config prints --bib."""
    summarize, doctor = accepted("summarize"), accepted("doctor")
    assert {"model", "api_base", "budget", "language"} <= summarize
    assert not {"prefilter", "scorer", "feed", "topic", "offline"} & summarize
    assert {"model", "api_base", "timeout", "config"} == doctor
    assert accepted("search") == {"since", "offline"}  # --offline: a documented no-op
    assert accepted("config") == {"config", "bib"}
    assert accepted("star") == accepted("unstar") == {"config", "topic"}  # marks per topic
    assert accepted("note") == accepted("library") == set()


def _readme_command_lines():
    """Every `paperterm ...` line of a shell block in the README and the manual (docs/)."""
    text = "\n".join(p.read_text(encoding="utf-8")
                     for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    for block in re.findall(r"```(?:bash|sh)\n(.*?)```", text, re.S):
        for line in block.splitlines():
            words = line.split("#", 1)[0].strip()
            if words.startswith("paperterm ") and "|" not in words and ">" not in words:
                yield words.replace("[--path]", "--path")


@pytest.mark.parametrize("line", sorted(set(_readme_command_lines())))
def test_every_command_line_in_the_readme_parses(line):
    argv = shlex.split(line)[1:]
    build_parser(argv).parse_args(argv)


@pytest.mark.parametrize("command", ["search", "starred", "eval"])
def test_the_commands_that_read_the_cache_do_not_promise_a_fetch(cli, command):
    """The QA walk: `search --help` said of --since "the 5 most recent missing days are
    fetched", and `eval --help` of --date "approximated via the arXiv API"; they read the
    cache only."""
    text = " ".join(cli(command, "--help").stdout.split())
    assert "only the cached days from this date on; nothing is fetched" in text
    assert "missing days are fetched" not in text and "arXiv API" not in text
    assert "missing days are fetched" in " ".join(cli("score", "--help").stdout.split())


def test_a_command_line_builds_only_the_parser_of_the_subcommand_it_names():
    """The reader's start builds no parser for the twenty subcommands it does not name (6 ms);
    the help still lists every one, and what is parsed is the complete parser's result."""
    import argparse

    def subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
        return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))

    complete = build_parser()
    for argv in (["--topic", "moe"], ["score", "--json", "--topic", "moe"]):
        parser = build_parser(argv)
        built = {n for n, p in subcommands(parser).choices.items()
                 if isinstance(p, argparse.ArgumentParser)}
        assert built == set(argv) & set(subcommands(complete).choices)
        assert parser.format_help() == complete.format_help()
        assert parser.parse_args(argv) == complete.parse_args(argv)
