"""Issue 32, item 10: the first paint does not grow with the cache. What the user taught the
ranking (a year of papers read and not kept, the stars, the days they were read on) was read
on the reader's thread before the first paint, only to tell whether the day's cached blend
was current: on 200,000 papers read, seconds. The day's newest cached blend now shows at
once, and whether it is current is read on a worker thread after the first paint."""

from __future__ import annotations

import threading

import pytest

from paperterm.scoring.local import cache
from paperterm.scoring.types import Score
from paperterm.services.marks import MarksService
from paperterm.store import Store
from paperterm.store.db import Database

LEARNED = "u.seen_at IS NOT NULL AND u.starred=0"  # the papers read and not kept


@pytest.fixture
def traced(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(thread name, statement) of every statement on any paperterm database from now on."""
    seen: list[tuple[str, str]] = []
    opened = Database.__init__

    def init(self, path):  # type: ignore[no-untyped-def]
        opened(self, path)
        self.conn.set_trace_callback(
            lambda sql: seen.append((threading.current_thread().name, sql)))

    monkeypatch.setattr(Database, "__init__", init)
    return seen


def _ranked_day(session, example_papers) -> dict[str, float]:
    """The day cached, a paper starred and read ones, and its blend cached as current."""
    store = Store.open(session.db_path)
    try:
        store.papers.save_day("cs.AI+cs.LG", session.day.day, example_papers, source="rss",
                              fetched_for=session.day.day)
        marks = MarksService(store, session.topic.name)
        marks.star([example_papers[5].id])
        marks.mark_seen([p.id for p in example_papers[10:40]])
        version = cache.blend_version(cache.training_examples(store, session.topic))
        scores = [Score(p.id, p.version, 1 + i % 10, None, "the cached blend", "scored",
                        fine=round(1 + (i * 37 % 244) / 27.1, 3))
                  for i, p in enumerate(example_papers)]
        cache.save(store, session.day.label, example_papers, session.topic, version, scores)
    finally:
        store.close()
    return {s.paper_id: s.fine or 0.0 for s in scores}


async def test_the_cached_blend_paints_and_what_it_learned_is_read_after(
        make_session, make_app, probe, example_papers, size, until, traced):
    session = make_session()
    fine = _ranked_day(session, example_papers)
    traced.clear()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: p.shown and p.shown[0].relevance is not None)
        assert [e.fine for e in p.shown] == [fine[e.paper.id] for e in p.shown]
        await until(pilot, lambda: any(LEARNED in sql for _, sql in traced))
        await until(pilot, lambda ws=app.workers: all(
            w.is_finished for w in ws if w.name == "ranking"))
        await pilot.pause()
        assert "local scorer" in p.header() and "ranking" not in p.header()  # current
        assert [e.fine for e in p.shown] == [fine[e.paper.id] for e in p.shown]
    on_reader = [sql for thread, sql in traced if thread == "MainThread" and LEARNED in sql]
    assert on_reader == []  # never on the thread that paints
