"""Issue 31 in the reader: item 11 (a mark that cannot be saved is never shown as made),
item 6 (a huge abstract's word diff never holds the keys), item 7 (quitting never waits
long for a writer)."""

from __future__ import annotations


async def test_a_star_that_cannot_be_saved_is_not_shown(make_session, make_app, probe, size,
                                                        until):
    session = make_session()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.current
        await until(pilot, lambda: app.store.available)
        app.store.db.conn.execute("PRAGMA query_only = ON")  # the database turned read-only
        await pilot.press("asterisk")
        await until(pilot, lambda: p.notices("error"))
        assert "★" not in p.marks(0), "a star that was not saved is shown as made"
        assert any("could not save" in n for n in p.notices("error"))
        await pilot.press("asterisk")  # again, now that the session keeps no marks
        await until(pilot, lambda: any("Not saved" in n for n in p.notices("error")))
        assert "★" not in p.marks(0)
    app.store.close()
    assert not p.states([first.id]).get(first.id, None) or not p.states(
        [first.id])[first.id].starred


async def test_a_huge_revised_abstract_never_holds_the_keys(make_session, make_app, probe,
                                                             size, until, tmp_path):
    import json
    import time
    from dataclasses import replace
    from datetime import date
    from pathlib import Path

    from support.feedbuild import day_rows, rss

    from paperterm.sources.feeds import parse_feed
    from paperterm.store import Store

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "feeds"
    words = " ".join(json.loads(line)["abstract"] for line in (
        fixtures / "day-2026-02-25.jsonl").read_text(encoding="utf-8").splitlines()).split()
    first_day = parse_feed(rss(date(2026, 2, 25), day_rows("2026-02-25"))).papers
    kept = replace(first_day[0], abstract=" ".join(words[:20_000]))  # v1: 20,000 words
    db = tmp_path / "db.sqlite3"
    store = Store.open(db)
    store.papers.save_day("cs.AI+cs.LG", date(2026, 2, 25), [kept, *first_day[1:]],
                          source="rss")
    store.marks.set_starred(kept.id, True)
    store.close()
    later = parse_feed(rss(date(2026, 3, 2), day_rows("2026-03-02"))).papers
    v2 = replace(kept, version=2, abstract=" ".join(words[20_000:40_000]),
                 announce_type="replace")
    twin = replace(later[1], abstract=v2.abstract)  # the same text, never revised
    app = make_app(make_session([later[0], twin, *later[2:], v2]), autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)

        async def cpu_to_show(paper_id: str) -> float:
            """The CPU time this process (the reader's loop and its threads) spends from the
            cursor reaching the paper to its preview shown: a loaded machine stretches the
            wall-clock time, not this."""
            started = time.process_time()
            p.to_paper(paper_id)
            await until(pilot, lambda: p.preview.entry is not None
                        and p.preview.entry.id == paper_id, what=f"{paper_id}'s preview")
            await pilot.pause()
            return time.process_time() - started

        # the reference, in the same run: the same 20,000 words in a paper with no revision,
        # shown once before (the first large text laid out costs more, whatever it is)
        await cpu_to_show(twin.id)
        await cpu_to_show(later[0].id)
        bare = await cpu_to_show(twin.id)
        took = await cpu_to_show(kept.id)
        assert "diff too large" in p.meta()
        # (unbounded, the diff made it 2.45 s of CPU against 0.67 s; bounded: 0.39 s, 0.76 s)
        assert took < 1.5 * bare + 0.5, f"the word diff held the keys: {took:.1f} s of CPU " \
                                        f"to show it, {bare:.1f} s for the same text unrevised"


async def test_quitting_behind_another_programs_lock_is_quick_and_says_what_was_lost(
        make_session, make_app, probe, size, until, monkeypatch):
    import sqlite3
    import time

    from paperterm.store.db import Database
    from paperterm.tui.screens.day import DayScreen

    monkeypatch.setattr(DayScreen, "SEEN_FLUSH_INTERVAL", 0.2)
    # a write blocked on the lock would wait 120 s: quitting that waited for it is told from
    # a loaded machine's slow quit (a bound of 3 s with SQLite's 10 s told neither)
    monkeypatch.setattr(Database, "BUSY_TIMEOUT", 120.0)
    session = make_session()
    app = make_app(session)
    other = sqlite3.connect(session.db_path, isolation_level=None, timeout=0)
    try:
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            first = p.current
            await until(pilot, lambda: app.store.available)
            await pilot.press("asterisk")  # saved before the lock: never lost
            await until(pilot, lambda: "★" in p.marks(0))
            other.execute("BEGIN IMMEDIATE")  # another program holds the lock from now on
            await pilot.press("j", "asterisk", "j", "asterisk")  # starred behind the lock
            await until(pilot, lambda: app.writes.pending)
            started = time.monotonic()
            await pilot.press("q")
        quit_took = time.monotonic() - started  # the reader closed, the lock still held
    finally:
        if other.in_transaction:
            other.rollback()
        other.close()
    assert quit_took < 60, f"quitting waited {quit_took:.1f} s for the lock"
    assert app.lost_writes and any("star of" in w for w in app.lost_writes), app.lost_writes
    assert p.states([first.id])[first.id].starred  # what was committed stays


def test_the_readers_thread_workers_never_hold_the_exit():
    """A job blocked in a worker thread (a ranking behind a lock) does not keep the
    process alive: the reader's event loop runs its thread workers as daemon threads."""
    import subprocess
    import sys
    import time

    code = """if True:
        import asyncio, threading, time
        from paperterm.tui.workers import DaemonExecutor
        loop = asyncio.new_event_loop()
        loop.set_default_executor(DaemonExecutor())
        async def main():
            asyncio.get_running_loop().run_in_executor(None, time.sleep, 600)
            await asyncio.sleep(0.1)
        loop.run_until_complete(main())
        loop.close()
        print("done", flush=True)
    """
    started = time.monotonic()
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=240)
    assert r.stdout.strip() == "done", r.stderr
    assert time.monotonic() - started < 120, "the blocked worker (600 s) held the exit"
