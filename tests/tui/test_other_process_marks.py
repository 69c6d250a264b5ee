"""Marks from another program reach the open day list without a key (issue 32, item 4): a
star written through a second connection to the same SQLite file (as `paperterm star` in
another shell) shows in the list and the header within 2 s; no terminal focus-in needed."""

from __future__ import annotations

import time

from paperterm.services.marks import MarksService
from paperterm.store import Store


def _star_elsewhere(db_path, ids: list[str]) -> None:
    other = Store(db_path)
    try:
        MarksService(other, "moe").star(ids)
    finally:
        other.close()


async def test_a_star_from_another_connection_shows_within_2s(make_session, make_app, probe,
                                                              until, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        target = p.shown[3]
        assert not target.starred and "★" not in p.marks(3)
        stars_before = p.header()
        started = time.monotonic()
        _star_elsewhere(app.session.db_path, [target.id])
        # (generous on a loaded machine; the watch looks twice a second)
        await until(pilot, lambda: target.starred, seconds=10)
        took = time.monotonic() - started
        assert "★" in p.marks(3)
        assert p.header() != stars_before  # the header counts the star
        assert took < 5, f"the star took {took:.1f} s to show"


async def test_nothing_is_read_while_nothing_changed(make_session, make_app, probe, until,
                                                     size, monkeypatch):
    app = make_app(make_session())
    reloads: list[int] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        # the start-up's own writes (the ranking's cache) are over
        await until(pilot, lambda: p.day.model.scorer_label == "local scorer"
                    and not any(w.is_running for w in p.day.workers), seconds=30)
        real = app.marks.reload
        monkeypatch.setattr(app.marks, "reload", lambda ids: reloads.append(1) or real(ids))
        watch = app.store_watch
        assert watch.thread.is_alive()
        # several looks of the watch go by (it looks every 0.5 s) with nothing written
        looks = []
        real_version = watch._version
        monkeypatch.setattr(watch, "_version", lambda s: looks.append(1) or real_version(s))
        await until(pilot, lambda: len(looks) >= 4, seconds=20)
        reloads.clear()  # (the start-up's own writes, the ranking's cache, are behind us)
        await until(pilot, lambda: len(looks) >= 10, seconds=30)
        assert reloads == []
        first = p.shown[0].id
        _star_elsewhere(app.session.db_path, [first])
        await until(pilot, lambda: p.entry(first).starred, seconds=10)
        assert len(reloads) >= 1
    assert not watch.thread.is_alive() or watch._stop.is_set()
