"""Readable in every theme (issue 22): every letter and digit the reader draws (the list, the
cursor row, marked and starred rows, the preview, the footer, a notice, the search highlight,
the zoomed preview, the quick triage card, the help dialog, the filter panel, the topic
picker, the command palette, the search and Starred screens, the evaluation) reads
at 4.5:1 or better against its background, in every theme `paperterm themes` lists, in
truecolor and in 256 colours. Measured on the rendered screen, cell by cell
(tests/support/contrast.py), not on the palette."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.contrast import MODES, contrast, measure, report, screen_lines, shown_colours
from textual.widgets import Checkbox

from paperterm.settings.theming import list_themes
from paperterm.tui.screens.evaluation import EvaluationScreen
from paperterm.tui.themes import builtin_theme_names

THEMES = [name for name, _ in list_themes(None)] + [
    n for n in builtin_theme_names() if n != "textual-ansi"]
OURS = ["paperterm-dark", "paperterm-light", "paperterm-solarized"]


def _check(app, where: str, failures: list[str]) -> None:
    lines = screen_lines(app)
    for mode in MODES:
        counted, low = measure(lines, mode)
        assert counted > 100, f"{where}: only {counted} letters on screen"
        if low:
            failures.append(f"{app.theme} {where} ({mode}): {len(low)} cells\n{report(low, 5)}")


def _text_on_screen(app, text: str) -> bool:
    return any(text in "".join(s.text for s in line) for line in screen_lines(app))


@pytest.mark.parametrize("theme", THEMES)
async def test_every_letter_reads_in_every_theme(make_session, make_app, until, theme):
    session = replace(make_session(), theme=theme)
    app = make_app(session)
    failures: list[str] = []
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(pilot, lambda: app.theme == theme and any(
            _text_on_screen(app, p.title[:12]) for p in session.day.papers[:3]),
                    what=f"the day list painted in {theme}")
        _check(app, "day list with the cursor", failures)
        await pilot.press("j", "j", "asterisk", "x", "enter")  # a star, a mark, expanded
        await pilot.pause()
        _check(app, "marks and the expanded preview", failures)
        await pilot.press("d")  # not interested: a notice, and the row's trace
        await until(pilot, lambda: _text_on_screen(app, "Not interested"),
                    what="the 'Not interested' notice on screen")
        _check(app, "a notice", failures)
        await pilot.press("tab")  # the preview has the focus: the list's cursor is blurred
        await pilot.pause()
        _check(app, "blurred cursor", failures)
        await pilot.press("tab", "slash", *"expert", "enter")
        await pilot.pause()
        _check(app, "search highlight", failures)
        await pilot.press("escape", "z")  # the preview zoomed
        await pilot.pause()
        _check(app, "zoomed preview", failures)
        await pilot.press("z", "v")  # the quick triage card
        await until(pilot, lambda: _text_on_screen(app, "Quick triage"),
                    what="the quick triage card on screen")
        _check(app, "triage card", failures)
        await pilot.press("escape", "question_mark")
        await until(pilot, lambda: _text_on_screen(app, "paperterm keys"),
                    what="the help dialog on screen")
        _check(app, "help dialog", failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("theme", OURS)
async def test_quiet_cells_are_quieter_than_titles(make_session, make_app, probe, theme):
    """Authors, categories and types read, yet less loudly than titles: `$text-muted` made
    them brighter than the titles in the dark themes and white on near-white in the light
    one."""
    app = make_app(replace(make_session(), theme=theme))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        p = probe(app)
        at = {col.key: x for col, x, _w in p.table.columns()}
        starts, x = {}, 0
        for seg in p.table.render_line(3):  # a row the cursor is not on
            starts[x] = seg
            x += len(seg.text)
        title, author = starts[at["title"]], starts[at["author"]]
        assert title.text.strip() and author.text.strip()
        for mode in MODES:
            t_fg, t_bg = shown_colours(title.style, mode)
            a_fg, a_bg = shown_colours(author.style, mode)
            assert contrast(a_fg, a_bg) >= 4.5, (theme, mode, a_fg, a_bg)
            assert contrast(a_fg, a_bg) < contrast(t_fg, t_bg), (theme, mode, a_fg, t_fg)


@pytest.mark.parametrize("theme", [t for t in THEMES if not t.startswith("ansi-")])
async def test_marked_rows_and_the_blurred_cursor_show_in_256_colours(make_session, make_app,
                                                                      probe, theme):
    """A marked row and the cursor while the preview has the focus are told apart from the
    other rows by their background, also once reduced to 256 colours."""
    app = make_app(replace(make_session(), theme=theme))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        p = probe(app)
        await pilot.press("x", "tab")  # row 0 marked, the cursor (row 1) blurred
        await pilot.pause()

        def background(y: int) -> tuple[int, int, int]:
            seg = next(s for s in p.table.render_line(y) if s.text.strip())
            return shown_colours(seg.style, "256")[1]

        plain = background(2)
        assert background(0) != plain and background(1) != plain, theme



DIALOGS = [  # (keys that open it, text it shows once open); no keys: the evaluation screen
    (("f",), "Filter"),
    (("t",), "Relevant:"),
    (("ctrl+p",), "key:"),
    (("F",), "Search"),
    (("L",), "Starred"),
    ((), "esc closes"),
]


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize(("keys", "shown"), DIALOGS,
                         ids=[k[0] if k else "evaluation" for k, _ in DIALOGS])
async def test_every_letter_of_the_dialogs_reads(make_session, make_app, until, theme,
                                                  keys, shown):
    """The filter panel (its checkboxes, the lists' titles, the placeholder, the buttons),
    the topic picker, the command palette, the search and Starred screens, the evaluation:
    4.5:1 too (the filter panel had 49 cells under it, its unchecked X at 1.4:1)."""
    session = replace(make_session(), theme=theme)
    app = make_app(session)
    failures: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        if keys:
            await pilot.press(*keys)
        else:
            await app.push_screen(EvaluationScreen(session))
        await until(pilot, lambda: _text_on_screen(app, shown))
        await pilot.pause()
        _check(app, f"dialog {shown}", failures)
        if keys == ("f",):  # an unchecked X still looks unlike a checked one
            app.screen.query(Checkbox).first().value = True
            await pilot.pause()
            _check(app, "filter panel, a box checked", failures)
            xs = {shown_colours(seg.style, "truecolor") for line in screen_lines(app)
                  for seg in line if seg.text == "X" and seg.style}
            assert len(xs) >= 2, xs
    assert not failures, "\n".join(failures)
