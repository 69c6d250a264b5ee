"""The command line (in-process through `main(argv)`, a subprocess only to measure imports):
exit codes, one-line errors, no tracebacks, light imports."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import date
from pathlib import Path

import pytest

import paperterm
from paperterm.cli.options import Options
from paperterm.cli.parser import build_parser
from paperterm.cli.session import open_session
from paperterm.day.session import Session
from paperterm.store import SCHEMA_VERSION, Store

FEEDS = Path(__file__).parents[1] / "fixtures" / "feeds"

def _session(*args: str) -> Session:
    """A day loaded the way every reader command loads it (config, topic, store, loader),
    without starting the TUI or scoring."""
    s = open_session(Options.from_namespace(build_parser().parse_args(list(args))))
    s.close()
    return s


def _assert_one_line_error(result, code: int = 2) -> str:
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_version(cli):
    result = cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"paperterm {paperterm.__version__}"


def test_topics_lists_builtins(cli):
    result = cli("topics")
    assert result.returncode == 0, result.stderr
    for name in ("moe", "agents", "interpretability"):
        assert any(line[2:].startswith(name) for line in result.stdout.splitlines())


def test_themes_lists_bundled_themes(cli):
    result = cli("themes")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("* paperterm-dark")  # the default, marked current
    assert any(ln.split()[0] == "nord" and "textual" in ln for ln in lines)  # Textual's too
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--date", "2026-13-01"), "--date"),
        (("--date", "someday"), "expected YYYY-MM-DD, today or yesterday"),
        (("--date", "2026-02-30"), "--date: no such date: '2026-02-30'"),
        (("--since", "2026-02-29"), "--since: no such date: '2026-02-29'"),
        (("--max-results", "0"), "--max-results"),
        (("--feed", "a.xml", "--sample"), "not allowed with"),
        (("frobnicate",), "invalid choice"),
    ],
)
def test_usage_errors_exit_2(cli, args, needle):
    """(The QA walk: `--date 2026-02-30` was refused as "expected YYYY-MM-DD".)"""
    result = cli(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert needle in result.stderr
    assert result.stdout == ""


def test_missing_feed_file(cli):
    line = _assert_one_line_error(cli("--feed", "missing.xml"))
    assert "missing.xml" in line


def test_malformed_feed_file(cli, tmp_path):
    bad = tmp_path / "half.xml"
    bad.write_bytes((FEEDS / "rss-2026-03-02.xml").read_bytes()[:5000])
    line = _assert_one_line_error(cli("--feed", str(bad)))
    assert str(bad) in line


def test_session_loads_a_feed_file():
    s = _session("--feed", str(FEEDS / "rss-2026-03-02.xml"), "--topic", "agents")
    assert (s.day.source, len(s.day.papers), s.topic.name) == ("feed", 226, "agents")


def test_adhoc_topic_notice():
    s = _session("--sample", "--topic", "sparse attention kernels")
    assert (s.day.source, len(s.day.papers)) == ("sample", 244)
    assert s.topic.name == "sparse attention kernels"
    assert any("not a defined topic" in n for n in s.day.notices)


def test_offline_without_cache_opens_the_sample():
    s = _session("--offline")
    assert (s.day.source, len(s.day.papers), s.topic.name) == ("sample", 244, "moe")
    assert ("Showing the bundled sample day (2026-02-25), not today's papers: offline."
            in s.day.notices)


def test_offline_notice_reaches_stderr_of_headless_commands(cli):
    result = cli("score", "--offline")
    assert result.returncode == 0, result.stderr
    assert ("note: Showing the bundled sample day (2026-02-25), not today's papers: "
            "offline." in result.stderr)
    assert "total 244" in result.stdout


def test_corrupt_database_is_moved_and_the_app_keeps_working(isolated_home):
    isolated_home.home.mkdir(parents=True)
    junk = os.urandom(4096)
    isolated_home.db.write_bytes(junk)
    s = _session("--offline")
    assert (s.day.source, len(s.day.papers)) == ("sample", 244)
    copies = list(isolated_home.home.glob("paperterm.sqlite3.broken-*"))
    assert len(copies) == 1 and copies[0].read_bytes() == junk
    notes = [n for n in s.day.notices if str(copies[0]) in n]
    assert len(notes) == 1 and "kept as" in notes[0]
    s = Store.open(isolated_home.db)  # the new database is a good one
    assert s.notice is None
    s.close()


def test_database_from_a_newer_paperterm(isolated_home, cli):
    Store.open(isolated_home.db).close()
    conn = sqlite3.connect(isolated_home.db, isolation_level=None)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    line = _assert_one_line_error(cli("--offline"), code=1)
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


def test_timeout_must_be_positive(cli):
    result = cli("score", "--timeout", "0", "--sample")
    assert result.returncode == 2
    assert "--timeout" in result.stderr and "Traceback" not in result.stderr


def test_bad_scoring_settings_fail_before_anything_is_loaded(cli, isolated_home):
    # the feed does not exist: the settings error must come first, and nothing is cached
    result = cli("score", "--scorer", "llm", "--feed", "missing.xml")
    assert result.returncode == 2
    assert "--scorer llm needs a model" in result.stderr
    assert not isolated_home.db.exists()


def test_date_takes_the_words_since_and_the_reader_take(cli, isolated_home):
    """The QA walk: `score --date yesterday` was refused while `--since` and the reader's
    `D` take it."""
    from support.realdays import day_papers, save_days

    save_days(isolated_home.db)
    today = {"PAPERTERM_TODAY": "2026-03-03"}
    r = cli("score", "--date", "yesterday", "--offline", "--json", env=today)
    assert r.returncode == 0, r.stderr
    ids = {json.loads(line)["id"] for line in r.stdout.splitlines()}
    assert ids == {p.id for p in day_papers(date(2026, 3, 2))}
    r = cli("export", "--day", "yesterday", "--all", "-o", "-", env=today)
    assert r.returncode == 0 and r.stdout.count("@misc{") + r.stdout.count("@article{") > 100


def test_the_readme_routine_runs_offline_after_a_star(cli, isolated_home, tmp_path, monkeypatch):
    """The review's walk: the README's `paperterm export --bib refs.bib` stopped with
    "which papers to export?". The routine's starred, eval and export lines run as written
    (after a day is loaded and a paper starred; score exits 5 on the sample day)."""
    import re
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    lines = [ln.split("#", 1)[0].strip() for ln in readme.splitlines()]
    wanted = [ln for ln in lines if re.match(r"paperterm (starred|eval|export)\b", ln)]
    assert any(ln.startswith("paperterm export") for ln in wanted)
    monkeypatch.chdir(tmp_path)
    assert cli("score", "--offline", "--topic", "moe").returncode == 0  # the sample day
    assert cli("star", "--topic", "moe", "2602.21196").returncode == 0
    for line in wanted:
        proc = cli(*shlex.split(line)[1:])
        assert proc.returncode == 0, (line, proc.stderr)
    assert "2602.21196" in (tmp_path / "refs.bib").read_text(encoding="utf-8")
