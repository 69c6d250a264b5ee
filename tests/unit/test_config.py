"""Config: defaults, where the file comes from, strict validation, `config --path/--init`."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from paperterm.settings import paths
from paperterm.settings.config import Config, ConfigError, init_config, load_config, parse_config


def test_no_file_gives_defaults(isolated_home):
    assert not isolated_home.config.exists()
    cfg = load_config()
    assert cfg.categories == ["cs.LG", "cs.AI"]
    assert cfg.announce_types == ["new", "cross"]
    assert cfg.path is None


def test_env_config_is_read(isolated_home):
    isolated_home.config.parent.mkdir(parents=True)
    isolated_home.config.write_text('categories = ["stat.ML"]\nbatch_size = 7\n')
    cfg = load_config()
    assert cfg.categories == ["stat.ML"]
    assert cfg.scoring.batch_size == 7
    assert cfg.path == isolated_home.config


def test_explicit_config_wins_over_env(isolated_home, tmp_path):
    isolated_home.config.parent.mkdir(parents=True)
    isolated_home.config.write_text('categories = ["stat.ML"]\n')
    other = tmp_path / "other.toml"
    other.write_text('categories = ["math.OC", "cs.DS"]\nannounce_types = ["new"]\n')
    cfg = load_config(other)
    assert cfg.categories == ["math.OC", "cs.DS"]
    assert cfg.announce_types == ["new"]
    assert cfg.path == other


def test_explicit_config_missing_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml")


def test_int_accepted_for_float_and_nested_tables():
    cfg = parse_config({"timeout": 5, "bibtex": {"unicode": True}, "keys": {"star": "s"}}, "x")
    assert cfg.scoring.timeout == 5.0 and isinstance(cfg.scoring.timeout, float)
    assert cfg.bibtex.unicode is True
    assert cfg.keys == {"star": "s"}


@pytest.mark.parametrize(
    ("data", "needles"),
    [
        ({"colour": "red"}, ["'colour'", "unknown key"]),
        ({"batch_size": "x"}, ["'batch_size'", "an integer"]),
        ({"batch_size": True}, ["'batch_size'", "an integer"]),
        ({"include_authors": 1}, ["'include_authors'", "true or false"]),
        ({"timeout": "fast"}, ["'timeout'", "a number"]),
        ({"categories": "cs.LG"}, ["'categories'", "list of strings"]),
        ({"categories": ["machine learning"]}, ["'categories'", "arXiv categories"]),
        ({"announce_types": ["new", "old"]}, ["'announce_types'", "old"]),
        ({"scorer": "magic"}, ["'scorer'", "local"]),
        ({"batch_size": 0}, ["'batch_size'", "at least 1"]),
        ({"bibtex": {"style": "x"}}, ["'style'", "unknown key"]),
        ({"bibtex": {"unicode": "yes"}}, ["'unicode'", "true or false"]),
    ],
)
def test_invalid_values_name_the_key(data, needles):
    with pytest.raises(ConfigError) as info:
        parse_config(data, "/some/config.toml")
    message = str(info.value)
    assert message.startswith("/some/config.toml")
    for needle in needles:
        assert needle in message


def _write(isolated_home, text: str) -> Path:
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text(text, encoding="utf-8")
    return isolated_home.config


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ('categories = ["cs.LG"]\n\nbatch_size = = 3\n', ["invalid TOML", "line 3"]),
        ('topic = "moe"\ncolour = "red"\n', ["'colour'"]),
        ("concurrency = 2.5\n", ["'concurrency'", "an integer"]),
        ('[bibtex]\nprefer_journal = "no"\n', ["'prefer_journal'", "true or false"]),
    ],
)
def test_invalid_config_exits_2_with_one_line(isolated_home, cli, text, needles):
    path = _write(isolated_home, text)
    result = cli("topics")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(path) in lines[0]
    for needle in needles:
        assert needle in lines[0]
    assert result.stdout == ""


def test_config_path_still_prints_the_paths_of_a_broken_config(isolated_home, cli):
    path = _write(isolated_home, "concurrency = 2.5\n")
    result = cli("config", "--path")
    assert result.returncode == 2
    assert str(path) in result.stdout and str(isolated_home.home) in result.stdout
    assert "'concurrency'" in result.stderr and "Traceback" not in result.stderr


def test_invalid_config_via_option_names_that_file(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"theme = 'ok'\n\xff\xfe = 1\n")
    result = cli("--config", str(bad), "topics")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert str(bad) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_config_path_honours_env(isolated_home, cli):
    result = cli("config", "--path")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert str(isolated_home.config) in out
    assert "not found: defaults" in out
    assert str(isolated_home.home / "paperterm.sqlite3") in out
    assert str(isolated_home.config.parent / "topics") in out
    assert str(isolated_home.home / "papers.bib") in out


def test_config_path_with_explicit_file(cli, tmp_path):
    explicit = tmp_path / "elsewhere" / "my.toml"
    explicit.parent.mkdir()
    explicit.write_text('bib_path = "/refs/all.bib"\n')
    result = cli("--config", str(explicit), "config", "--path")
    assert result.returncode == 0, result.stderr
    assert f"config:   {explicit}\n" in result.stdout
    assert str(explicit.parent / "topics") in result.stdout
    assert "/refs/all.bib" in result.stdout


def test_init_writes_a_starter_that_loads_and_equals_defaults(isolated_home, cli):
    result = cli("config", "--init")
    assert result.returncode == 0, result.stderr
    assert str(isolated_home.config) in result.stdout
    text = isolated_home.config.read_text(encoding="utf-8")
    assert text.count("\n#") >= 5  # commented
    cfg = load_config()
    assert cfg.path == isolated_home.config
    defaults = Config()
    for f in fields(Config):
        if f.name != "path":
            assert getattr(cfg, f.name) == getattr(defaults, f.name), f.name


def test_init_never_overwrites(isolated_home, cli):
    _write(isolated_home, "# mine\ntopic = 'agents'\n")
    result = cli("config", "--init")
    assert result.returncode != 0
    assert "already exists" in result.stderr
    assert "Traceback" not in result.stderr
    assert isolated_home.config.read_text() == "# mine\ntopic = 'agents'\n"


def test_init_config_function_reports_not_written(tmp_path):
    target = tmp_path / "a" / "b" / "config.toml"
    assert init_config(target) == (target, True)
    target.write_text("x = 1\n")
    assert init_config(target) == (target, False)
    assert target.read_text() == "x = 1\n"


def test_paths_follow_env(isolated_home, monkeypatch, tmp_path):
    assert paths.config_file() == isolated_home.config
    assert paths.database_file() == isolated_home.home / "paperterm.sqlite3"
    assert paths.config_file(tmp_path / "x.toml") == tmp_path / "x.toml"
    monkeypatch.delenv("PAPERTERM_CONFIG")
    monkeypatch.delenv("PAPERTERM_HOME")
    assert paths.config_file().name == "config.toml"
    assert paths.config_file() != isolated_home.config
    assert paths.data_dir() != isolated_home.home


def test_the_starter_config_points_to_docs_that_exist(isolated_home, cli):
    """Issue 32: it pointed to a README section "Configuration" that does not exist."""
    import re

    assert cli("config", "--init").returncode == 0
    text = isolated_home.config.read_text(encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    named = re.findall(r"# Docs: (\S+)", text)
    assert named and all((root / doc).is_file() for doc in named)
    for doc, section in re.findall(r'(\S+\.md), section "([^"]+)"', text):
        assert f"# {section}\n" in (root / doc).read_text(encoding="utf-8")
