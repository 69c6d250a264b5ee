"""The unsure queue (issue 30 §3): `V` (and the palette) opens quick triage over the papers
the ranking is least sure about; each answer teaches the ranking, is counted in the header
and recorded for `paperterm eval`."""

from __future__ import annotations

import pytest

from paperterm.day.listing import sort_entries
from paperterm.scoring.local.unsure import borderline
from paperterm.settings.reader_state import unsure_answers
from paperterm.tui.help import help_table
from paperterm.tui.screens.cards import TriageCards


def _header(app) -> str:
    return app.screen.query_one("#card-header").normal().plain  # (under any notice)


async def test_unsure_queue_from_the_borderline_band(make_session, make_app, probe, until,
                                                     size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        await until(pilot, lambda: p.day.model.scorer_label == "local scorer")
        ranked = [e.id for e in sort_entries(p.day.model.entries, "relevance")]
        band = borderline(ranked)
        await pilot.press("V")
        await until(pilot, lambda: isinstance(app.screen, TriageCards), 20)
        cards = app.screen
        # no learned model yet (no star for the topic): the ranking's borderline band
        assert cards.card.entry.id == band[0]
        assert "Unsure queue" in _header(app) and "0 answers so far" in _header(app)
        assert f"1 of {len(band)}" in _header(app)
        first = cards.current
        await pilot.press("asterisk")  # a star: the ranking learns, the answer counts
        await until(pilot, lambda: "1 answer so far" in _header(app), 20)
        assert first.starred
        assert unsure_answers("moe") == {first.id: "starred"}
        second = cards.current  # (a refill of the queue never swaps the card shown)
        assert second is not None and second is not first
        await pilot.press("d")
        await until(pilot, lambda: "2 answers so far" in _header(app), 20)
        assert second.dismissed
        assert unsure_answers("moe") == {first.id: "starred", second.id: "dismissed"}
        # the cards still to come are asked for again: none already answered comes back
        await until(pilot, lambda: not any(w.name == "unsure" and w.is_running
                                           for w in p.day.workers), 20)
        rest = cards.deck[cards.at:]
        assert first not in rest and second not in rest
        assert all(not (e.starred or e.dismissed or e.saved) for e in rest)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, TriageCards))
    table = help_table({})
    assert any("Unsure queue" in str(cell) for cell in table.columns[1]._cells)


async def test_unsure_queue_from_the_palette(make_session, make_app, probe, until, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen.id == "--command-palette")
        await pilot.press(*"unsure queue")
        await until(pilot, lambda: len(app.screen.query_one("CommandList").options) > 0)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TriageCards), 20)
        assert "Unsure queue" in _header(app)


@pytest.mark.usefixtures("embedding_model")
async def test_with_a_learned_model_the_least_sure_papers_first(
        make_session, make_app, probe, until, size, example_papers, ranking_cpu):
    """With stars for the topic the queue is the learned model's (in the ranking process):
    its probability nearest 0.5 first, no starred paper among the cards."""
    import numpy as np

    from paperterm.scoring.local.unsure import learned_probability
    from paperterm.services.marks import MarksService
    from paperterm.store import Store

    session = make_session()
    starred = [p.id for p in example_papers if p.title.startswith(("MoBiQuant", "Elimination"))]
    store = Store.open(session.db_path)
    try:
        store.papers.save_day("cs.LG+cs.AI", session.day.day, example_papers, source="rss")
        MarksService(store, "moe").star(starred)
    finally:
        store.close()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("V")
        await until(pilot, lambda: isinstance(app.screen, TriageCards), 30,  # CPU seconds
                    cpu=ranking_cpu(app), what="the unsure queue from the ranking process")
        cards = app.screen
        await until(pilot, lambda: probe(app).said("least sure about"))
        ids = [e.id for e in cards.deck]
        assert not set(ids) & set(starred)
    store = Store.open(session.db_path)
    try:  # the same order as the learned model gives here
        open_ = [p for p in example_papers if p.id not in starred]
        prob = learned_probability(store, open_, session.topic)
    finally:
        store.close()
    assert prob is not None
    nearest = [open_[i].id for i in np.argsort(np.abs(prob - 0.5), kind="stable")[:5]]
    assert ids[:5] == nearest
