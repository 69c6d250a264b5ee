"""The command palette's "Evaluate ranking" (issue 20, item 4): the table of `paperterm
eval` for the reader's topic, computed on a worker, over a real day with real stars."""

from __future__ import annotations

import re
from datetime import date

from support.realdays import save_days
from textual.command import CommandList
from textual.widgets import Static

from paperterm.services.evaluation import evaluate
from paperterm.services.evaluation_report import table
from paperterm.services.marks import MarksService
from paperterm.sources.loader import LoadRequest
from paperterm.store import Store
from paperterm.tui.screens.evaluation import EvaluationScreen

PICKS = ["2602.20191", "2602.20309", "2602.21144"]


def timeless(lines: list[str]) -> list[str]:
    """The table's lines with the seconds per day (the last figure of a local row, which
    varies by run) left out."""
    return [re.sub(r" \d+\.\d\d$", " -", line.rstrip()) for line in lines]


async def opened(app, pilot, session, until) -> EvaluationScreen:
    """The evaluation screen pushed over the day, once its lines are worked out."""
    await app.push_screen(EvaluationScreen(session))
    screen = app.screen
    assert isinstance(screen, EvaluationScreen)
    await until(pilot, lambda: screen.lines != [])
    return screen


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
        await until(pilot, lambda: screen.lines != [])
        assert timeless(screen.lines) == timeless(want)
        body = str(screen.query_one("#evaluation-body", Static).render())
        assert "2026-02-25 (3 picks)" in body
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is p.day)


async def test_without_labels_it_says_how_to_get_some(make_session, make_app, size, until):
    session = make_session()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        screen = await opened(app, pilot, session, until)
        said = screen.lines[0]  # what to do in the reader, not "run `paperterm eval` again"
        assert "star the papers you want with *" in said and "ctrl+p" in said
        assert "paperterm eval" not in said


async def test_the_table_fits_an_80_column_terminal(make_session, make_app, until):
    """The QA walk: at 80x24 the cost column wrapped onto a line of its own (the table was
    77 columns, the box holds 74 beside its scrollbar), with a long model name too."""
    from paperterm.scoring.cache import save_answer
    from paperterm.scoring.task import ScoringTask
    from paperterm.store import ScoreRow

    session = make_session()
    days = save_days(session.db_path)
    store = Store.open(session.db_path)
    try:
        MarksService(store, session.topic.name).star([*PICKS, "2602.24059", "2602.23722"])
        for papers in days.values():
            rows = [ScoreRow(p.id, p.version or 0, 5, 5, "r") for p in papers]
            save_answer(store.scores, ScoringTask(session.topic),
                        model="anthropic/claude-3-5-sonnet-20241022", n_papers=len(rows),
                        prompt_tokens=1000, completion_tokens=100, cost=0.5, rows=rows)
    finally:
        store.close()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(app, pilot, session, until)
        body = screen.query_one("#evaluation-body", Static)
        assert any("$1.0000" in line for line in screen.lines)  # two days, $0.50 each
        table_rows = screen.lines[1:screen.lines.index("", 2)]  # the totals, header first
        assert table_rows[-1].startswith("anthropic/claude-3-5")
        # every line but the verdict (prose, wrapped at words) holds on one screen line
        assert max(len(line) for line in screen.lines[:-1]) <= body.size.width
        # the QA walk: a table taller than the box scrolled with the arrows only
        box = screen.query_one("#evaluation-box")
        await until(pilot, lambda: box.max_scroll_y > 0)
        await pilot.press("G")
        await until(pilot, lambda: box.scroll_y == box.max_scroll_y)
        await pilot.press("k")
        await until(pilot, lambda: box.scroll_y == box.max_scroll_y - 1)
        await pilot.press("g")
        await until(pilot, lambda: box.scroll_y == 0)
        await pilot.press("j")
        await until(pilot, lambda: box.scroll_y == 1)


async def test_labels_on_days_of_other_categories_are_said_so(make_session, make_app, until):
    """The QA walk: with stars on days cached for cs.AI+cs.LG and the reader's categories
    cs.CL, the screen said "No labels to evaluate against yet ... star the papers"."""
    from paperterm.settings.config import Config

    session = make_session(config=Config(categories=["cs.CL"]))
    save_days(session.db_path, (date(2026, 2, 25),))
    store = Store.open(session.db_path)
    try:
        MarksService(store, session.topic.name).star(PICKS)
    finally:
        store.close()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(app, pilot, session, until)
        assert "2026-02-25" in screen.lines[0] and "yet" not in screen.lines[0]
