"""SVG snapshots of the reader's key screens (fixed size, fixed data, no clock).

Regenerate after an intended visual change:
    pytest tests/tui/test_tui_snapshots.py --snapshot-update
"""

from __future__ import annotations

from dataclasses import replace


def _no_blink(node) -> None:
    for widget in node.query("Input"):
        widget.cursor_blink = False


def test_snapshot_main_screen(snap_compare, make_session, make_app, size):
    app = make_app(make_session())

    async def run_before(pilot) -> None:
        await pilot.press("j", "j", "asterisk", "x")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_snapshot_help_screen(snap_compare, make_session, make_app, size):
    app = make_app(make_session())
    assert snap_compare(app, terminal_size=size, press=["question_mark"])


def test_snapshot_filter_panel(snap_compare, make_session, make_app, size):
    app = make_app(make_session())

    async def run_before(pilot) -> None:
        await pilot.press("f")
        await pilot.pause()
        _no_blink(pilot.app.screen)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_snapshot_hostile_text_search_expanded_light(snap_compare, make_session, make_app,
                                                     hostile_papers, size):
    session = make_session(hostile_papers)
    session = replace(session, theme="paperterm-light")
    app = make_app(session)

    async def run_before(pilot) -> None:
        _no_blink(pilot.app.screen)
        await pilot.press("slash", *"mallory", "enter", "enter")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
