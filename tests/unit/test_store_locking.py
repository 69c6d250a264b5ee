"""Issue 9, items 5 and 7: only real corruption is quarantined. A lock held by another
process, a read-only database or data dir give one clear line and never move the user's
database aside; corruption that keeps size and mtime is still found."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from pathlib import Path

import pytest

from paperterm.store import Store, StoreError
from paperterm.store import db as dbmod

FEED = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"


def broken_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".broken-*"))


def make_store(path: Path) -> None:
    store = Store.open(path)
    store.marks.set_starred("2602.20191", True)
    store.close()


def hold_exclusive(path: Path) -> sqlite3.Connection:
    """Another program holding the database's lock (it keeps it until closed)."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("UPDATE user_state SET starred=1")
    return other


def test_a_long_held_lock_fails_with_one_line_and_keeps_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "paperterm.sqlite3"
    make_store(path)
    monkeypatch.setattr(dbmod.Database, "BUSY_TIMEOUT", 0.3)
    other = hold_exclusive(path)
    try:
        with pytest.raises(StoreError) as exc:
            Store.open(path)
    finally:
        other.close()
    message = str(exc.value)
    assert "locked" in message and "\n" not in message
    assert not broken_copies(path)
    store = Store.open(path)  # the user's data is all still there
    assert store.marks.starred_ids() == {"2602.20191"} and store.notice is None
    store.close()


def test_the_cli_says_the_database_is_locked(cli, isolated_home, monkeypatch) -> None:
    make_store(isolated_home.db)
    monkeypatch.setattr(dbmod.Database, "BUSY_TIMEOUT", 0.3)
    other = hold_exclusive(isolated_home.db)
    try:
        proc = cli("score", "--feed", str(FEED))
    finally:
        other.close()
    assert proc.returncode == 1
    assert "locked" in proc.stderr and "internal error" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not broken_copies(isolated_home.db)


def _open_at(path: str, barrier, results) -> None:  # type: ignore[no-untyped-def]
    barrier.wait()
    try:
        store = Store.open(path)
        results.put(store.notice or "ok")
        store.close()
    except Exception as exc:  # reported to the test
        results.put(f"{type(exc).__name__}: {exc}")


def test_two_processes_starting_on_a_fresh_data_dir_never_quarantine(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    for round_ in range(8):
        path = tmp_path / f"round{round_}" / "paperterm.sqlite3"
        barrier, results = ctx.Barrier(3), ctx.Queue()
        procs = [ctx.Process(target=_open_at, args=(str(path), barrier, results))
                 for _ in range(3)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
        got = [results.get(timeout=5) for _ in procs]
        assert got == ["ok"] * 3, got
        assert not broken_copies(path)


def test_a_read_only_database_gives_one_line_and_stays(
        cli, isolated_home, monkeypatch: pytest.MonkeyPatch) -> None:
    make_store(isolated_home.db)
    real_connect = sqlite3.connect

    def read_only(database: str, **kw):  # type: ignore[no-untyped-def]
        # what SQLite gives for a file it may not write (tests run as root, for whom
        # permission bits do not stop writes): SQLITE_READONLY / SQLITE_CANTOPEN
        return real_connect(f"file:{database}?mode=ro", uri=True, **kw)

    monkeypatch.setattr(dbmod.sqlite3, "connect", read_only)
    proc = cli("score", "--feed", str(FEED))
    assert proc.returncode == 1
    assert "cannot write the database" in proc.stderr and "internal error" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert isolated_home.db.exists() and not broken_copies(isolated_home.db)


def test_an_unusable_data_dir_gives_one_line(cli, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the data dir should be")
    proc = cli("score", "--feed", str(FEED), env={"PAPERTERM_HOME": str(blocker / "data")})
    assert proc.returncode == 1, proc.stderr
    assert "internal error" not in proc.stderr and str(blocker) in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_corruption_that_keeps_size_and_mtime_is_detected(tmp_path: Path) -> None:
    path = tmp_path / "paperterm.sqlite3"
    make_store(path)
    st = path.stat()
    with open(path, "r+b") as fh:  # damage every page but the header, same size
        fh.seek(4096)
        fh.write(b"\xff" * (st.st_size - 4096))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    store = Store.open(path)
    try:
        assert store.notice and "kept as" in store.notice
        assert len(broken_copies(path)) == 1
    finally:
        store.close()
