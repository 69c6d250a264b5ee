"""Search, Starred and Similar lead somewhere (issue 22): j/k move in the results, Down
from the query enters them, Tab back keeps the query, enter opens the result's own day
with the cursor on it and esc comes back to the results. Pilot, against a real cache."""

from __future__ import annotations

from datetime import date

from support.olderday import OLDER, older_day
from textual.widgets import Input, OptionList

from paperterm.models import Paper
from paperterm.store import Store
from paperterm.tui.screens.day import DayScreen
from paperterm.tui.screens.library import LibraryScreen


def _older_day(db) -> None:  # type: ignore[no-untyped-def]
    older_day(db, Paper("2602.00003", 1, "Protein folding at scale", ("Grace Hopper",),
                        "Folding proteins.", ("q-bio.BM",), "q-bio.BM"))


async def test_search_results_move_with_jk_and_the_query_keeps_its_text(
        make_session, make_app, size, until):
    session = make_session()
    _older_day(session.db_path)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.press("F", *"larvae")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        await until(pilot, lambda: len(screen.hits) == 2)
        results = screen.query_one("#library-results", OptionList)
        box = screen.query_one("#library-query", Input)
        await pilot.press("down")  # from the query into the results
        assert screen.focused is results and results.highlighted == 0
        await pilot.press("j")
        assert results.highlighted == 1
        await pilot.press("k")
        assert results.highlighted == 0
        await pilot.press("up")  # from the first result back to the query
        assert screen.focused is box and box.value == "larvae"
        await pilot.press("down", "tab")  # back to the query: the text stays, the next key adds
        await until(pilot, lambda: screen.focused is box)
        await pilot.press("s")
        assert box.value == "larvaes"


async def test_enter_opens_the_results_day_with_the_cursor_on_it_and_esc_comes_back(
        make_session, make_app, size, until):
    session = make_session()
    _older_day(session.db_path)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.press("F", *"larvae")
        search = app.screen
        assert isinstance(search, LibraryScreen)
        await until(pilot, lambda: len(search.hits) == 2)
        await pilot.press("down", "j")
        wanted = search.hits[1].paper.id
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DayScreen) and app.screen.visit)
        day = app.screen
        assert day.session.day.day == OLDER  # its own day, every paper of it
        assert {e.id for e in day.model.entries} == {"2602.00001", "2602.00002", "2602.00003"}
        await until(pilot, lambda: day.current is not None and day.current.id == wanted)
        assert "2026-02-02" in str(day.query_one("#topbar").render())
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is search)
        results = search.query_one("#library-results", OptionList)
        assert results.highlighted == 1 and search.query_one(Input).value == "larvae"
        await pilot.press("escape")  # and on to the day the reader was on
        await until(pilot, lambda: isinstance(app.screen, DayScreen))
        assert app.screen.session.day.day == date(2026, 2, 25) and not app.screen.visit


async def test_starred_and_similar_open_the_day_too(make_session, make_app, size, until):
    session = make_session()
    _older_day(session.db_path)
    store = Store.open(session.db_path)
    store.marks.set_starred("2602.00001", True, topic="moe")
    store.close()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.press("L")
        starred = app.screen
        assert isinstance(starred, LibraryScreen) and starred.mode == "starred"
        assert [h.paper.id for h in starred.hits] == ["2602.00001"]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DayScreen) and app.screen.visit)
        assert app.screen.current.id == "2602.00001"
        assert app.screen.session.day.day == OLDER
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is starred)
        await pilot.press("m")  # similar to the starred paper
        similar = app.screen
        assert isinstance(similar, LibraryScreen) and similar.mode == "similar"
        assert similar.hits and similar.hits[0].paper.id == "2602.00002"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DayScreen) and app.screen.visit)
        assert app.screen.current.id == "2602.00002"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is similar)


def test_the_snippet_renders_tex_and_leaves_stop_words_unmarked():
    from paperterm.store.fts import HIT_CLOSE as C
    from paperterm.store.fts import HIT_OPEN as O
    from paperterm.tui.screens.library import highlighted

    text = highlighted(f"We \\emph{{{O}track{C}}} {O}of{C} larvae in $10^2$ frames "
                       f"with {O}mixture of experts{C}")
    assert text.plain == "We track of larvae in 10² frames with mixture of experts"
    marked = [text.plain[s.start:s.end] for s in text.spans if "reverse" in str(s.style)]
    assert marked == ["track", "mixture of experts"]  # "of" alone is not worth marking


async def test_search_and_similar_previews_show_tex_as_unicode(make_session, make_app, size,
                                                               until):
    session = make_session()
    store = Store.open(session.db_path)
    store.papers.save_day("cs.AI+cs.LG", OLDER, [
        Paper("2602.00011", 1, "Okapi \\emph{sightings}", ("Ada Lovelace",),
              "We count \\emph{okapi} herds of $10^2$ animals with \\textbf{drones}.",
              ("cs.CV",), "cs.CV"),
        Paper("2602.00012", 1, "Okapi herds counted", ("Alan Turing",),
              "Counting $\\alpha$ okapi herds, \\emph{again}.", ("cs.CV",), "cs.CV"),
    ], source="rss")
    store.close()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.press("F", *"okapi herds")
        search = app.screen
        await until(pilot, lambda: len(search.hits) == 2)
        await pilot.press("down")
        for _ in range(2):
            detail = str(search.query_one("#library-detail").render())
            assert "\\" not in detail and "$" not in detail, detail
            await pilot.press("j")
        await pilot.press("m")
        similar = app.screen
        await until(pilot, lambda: isinstance(similar, LibraryScreen) and similar.hits)
        detail = str(similar.query_one("#library-detail").render())
        assert "\\" not in detail and "$" not in detail, detail
        assert "α" in detail or "10²" in detail


async def test_another_day_from_a_visited_day_leaves_the_library(make_session, make_app,
                                                                 until):
    session = make_session()
    _older_day(session.db_path)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("F", *"larvae")
        search = app.screen
        await until(pilot, lambda: len(search.hits) == 2)
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, DayScreen) and app.screen.visit)
        assert any("esc goes back to the results" in text for text, _ in app.said)
        app.screen.days.jump_to("2026-02-25")  # another day: the reader's own, not a visit
        await until(pilot, lambda: isinstance(app.screen, DayScreen) and not app.screen.visit)
        assert len(app.screen_stack) == 1
