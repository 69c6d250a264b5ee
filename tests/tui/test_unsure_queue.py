"""The unsure queue (issue 30 §3): `V` (and the palette) opens quick triage over the papers
the ranking is least sure about; each answer teaches the ranking, is counted in the header
and recorded for `paperterm eval`."""

from __future__ import annotations

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
        second = cards.current
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
