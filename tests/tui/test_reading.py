"""Issue 10, item 7: reading. The abstract fills the preview, a key and a setting keep
abstracts expanded, long author lists are shortened until expanded, a key pages the preview
while the list keeps the focus, and 80x24 shows at least 6 lines of abstract."""

from __future__ import annotations

from dataclasses import replace

from paperterm.settings.config import Config
from paperterm.tui.preview import COLLAPSED_LINES, short_authors, wrapped_lines


def _long(p, papers):
    """The index of the paper with the longest abstract."""
    return max(range(len(p.shown)), key=lambda i: len(p.shown[i].paper.abstract))


async def test_the_abstract_fills_the_preview(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.table.move_to(_long(p, p.shown))
        await pilot.pause()
        pv = p.preview
        abstract = pv.query_one("#pv-abstract")
        assert pv.collapsible and not pv.expanded
        assert pv.fit_lines > COLLAPSED_LINES  # more than the old fixed 4 lines
        assert abstract.size.height == pv.fit_lines
        # the meta lines, the margin and the abstract fill the preview's height
        meta = pv.query_one("#pv-meta")
        assert meta.size.height + 1 + abstract.size.height == pv.scrollable_content_region.height
        assert "more lines" in str(pv.border_title)


async def test_at_80x24_six_abstract_lines_show(make_session, make_app, probe):
    app = make_app(make_session())
    async with app.run_test(size=(80, 24)) as pilot:
        p = probe(app)
        for _ in range(5):
            await pilot.pause()
            assert p.preview.query_one("#pv-abstract").size.height >= 6, p.current.paper.title
            await pilot.press("j")


async def test_long_author_lists_are_shortened_until_expanded(
        make_session, make_app, probe, example_papers, size):
    papers = list(example_papers)
    authors = tuple(f"Author Number{i}" for i in range(55))
    papers[0] = replace(papers[0], authors=authors)
    app = make_app(make_session(papers))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.to_paper(papers[0].id)
        await pilot.pause()
        meta = p.meta()
        assert "Author Number0, " in meta and "Author Number54" not in meta
        assert "more" in meta.splitlines()[1] and "… +" in meta
        await pilot.press("enter")
        assert "Author Number54" in p.meta()


def test_short_authors_fits_the_width():
    names = [f"Name{i} Surname{i}" for i in range(50)]
    text = short_authors(names, 80)
    assert len(text) <= 80 and text.endswith(" more") and "… +" in text
    n = int(text.rsplit("+", 1)[1].split()[0])
    assert text.count(",") == 50 - n  # the names shown plus the "… +N more"
    assert short_authors(["A", "B"], 80) == "A, B"


async def test_e_keeps_abstracts_expanded_across_papers(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("E")
        assert p.preview.expanded
        await pilot.press("j", "j")
        assert p.preview.expanded and p.preview.keep_expanded
        await pilot.press("E", "j")
        assert not p.preview.expanded


async def test_the_setting_opens_every_paper_expanded(make_session, make_app, probe, size):
    app = make_app(make_session(config=Config(expand_abstracts=True)))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.pause()
        assert p.preview.expanded
        await pilot.press("j")
        assert p.preview.expanded


async def test_j_pages_the_preview_while_the_list_keeps_focus(make_session, make_app, probe):
    app = make_app(make_session())
    async with app.run_test(size=(80, 24)) as pilot:
        p = probe(app)
        p.table.move_to(_long(p, p.shown))
        await pilot.pause()
        pv = p.preview
        assert pv.scroll_y == 0
        await pilot.press("J")  # expands, then pages
        await pilot.pause()
        assert pv.expanded and pv.scroll_y > 0
        assert app.focused is p.table
        cursor = p.table.cursor
        await pilot.press("K")
        await pilot.pause()
        assert pv.scroll_y == 0 and p.table.cursor == cursor


async def test_one_line_more_is_said_in_the_singular(make_session, make_app, probe):
    """A collapsed abstract one line longer than the preview said "▾ 1 more lines"."""
    app = make_app(make_session(), autoscore=False)
    async with app.run_test(size=(120, 36)) as pilot:
        p = probe(app)
        pv = p.preview
        seen: dict[int, str] = {}
        for entry in list(p.shown):
            p.table.move_to(p.row_of(entry.id))
            await pilot.pause()
            if pv.collapsible and not pv.expanded:
                text = wrapped_lines(pv.abstract_source(), pv._width())
                seen.setdefault(text - pv.fit_lines, str(pv.border_title))
            if 1 in seen and 2 in seen:
                break
        assert seen[1] == "▾ 1 more line: enter, J pages"
        assert seen[2] == "▾ 2 more lines: enter, J pages"
