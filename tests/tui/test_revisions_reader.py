"""A kept paper that comes back revised (issue 23): `v1→v2` in the mark column and the
preview, the title and abstract shown as a word diff readable in every shipped theme."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from support.feedbuild import day_rows, replacement, rss
from textual.color import Color
from textual.theme import BUILTIN_THEMES

from paperterm.sources.feeds import parse_feed
from paperterm.store import Store
from paperterm.tui.themes import contrast

FEED = "cs.AI+cs.LG"
SHIPPED = ["paperterm-dark", "paperterm-light", "paperterm-solarized"]
BUILTIN = sorted(n for n in BUILTIN_THEMES if n != "textual-ansi")


def _revised_day(session_db) -> tuple[list, str, str]:
    """The 02-25 day cached with its first paper starred and its second not; the 03-02 day
    with both re-announced as v2 (title and abstract changed)."""
    first_day = day_rows("2026-02-25")
    kept, other = first_day[0], first_day[1]
    store = Store.open(session_db)
    store.papers.save_day(FEED, date(2026, 2, 25),
                          parse_feed(rss(date(2026, 2, 25), first_day)).papers, source="rss")
    store.marks.set_starred(kept["id"], True)
    store.close()
    later = [*day_rows("2026-03-02"),
             replacement(kept, title=kept["title"] + " Revisited"), replacement(other)]
    return parse_feed(rss(date(2026, 3, 2), later)).papers, kept["id"], other["id"]


async def test_a_revised_kept_paper_is_marked_and_its_changes_shown(
        make_session, make_app, probe, size, until, tmp_path):
    papers, kept, other = _revised_day(tmp_path / "db.sqlite3")
    app = make_app(make_session(papers), autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.to_paper(kept)
        await until(pilot, lambda: p.preview.entry is not None and p.preview.entry.id == kept)
        mark = p.marks(p.table.cursor - int(p.table.scroll_y))
        assert "★" in mark and mark.endswith("v1→v2")
        meta = p.meta()
        assert "revised v1→v2: title and abstract changed" in meta
        assert "Revisited" in meta
        assert "We add experiments on three more benchmarks." in p.abstract()
        p.to_paper(other)  # revised too, but never kept: no mark
        await until(pilot, lambda: p.preview.entry is not None and p.preview.entry.id == other)
        assert "v1→v2" not in p.marks(p.table.cursor - int(p.table.scroll_y))
        assert "revised" not in p.meta()


def _fg(style) -> Color:
    t = style.color.get_truecolor()
    return Color(t.red, t.green, t.blue)


@pytest.mark.parametrize("theme", SHIPPED + BUILTIN)
async def test_the_word_diff_reads_in_every_theme(make_session, make_app, probe, size, until,
                                                  tmp_path, theme):
    papers, kept, _ = _revised_day(tmp_path / "db.sqlite3")
    app = make_app(replace(make_session(papers), theme=theme), autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.to_paper(kept)
        await until(pilot, lambda: p.current is not None and p.current.id == kept)
        preview = p.preview
        text = preview.diff(p.current.revision.title_diff(), "bold")
        ins = next(s.style for s in text.spans if text.plain[s.start:s.end] == "Revisited")
        assert not isinstance(ins, str) and ins.bold
        deleted = preview._readable(preview.get_component_rich_style("preview--deleted",
                                                                     partial=True))
        assert deleted.strike
        bg = preview.background_colors[1]
        if bg.ansi is None:  # ANSI themes: the terminal's own colours
            for style in (ins, deleted):
                if style.color is not None:  # else: the text colour, bold or struck
                    assert contrast(_fg(style), bg) >= 3.0, (theme, style)
