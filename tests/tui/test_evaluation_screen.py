"""The command palette's "Evaluate ranking" (issue 20, item 4): the table of `paperterm
eval` for the reader's topic, computed on a worker, over a real day with real stars."""

from __future__ import annotations

from datetime import date

from support.realdays import save_days
from textual.command import CommandList
from textual.widgets import Static

from paperterm.services.evaluation import evaluate, table
from paperterm.services.marks import MarksService
from paperterm.sources.loader import LoadRequest
from paperterm.store import Store
from paperterm.tui.screens.evaluation import EvaluationScreen

PICKS = ["2602.20191", "2602.20309", "2602.21144"]


async def test_the_palette_opens_the_evaluation_with_the_eval_table(
        make_session, make_app, probe, size, until):
    session = make_session()
    save_days(session.db_path, (date(2026, 2, 25),))
    store = Store.open(session.db_path)
    try:
        MarksService(store, session.topic.name).star(PICKS)
        want = table(evaluate(store, LoadRequest(["cs.LG", "cs.AI"], ["new", "cross"]),
                              session.topic))
    finally:
        store.close()
    assert "keywords" in "\n".join(want) and "2026-02-25 (3 picks)" in want
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen is not p.day)
        await pilot.press(*"evaluate ranking")
        await until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EvaluationScreen))
        screen = app.screen
        assert isinstance(screen, EvaluationScreen)
        await until(pilot, lambda: screen.lines != [], seconds=30)
        assert screen.lines == want
        body = str(screen.query_one("#evaluation-body", Static).render())
        assert "2026-02-25 (3 picks)" in body
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is p.day)


async def test_without_labels_it_says_how_to_get_some(make_session, make_app, size, until):
    session = make_session()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await app.push_screen(EvaluationScreen(session))
        screen = app.screen
        assert isinstance(screen, EvaluationScreen)
        await until(pilot, lambda: screen.lines != [], seconds=30)
        said = screen.lines[0]  # what to do in the reader, not "run `paperterm eval` again"
        assert "star the papers you want with *" in said and "ctrl+p" in said
        assert "paperterm eval" not in said
