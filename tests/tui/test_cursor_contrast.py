"""The cursor row is readable (issue 10, item 2): title and score at least 4.5:1 against the
cursor's background in every shipped theme, in truecolor and in 256 colours."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.color import Color
from textual.theme import BUILTIN_THEMES

from paperterm.tui.themes import MIN_CONTRAST, as_256, contrast

SHIPPED = ["paperterm-dark", "paperterm-light", "paperterm-solarized"]
BUILTIN = sorted(n for n in BUILTIN_THEMES if n != "textual-ansi")


def _color(c) -> Color:
    t = c.get_truecolor()
    return Color(t.red, t.green, t.blue)


@pytest.mark.parametrize("theme", SHIPPED + BUILTIN)
async def test_cursor_row_title_and_score_contrast(make_session, make_app, probe, size, theme):
    session = make_session()
    session = replace(session, theme=theme)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        assert app.theme == theme
        strip = p.table.render_line(p.table.cursor - int(p.table.scroll_y))
        segments = [s for s in strip if s.text.strip()]
        score, title = segments[0], segments[1]
        assert score.text.strip() == str(p.current.relevance)
        assert title.text.strip().startswith(p.current.paper.title.split()[0])
        if app.current_theme.ansi:  # the terminal's own colours, swapped (reverse video)
            assert score.style.reverse and title.style.reverse
            return
        for seg in (score, title):
            fg, bg = _color(seg.style.color), _color(seg.style.bgcolor)
            assert contrast(fg, bg) >= MIN_CONTRAST, (theme, seg.text, fg.hex, bg.hex)
            assert contrast(as_256(fg), as_256(bg)) >= MIN_CONTRAST, (theme, "256", seg.text)
        # the cursor is still visible in 256 colours: its background differs from the list's
        row = p.table.render_line(p.table.cursor - int(p.table.scroll_y) + 1)
        other_bg = _color(next(s for s in row if s.text.strip()).style.bgcolor)
        assert as_256(_color(title.style.bgcolor)) != as_256(other_bg)
