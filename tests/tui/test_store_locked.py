"""Issue 9, item 6: the reader never shows a traceback when the database is locked (star,
seen, save); the write is retried in the background, and the user is told if it cannot be."""

from __future__ import annotations

import sqlite3
import time

from paperterm.store import Store
from paperterm.tui.screens.day import DayScreen
from paperterm.tui.store_writes import StoreWrites


def lock(path) -> sqlite3.Connection:  # type: ignore[no-untyped-def]
    """Another program holding the database's write lock until closed."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT OR IGNORE INTO user_state (id) VALUES ('someone-else')")
    return other


def starred(path) -> set[str]:  # type: ignore[no-untyped-def]
    store = Store.open(path)
    try:
        return store.marks.starred_ids()
    finally:
        store.close()


async def test_star_seen_and_save_behind_a_lock_are_retried(
        make_session, make_app, probe, size, until, monkeypatch):
    from paperterm.store.db import Database

    monkeypatch.setattr(DayScreen, "SEEN_FLUSH_INTERVAL", 0.2)
    monkeypatch.setattr(Database, "BUSY_TIMEOUT", 120.0)
    session = make_session()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.current
        await until(pilot, lambda: app.store.available)
        other = lock(session.db_path)
        try:
            started = time.monotonic()
            await pilot.press("asterisk")
            # no freeze for the connection's busy timeout (raised to 120 s above, so that a
            # freeze is told from a loaded machine's slow key)
            assert time.monotonic() - started < 60, "the key waited for the lock"
            await pilot.press("b")  # starring marked it seen too
            assert "★" in p.marks(0)  # the screen shows it at once
            assert any("locked" in n for n in p.notices("warning"))
            assert app.writes.pending
        finally:
            other.close()
        await until(pilot, lambda: not app.writes.pending)
        assert not p.notices("error")
    state = p.states([first.id])[first.id]
    assert state.starred and state.seen and state.saved


def test_a_write_given_up_says_what_was_lost(tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    Store.open(path).close()
    store = Store.open(path)
    writes = StoreWrites(busy_wait=0.05)
    writes.ATTEMPTS = 2
    other = lock(path)
    try:
        assert writes.run(store, "the star of 2602.20191",
                          lambda s: s.marks.set_starred("2602.20191", True)) is None
        assert writes.retry(store) == []
        failed = writes.retry(store)
    finally:
        other.close()
    assert failed == ["could not save the star of 2602.20191: the database stayed locked by "
                      "another program"]
    assert not writes.pending and store.marks.starred_ids() == set()
    store.close()
