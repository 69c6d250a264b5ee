"""The reader's local ranking learns (issue 12, items 3 and 4): the blend arrives from a
worker after the first paint; a star re-ranks; `d` marks a paper "not interested" for the
topic (again: undo) and ranks it lower."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.usefixtures("embedding_model")


async def test_blend_after_first_paint_then_star_and_not_interested(
        make_session, make_app, probe, size, until, example_papers, ranking_cpu):
    from paperterm.store import Store

    session = make_session()
    store = Store.open(session.db_path)  # the day is cached, as the loader leaves it
    store.papers.save_day("cs.LG+cs.AI", session.day.day, example_papers, source="rss")
    store.close()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        child = ranking_cpu(app)  # the blend is made there: its CPU is the deadline
        await pilot.pause()
        assert p.shown[0].relevance is not None  # keyword scores at first paint
        await until(pilot, lambda: any("close to the topic" in e.reason for e in p.shown),
                    seconds=30, cpu=child, what="the blend")
        assert p.header().count("ranking") == 0
        target = next(e for e in p.shown if e.paper.title.startswith("MoBiQuant"))
        before = target.fine
        p.to_paper(target.id)
        await pilot.press("asterisk")
        await until(pilot, lambda: target.fine != before, seconds=30, cpu=child,
                    what="the ranking after the star")
        assert target.fine > before and target.starred
        # the star teaches the topic read, moe, only
        assert target.id in {e.id for e in app.store.marks.training_examples("moe")}
        assert target.id not in {e.id for e in app.store.marks.training_examples("agents")}
        # not interested: lower for this topic, remembered, and undone by pressing again
        other = next(e for e in p.shown if e.paper.title.startswith("Elimination"))
        p.to_paper(other.id)
        liked = other.fine
        await pilot.press("d")
        assert p.said("Not interested (moe)")
        await until(pilot, lambda: other.fine < liked, seconds=30, cpu=child,
                    what="the ranking after d")
        assert other.id in app.store.marks.dismissed_ids("moe")
        p.to_paper(other.id)
        await pilot.press("d")
        assert p.said("Interested again (moe)")
        await until(pilot, lambda: other.fine == pytest.approx(liked), seconds=30, cpu=child,
                    what="the ranking after d again")
        assert other.id not in app.store.marks.dismissed_ids("moe")
