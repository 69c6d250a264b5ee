"""The command line in a subprocess: exit codes, one-line errors, no tracebacks, light imports."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

import paperterm
from paperterm.store import SCHEMA_VERSION, Store

FEEDS = Path(__file__).parent / "fixtures" / "feeds"

# Loads a day the way every reader command does (config, topic, store, loader) without
# starting the TUI or scoring: prints the source, the number of papers and the notices.
SESSION = """
import sys
from paperterm import cli, commands
ns = cli.build_parser().parse_args(sys.argv[1:])
s = commands._session(ns)
print(s.day.source, len(s.day.papers), s.topic.name)
for n in s.day.notices:
    print("note:", n)
"""


def _session(run_cli, *args: str):
    return run_cli(*args, script=SESSION)


def _assert_one_line_error(result, code: int = 2) -> str:
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_version(run_cli):
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"paperterm {paperterm.__version__}"


def test_topics_lists_builtins(run_cli):
    result = run_cli("topics")
    assert result.returncode == 0, result.stderr
    for name in ("moe", "agents", "interpretability"):
        assert any(line[2:].startswith(name) for line in result.stdout.splitlines())


def test_themes_lists_bundled_themes(run_cli):
    result = run_cli("themes")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("* paperterm-dark")  # the default, marked current
    assert any(ln.split()[0] == "nord" and "textual" in ln for ln in lines)  # Textual's too
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--date", "2026-13-01"), "--date"),
        (("--date", "yesterday"), "YYYY-MM-DD"),
        (("--max-results", "0"), "--max-results"),
        (("--feed", "a.xml", "--sample"), "not allowed with"),
        (("frobnicate",), "invalid choice"),
    ],
)
def test_usage_errors_exit_2(run_cli, args, needle):
    result = run_cli(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert needle in result.stderr
    assert result.stdout == ""


def test_missing_feed_file(run_cli):
    line = _assert_one_line_error(run_cli("--feed", "missing.xml"))
    assert "missing.xml" in line


def test_malformed_feed_file(run_cli, tmp_path):
    bad = tmp_path / "half.xml"
    bad.write_bytes((FEEDS / "rss-2026-03-02.xml").read_bytes()[:5000])
    line = _assert_one_line_error(run_cli("--feed", str(bad)))
    assert str(bad) in line


def test_session_loads_a_feed_file(run_cli):
    result = _session(run_cli, "--feed", str(FEEDS / "rss-2026-03-02.xml"), "--topic", "agents")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "feed 226 agents"


def test_adhoc_topic_notice(run_cli):
    result = _session(run_cli, "--sample", "--topic", "sparse attention kernels")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "sample 244 sparse attention kernels"
    assert "not a defined topic" in result.stdout


def test_offline_without_cache_opens_the_sample(run_cli):
    result = _session(run_cli, "--offline")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("sample 244 moe\n")
    assert "note: Offline: showing the bundled sample day (2026-02-25)" in result.stdout


def test_corrupt_database_is_moved_and_the_app_keeps_working(isolated_home, run_cli):
    isolated_home.home.mkdir(parents=True)
    junk = os.urandom(4096)
    isolated_home.db.write_bytes(junk)
    result = _session(run_cli, "--offline")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.startswith("sample 244 ")
    copies = list(isolated_home.home.glob("paperterm.sqlite3.broken-*"))
    assert len(copies) == 1 and copies[0].read_bytes() == junk
    notes = [ln for ln in result.stdout.splitlines() if str(copies[0]) in ln]
    assert len(notes) == 1 and "kept as" in notes[0]
    s = Store.open(isolated_home.db)  # the new database is a good one
    assert s.notice is None
    s.close()


def test_database_from_a_newer_paperterm(isolated_home, run_cli):
    Store.open(isolated_home.db).close()
    conn = sqlite3.connect(isolated_home.db, isolation_level=None)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    line = _assert_one_line_error(run_cli("--offline"), code=1)
    assert "newer paperterm" in line and str(isolated_home.db) in line
    assert not list(isolated_home.home.glob("*.broken-*"))


@pytest.mark.parametrize("args", [("config", "--path"), ("topics",), ("--version",)])
def test_light_commands_do_not_import_heavy_packages(run_cli, args):
    result = run_cli(*args, python_args=("-X", "importtime"))
    assert result.returncode == 0, result.stderr
    imported = {
        line.rsplit("|", 1)[-1].strip().split(".")[0]
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert "paperterm" in imported  # the measurement itself works
    for heavy in ("textual", "litellm", "arxiv", "requests", "rich"):
        assert heavy not in imported, heavy


def test_timeout_must_be_positive(run_cli):
    result = run_cli("score", "--timeout", "0", "--sample")
    assert result.returncode == 2
    assert "--timeout" in result.stderr and "Traceback" not in result.stderr


def test_bad_scoring_settings_fail_before_anything_is_loaded(run_cli, isolated_home):
    # the feed does not exist: the settings error must come first, and nothing is cached
    result = run_cli("score", "--scorer", "llm", "--feed", "missing.xml")
    assert result.returncode == 2
    assert "--scorer llm needs a model" in result.stderr
    assert not isolated_home.db.exists()
