"""Small things of issue 10, item 16, headless: `config` alone, broken themes listed, no
sample warning for `--sample`, per-subcommand help, the README quickstart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_config_alone_shows_the_paths(cli, isolated_home):
    result = cli("config")
    assert result.returncode == 0, result.stderr
    for what in ("config:", "topics:", "themes:", "data:", "database:", "bib:"):
        assert what in result.stdout
    assert str(isolated_home.config) in result.stdout
    assert cli("config", "--path").stdout == result.stdout


def test_themes_lists_broken_theme_files_with_the_reason(cli, isolated_home):
    themes = isolated_home.config.parent / "themes"
    themes.mkdir(parents=True)
    (themes / "half.toml").write_text('name = "half"\n[palette]\nprimary = "#ffffff"\n',
                                      encoding="utf-8")
    (themes / "garbled.toml").write_text("name = [unclosed\n", encoding="utf-8")
    result = cli("themes")
    assert result.returncode == 0, result.stderr
    broken = [line for line in result.stdout.splitlines() if line.startswith("! broken")]
    assert len(broken) == 2, result.stdout
    half = next(line for line in broken if "half.toml" in line)
    assert "missing" in half and "secondary" in half
    assert any("garbled.toml" in line for line in broken)
    assert "paperterm-dark" in result.stdout  # the good ones are still listed


def test_sample_asked_for_gives_no_sample_warning(cli):
    result = cli("score", "--sample", "--topic", "moe")
    assert result.returncode == 0, result.stderr
    assert "sample" not in result.stderr.lower(), result.stderr
    offline = cli("score", "--offline", "--topic", "moe")  # a fallback still says so
    assert "bundled sample day" in offline.stderr


@pytest.mark.parametrize(("command", "own", "foreign"), [
    ("star", [], ["--model", "--feed", "--theme", "--bib"]),
    ("search", ["--limit", "--json"], ["--model", "--feed", "--budget"]),
    ("themes", ["--theme"], ["--model", "--feed"]),
    ("score", ["--model", "--feed", "--json"], ["--theme", "--unicode"]),
    ("export", ["--bib", "--ids", "--format"], ["--theme"]),
    ("config", ["--path", "--init"], ["--model", "--feed", "--theme"]),
])
def test_each_subcommands_help_shows_its_own_options(cli, command, own, foreign):
    result = cli(command, "--help")
    assert result.returncode == 0
    for flag in own:
        assert flag in result.stdout, (command, flag)
    for flag in foreign:
        assert flag not in result.stdout, (command, flag)
    assert "  " not in result.stdout.splitlines()[0].rstrip()  # no gaps in the usage line


def test_options_a_subcommand_does_not_use_are_refused_not_ignored(cli, isolated_home):
    result = cli("config", "--topic", "moe", "--model", "openai/x", "--theme", "nord")
    assert result.returncode == 2
    assert result.stderr == ("paperterm config: error: --topic, --model, --theme: not options "
                             "of `paperterm config`\n")
    assert "--model" in cli("--help").stdout  # the reader takes them all


def test_readme_installs_as_a_tool_and_develops_with_python3():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quickstart = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    first = re.search(r"```bash\n(.*?)\n", quickstart).group(1)  # type: ignore[union-attr]
    assert first.startswith("pipx install .") and "uv tool install ." in first
    development = readme.split("\n## Development", 1)[1].split("\n## ", 1)[0]
    assert "python3 -m venv" in development and 'pip install -e ".[dev]"' in development
    assert "python -m venv" not in development.replace("python3 -m venv", "")
    # .ci/run makes its dev venv with the Development section's command
    assert 'pip install -e ".[dev]"' in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_themes_says_both_the_configs_theme_and_the_one_chosen_with_T(cli, isolated_home):
    """Issue 32: `themes` marked the config's theme while the reader opened the one
    remembered from `T`."""
    from paperterm.settings.reader_state import remember_theme

    assert remember_theme("paperterm-light", "paperterm-dark") is None
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('theme = "paperterm-dark"\n', encoding="utf-8")
    lines = cli("themes").stdout.splitlines()
    assert any(ln.startswith("T paperterm-light ") for ln in lines)
    assert any(ln.startswith("* paperterm-dark ") for ln in lines)
    assert any("which the reader opens" in ln for ln in lines)
    assert not any(ln.startswith("T ") for ln in cli("themes", "--theme", "nord").stdout
                   .splitlines())
