"""Text cut to fit ends in "…" (issue 22): the header line and the library's results at 80
columns; the library's footer shows whole keys only."""

from __future__ import annotations

from textual.widgets import OptionList

from paperterm.tui.compat import FooterKey
from paperterm.tui.screens.library import LibraryScreen


async def test_the_80_column_header_is_cut_with_an_ellipsis(make_session, make_app, probe,
                                                            until):
    app = make_app(make_session())
    async with app.run_test(size=(80, 24)) as pilot:
        p = probe(app)
        await pilot.press("slash", *"scaling transformers mixture experts", "enter")
        await until(pilot, lambda: "filter" in p.header())
        header = p.header().rstrip()
        assert len(header) <= 80 and header.endswith("…"), header


async def test_library_results_are_cut_with_an_ellipsis_and_its_footer_keys_whole(
        make_session, make_app, until):
    from paperterm.store import Store

    session = make_session()
    store = Store.open(session.db_path)
    store.papers.save_day("cs.AI+cs.LG", session.day.day, session.day.papers, source="feed")
    store.close()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("F", *"mixture")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        await until(pilot, lambda: len(screen.hits) > 2)
        await pilot.press("down")
        await pilot.pause()
        results = screen.query_one("#library-results", OptionList)
        rows = [results.render_line(y).text.rstrip(" ▎▊") for y in range(3)]
        assert any(row.endswith("…") for row in rows), rows
        assert results.virtual_size.height == len(screen.hits)  # one line each, no wrapping
        shown = [k for k in screen.query(FooterKey) if k.display]
        assert shown[0].description == "Its day"
        assert all(k.region.right <= 80 for k in shown)
        assert "FittingFooter" in type(screen.query_one("Footer")).__name__


def test_cut_ends_what_it_cuts_with_an_ellipsis():
    from paperterm.text.hygiene import cut

    assert cut("short", 10) == "short"
    assert cut("a rather long line of text", 10) == "a rather…"
    assert len(cut("x" * 50, 10)) == 10 and cut("x" * 50, 10).endswith("…")


async def test_a_notice_with_a_long_title_keeps_it_whole(make_session, make_app, probe):
    """It was cut at 60 letters with "…" (issue 22); since issue 32 the message log (`M`)
    keeps every notice whole, and only the header line cuts it to its width."""
    app = make_app(make_session())
    async with app.run_test(size=(120, 40)) as pilot:
        p = probe(app)
        while len(p.current.paper.title) <= 60:
            await pilot.press("j")
        title = p.current.paper.title
        await pilot.press("d")
        said = next(text for text, _ in app.said if text.startswith("Not interested"))
        assert title in said and "…" not in said


def test_the_starred_lists_snippet_is_cut_with_an_ellipsis(tmp_path):
    from datetime import date

    from paperterm.models import Paper, Topic
    from paperterm.services import library
    from paperterm.settings import ScoringSettings
    from paperterm.store import Store

    store = Store.open(tmp_path / "db.sqlite3")
    try:
        store.papers.save_day("cs.LG", date(2026, 2, 2), [
            Paper("2602.00001", 1, "A title", ("Ada Lovelace",), "word " * 200, ("cs.LG",),
                  "cs.LG")], source="rss")
        store.marks.set_starred("2602.00001", True)
        hits, _ = library.starred(store, Topic("moe", "mixture of experts", ()),
                                  ScoringSettings())
    finally:
        store.close()
    assert len(hits[0].snippet) <= 300 and hits[0].snippet.endswith("…")
