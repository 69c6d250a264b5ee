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
