"""Issue 31, items 10-14 (and issue 32's date items): a full disk, a read-only data
directory, PAPERTERM_HOME a file, a corrupt database, dates at the ends of the calendar and
on weekends: each one line that names the problem."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

PID = "2602.20394"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 12 MB filesystem (tmpfs), mounted for the test (needs root: skipped without)."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", str(where)],
            capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> None:
    """Write until the disk is full (the last, partial write's error, at the write or at
    the close, is the point)."""
    with contextlib.suppress(OSError), open(disk / "filler", "wb", buffering=0) as fh:
        while True:
            fh.write(b"\0" * 65536)


def test_a_full_data_disk_is_named(cli, small_disk, monkeypatch):
    monkeypatch.setenv("PAPERTERM_HOME", str(small_disk / "home"))
    assert cli("score", "--sample", "--scorer", "local", "--json").returncode == 0
    assert cli("star", PID).returncode == 0
    fill(small_disk)
    r = cli("star", "2602.20670")  # a write: one line naming the full disk
    assert r.returncode == 1, r.stderr
    assert "disk holding the database is full" in r.stderr, r.stderr
    assert "no transaction is active" not in r.stderr and r.stderr.count("\n") == 1
    _read_only_commands_answer(cli, noted=True)  # (no -shm: SQLite would have made one)
    os.unlink(small_disk / "filler")
    r = cli("starred", "--json")  # nothing committed was lost
    assert r.returncode == 0 and PID in r.stdout and "2602.20670" not in r.stdout


def _read_only_commands_answer(cli, *, noted: bool) -> None:  # type: ignore[no-untyped-def]
    """On the full disk the commands that only read give their results (the database is
    read without writing); `noted`: with one line saying the disk is full."""
    for args in (("starred", "--json"), ("search", "ising", "--json"), ("eval",)):
        r = cli(*args)
        assert r.returncode == 0, (args, r.stderr)
        said = [line for line in r.stderr.splitlines() if "disk" in line]
        assert len(said) == noted, (args, r.stderr)
        assert not said or "disk holding the database is full" in said[0], (args, r.stderr)
        assert "error" not in r.stderr and "I/O" not in r.stderr, (args, r.stderr)
        if args[0] == "starred":
            assert {p["id"] for p in json.loads(r.stdout)} == {PID}, r.stdout
        elif args[0] == "search":
            assert json.loads(r.stdout), "search found nothing on the full disk"
        else:
            assert "how each scorer ranks your picks" in r.stdout, r.stdout


def test_a_full_disk_read_sees_what_a_running_writer_committed(cli, small_disk, monkeypatch):
    """Another paperterm (the reader) has the database open, its last star still in the WAL
    (not checkpointed): a read on the full disk sees it, and the writer keeps working."""
    from paperterm.store import Store

    home = small_disk / "home"
    monkeypatch.setenv("PAPERTERM_HOME", str(home))
    assert cli("score", "--sample", "--scorer", "local", "--json").returncode == 0
    running = Store.open(home / "paperterm.sqlite3")
    try:
        running.conn.execute("PRAGMA wal_autocheckpoint=0")  # the star stays in the WAL
        running.marks.set_starred(PID, True, topic="moe")
        assert os.path.getsize(home / "paperterm.sqlite3-wal") > 0
        fill(small_disk)
        _read_only_commands_answer(cli, noted=False)  # (the writer's -shm is there to share)
        assert running.marks.starred_ids() == {PID}  # not disturbed by the read
    finally:
        running.close()
    os.unlink(small_disk / "filler")
    assert PID in cli("starred", "--json").stdout


def test_a_read_only_data_dir_makes_star_fail(cli, small_disk, monkeypatch):
    monkeypatch.setenv("PAPERTERM_HOME", str(small_disk / "home"))
    assert cli("score", "--sample", "--scorer", "local", "--json").returncode == 0
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        r = cli("star", PID)
        assert r.returncode == 1 and "cannot write the database" in r.stderr, r.stderr
        assert "starred" not in r.stdout
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    assert PID not in cli("starred", "--json").stdout


def test_paperterm_home_a_regular_file_is_named(cli, tmp_path, monkeypatch):
    home = tmp_path / "afile"
    home.write_text("not a folder")
    for value in (home, home / "sub"):
        monkeypatch.setenv("PAPERTERM_HOME", str(value))
        r = cli("starred")
        assert r.returncode == 1 and "Errno" not in r.stderr, r.stderr
        assert f"{home} is a file, not a folder" in r.stderr and "PAPERTERM_HOME" in r.stderr


@pytest.mark.parametrize("today", ["0001-01-01", "9999-12-31"])
def test_dates_at_the_ends_of_the_calendar_are_one_line(cli, today):
    for args in (("starred", "--since", "yesterday"), ("starred", "--since", "week"),
                 ("score", "--offline", "--json"), ("digest", "--format", "json")):
        r = cli(*args, env={"PAPERTERM_TODAY": today})
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.count("\n") == 1 and "calendar" in r.stderr, (args, r.stderr)
        assert "OverflowError" not in r.stderr


def test_a_date_that_does_not_exist_is_the_error_alone(cli):
    r = cli("score", "--date", "2026-02-30")
    assert r.returncode == 2
    assert r.stderr == ("paperterm score: error: argument --date: no such date: "
                        "'2026-02-30'\n")
    r = cli("score", "--no-such-flag")  # an unknown flag keeps the usage: it lists the rest
    assert r.returncode == 2 and "usage:" in r.stderr


def test_a_weekend_date_is_the_friday_before_and_says_so(cli):
    r = cli("score", "--date", "2026-02-28", "--offline", "--json")
    assert "2026-02-28 is a Saturday" in r.stderr and "showing Friday 2026-02-27" in r.stderr
    assert "--date 2026-02-27 could not be loaded" in r.stderr  # (offline, not cached)


# -- item 13: a corrupt database is moved aside, and what can be read is salvaged ---------------


def test_a_corrupt_database_is_salvaged(cli, isolated_home):
    import sqlite3

    assert cli("score", "--sample", "--scorer", "local", "--json").returncode == 0
    assert cli("star", PID, "2602.20670").returncode == 0
    assert cli("note", PID, "--set", "read the appendix", "--tag", "to-read").returncode == 0
    db = sqlite3.connect(isolated_home.db)
    pages = [r[0] for r in db.execute(
        "SELECT pageno FROM dbstat WHERE name = 'paper_fts_data' ORDER BY pageno")]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with open(isolated_home.db, "r+b") as fh:  # a damaged page in the search index
        fh.seek((pages[len(pages) // 2] - 1) * size)
        fh.write(b"\xde\xad\xbe\xef" * (size // 4))
    r = cli("starred", "--json")
    assert r.returncode == 0, r.stderr
    assert "It was kept as" in r.stderr and ".broken-" in r.stderr, r.stderr
    assert "Salvaged from it: 2 marked papers, 1 note and 1 tag" in r.stderr, r.stderr
    got = {p["id"] for p in json.loads(r.stdout)}
    assert got == {PID, "2602.20670"}
    assert list(isolated_home.home.glob("paperterm.sqlite3.broken-*"))
    r = cli("search", "appendix", "--json")  # the note is searchable again
    assert PID in r.stdout
