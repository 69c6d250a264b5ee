"""`paperterm completions bash|zsh|fish`: each script loaded into the real shell and asked to
complete subcommands, flags, choices and the user's own topic and theme names."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from support.tmux import Pane

from paperterm.cli.completion_spec import command_specs
from paperterm.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[2]
BIN = str(Path(sys.executable).parent)  # where the `paperterm` script the shells call lives


@pytest.fixture
def shell_env(tmp_path: Path, isolated_home) -> dict[str, str]:
    """A config with a topic and a theme of the user's own, and paperterm on PATH."""
    config = isolated_home.config
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[topics.retrieval]\ndescription = "dense retrieval"\n'
                      'keywords = ["retrieval"]\n', encoding="utf-8")
    themes = config.parent / "themes"
    themes.mkdir()
    bundled = (ROOT / "themes" / "paperterm-dark.toml").read_text(encoding="utf-8")
    (themes / "mine.toml").write_text(
        bundled.replace('name = "paperterm-dark"', 'name = "midnight-mine"'), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               PAPERTERM_CONFIG=str(config), PAPERTERM_HOME=str(isolated_home.home))
    return env


def script(cli, shell: str, tmp_path: Path) -> Path:
    proc = cli("completions", shell)
    assert proc.returncode == 0, proc.stderr
    path = tmp_path / f"paperterm.{shell}"
    path.write_text(proc.stdout, encoding="utf-8")
    return path


def bash_complete(path: Path, env: dict[str, str], *words: str) -> list[str]:
    """What bash's completion function offers for the command line `words` (the last word is
    the one being completed)."""
    array = " ".join(shlex.quote(w) for w in ("paperterm", *words))
    code = (f"source {shlex.quote(str(path))}; COMP_WORDS=({array}); "
            f"COMP_CWORD={len(words)}; _paperterm; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    proc = subprocess.run(["bash", "--norc", "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stdout.splitlines() if line]


def test_every_subcommand_and_flag_of_the_parser_is_in_every_script(cli, tmp_path):
    specs = command_specs(build_parser())
    names = {s.name for s in specs[1:]}
    assert {"score", "digest", "export", "config", "topics", "themes", "completions"} <= names
    flags = {f for s in specs for o in s.options for f in o.flags}
    assert {"--topic", "--theme", "--model", "--format", "--starred", "-o"} <= flags
    for shell in ("bash", "zsh", "fish"):
        text = script(cli, shell, tmp_path).read_text(encoding="utf-8")
        missing = [n for n in names if n not in text]
        missing += [f for f in flags if (f[2:] if shell == "fish" else f) not in text]
        assert not missing, (shell, missing)
        assert "--names" not in text.replace("completions --names", "")  # stays hidden


def test_bash_completes_commands_flags_choices_topics_and_themes(cli, tmp_path, shell_env):
    path = script(cli, "bash", tmp_path)
    assert "export" in bash_complete(path, shell_env, "ex")
    assert bash_complete(path, shell_env, "--to") == ["--topic"]
    assert bash_complete(path, shell_env, "export", "--format", "c") == ["csl-json", "csv"]
    assert bash_complete(path, shell_env, "digest", "--format", "") == ["md", "json"]
    assert "--starred" in bash_complete(path, shell_env, "export", "--s")
    assert "--starred" not in bash_complete(path, shell_env, "digest", "--s")
    topics = bash_complete(path, shell_env, "--topic", "")
    assert {"moe", "agents", "retrieval"} <= set(topics)
    assert bash_complete(path, shell_env, "digest", "--topic", "re") == ["retrieval"]
    assert "midnight-mine" in bash_complete(path, shell_env, "--theme", "")
    assert bash_complete(path, shell_env, "completions", "") == ["bash", "zsh", "fish"]
    # a flag's value is not mistaken for the subcommand
    assert bash_complete(path, shell_env, "--topic", "moe", "ex") == ["export"]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_commands_flags_and_topics(cli, tmp_path, shell_env):
    path = script(cli, "fish", tmp_path)

    def complete(line: str) -> list[str]:
        code = f"source {shlex.quote(str(path))}; complete -C {shlex.quote(line)}"
        proc = subprocess.run(["fish", "--no-config", "-c", code], capture_output=True,
                              text=True, env=shell_env, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return [line.split("\t")[0] for line in proc.stdout.splitlines()]

    assert "export" in complete("paperterm ex")
    assert "--topic" in complete("paperterm --to")
    assert {"moe", "retrieval"} <= set(complete("paperterm score --topic "))
    assert "midnight-mine" in complete("paperterm --theme ")
    assert complete("paperterm export --format cs") == ["csl-json", "csv"]
    assert "--starred" in complete("paperterm export --st")
    assert "--starred" not in complete("paperterm digest --st")


@pytest.mark.skipif(shutil.which("zsh") is None or shutil.which("tmux") is None,
                    reason="zsh or tmux is not installed")
def test_zsh_completes_in_a_real_terminal(cli, tmp_path, shell_env):
    path = script(cli, "zsh", tmp_path)
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in shell_env.items()
                       if k.startswith("PAPERTERM_") or k in ("PATH", "HOME"))
    pane = Pane(f"env -u COLUMNS -u LINES {exports} TERM=xterm-256color zsh -f", 140, 40)
    keys, wait = pane.keys, partial(pane.wait, every=0.2)

    try:
        keys(f"autoload -U compinit && compinit -u && source {path} && echo READY", "Enter")
        wait(lambda s: "\nREADY" in s)
        keys("clear", "Enter")
        keys("paperterm --to", "Tab")
        wait(lambda s: "paperterm --topic" in s)
        keys(" re", "Tab")
        wait(lambda s: "paperterm --topic retrieval" in s)
        keys(" exp", "Tab")
        wait(lambda s: "--topic retrieval export" in s)
        keys(" --format cs", "Tab")
        text = wait(lambda s: "csl-json" in s and "csv" in s)
        assert "bibtex" not in text
    finally:
        pane.close()


def test_no_shell_is_one_clear_line(cli):
    proc = cli("completions")
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0
    assert "bash|zsh|fish" in proc.stderr


# -- names are data (issue 21): a topic or theme named like shell code is never run -----------

EVIL_TOPICS = ("zz$(touch PWNED1)", "yy`touch PWNED2`")


@pytest.fixture
def evil_env(shell_env: dict[str, str], isolated_home, tmp_path: Path) -> dict[str, str]:
    """The user's config also holds topics and a theme named like shell code."""
    config = isolated_home.config
    config.write_text(config.read_text(encoding="utf-8") + "".join(
        f'[topics."{name}"]\ndescription = "x"\nkeywords = ["x"]\n' for name in EVIL_TOPICS),
        encoding="utf-8")
    bundled = (ROOT / "themes" / "paperterm-dark.toml").read_text(encoding="utf-8")
    (config.parent / "themes" / "evil.toml").write_text(
        bundled.replace('name = "paperterm-dark"', 'name = "xx$(touch PWNED3)"'),
        encoding="utf-8")
    return shell_env


def _nothing_ran(where: Path) -> None:
    assert not list(where.glob("PWNED*")), "a name was run as shell code"


def test_bash_completes_names_as_data(cli, tmp_path, evil_env):
    path = script(cli, "bash", tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    names = []
    for words in (("--topic", "zz"), ("--topic", "yy"), ("--theme", "xx"), ("--topic", "")):
        array = " ".join(shlex.quote(w) for w in ("paperterm", *words))
        # complete, then use each offered word on a command line as bash would insert it
        code = (f"source {shlex.quote(str(path))}; COMP_WORDS=({array}); "
                f"COMP_CWORD={len(words)}; _paperterm; "
                'for w in "${COMPREPLY[@]}"; do eval "printf \'%s\\n\' $w"; done')
        proc = subprocess.run(["bash", "--norc", "-c", code], capture_output=True, text=True,
                              env=evil_env, timeout=60, cwd=work)
        assert proc.returncode == 0, proc.stderr
        names.append(proc.stdout.splitlines())
    _nothing_ran(work)
    assert names[:3] == [[EVIL_TOPICS[0]], [EVIL_TOPICS[1]], ["xx$(touch PWNED3)"]]
    assert set(EVIL_TOPICS) | {"moe", "retrieval"} <= set(names[3])


@pytest.mark.skipif(shutil.which("fish") is None or shutil.which("tmux") is None,
                    reason="fish or tmux is not installed")
def test_fish_completes_names_as_data(cli, tmp_path, evil_env):
    path = script(cli, "fish", tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    code = (f"source {shlex.quote(str(path))}; complete -C 'paperterm --topic '; "
            "complete -C 'paperterm --theme xx'")
    proc = subprocess.run(["fish", "--no-config", "-c", code], capture_output=True, text=True,
                          env=evil_env, timeout=60, cwd=work)
    assert proc.returncode == 0, proc.stderr
    offered = {line.split("\t")[0] for line in proc.stdout.splitlines()}
    assert set(EVIL_TOPICS) | {"xx$(touch PWNED3)"} <= offered
    # and inserted on a real command line, it is a word, not code
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in evil_env.items()
                       if k.startswith("PAPERTERM_") or k in ("PATH", "HOME"))
    pane = Pane(f"cd {shlex.quote(str(work))} && env -u COLUMNS -u LINES {exports} "
                "TERM=xterm-256color fish --no-config", 140, 40)
    keys, wait = pane.keys, partial(pane.wait, every=0.2)
    try:
        keys(f"source {path}; and echo READY", "Enter")
        wait(lambda s: "\nREADY" in s)
        keys("clear", "Enter")
        keys("paperterm --topic zz", "Tab")
        wait(lambda s: "touch" in s)
        keys("C-a", "echo START ", "C-e", " END", "Enter")
        wait(lambda s: "START paperterm --topic zz$(touch PWNED1) END" in s)
    finally:
        pane.close()
    _nothing_ran(work)


@pytest.mark.skipif(shutil.which("zsh") is None or shutil.which("tmux") is None,
                    reason="zsh or tmux is not installed")
def test_zsh_completes_names_as_data_in_a_real_terminal(cli, tmp_path, evil_env):
    path = script(cli, "zsh", tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in evil_env.items()
                       if k.startswith("PAPERTERM_") or k in ("PATH", "HOME"))
    pane = Pane(f"cd {shlex.quote(str(work))} && env -u COLUMNS -u LINES {exports} "
                "TERM=xterm-256color zsh -f", 140, 40)
    keys, wait = pane.keys, partial(pane.wait, every=0.2)
    try:
        keys(f"autoload -U compinit && compinit -u && source {path} && echo READY", "Enter")
        wait(lambda s: "\nREADY" in s)
        keys("clear", "Enter")
        # complete the name, then print the completed line's word instead of running it
        keys("paperterm --topic zz", "Tab")
        wait(lambda s: "touch" in s)
        keys("C-a", "print -r -- START ", "C-e", " END", "Enter")
        wait(lambda s: "START paperterm --topic zz$(touch PWNED1) END" in s)
    finally:
        pane.close()
    _nothing_ran(work)
