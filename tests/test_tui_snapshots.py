"""SVG snapshots of the reader's key screens (fixed size, fixed data, no clock).

Regenerate after an intended visual change:
    PYTHONPATH=src pytest tests/test_tui_snapshots.py --snapshot-update
"""

from __future__ import annotations

from test_tui_app import SIZE, QuietApp, hostile_papers, make_ctx


def _no_blink(app) -> None:
    for widget in app.query("Input"):
        widget.cursor_blink = False


def test_snapshot_main_screen(snap_compare, tmp_path):
    app = QuietApp(make_ctx(tmp_path))

    async def run_before(pilot) -> None:
        await pilot.press("j", "j", "asterisk", "x")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_help_screen(snap_compare, tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    assert snap_compare(app, terminal_size=SIZE, press=["question_mark"])


def test_snapshot_filter_panel(snap_compare, tmp_path):
    app = QuietApp(make_ctx(tmp_path))

    async def run_before(pilot) -> None:
        await pilot.press("f")
        await pilot.pause()
        _no_blink(pilot.app.screen)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_hostile_text_search_expanded_light(snap_compare, tmp_path):
    ctx = make_ctx(tmp_path, hostile_papers())
    ctx.theme = "paperterm-light"
    app = QuietApp(ctx)

    async def run_before(pilot) -> None:
        _no_blink(pilot.app)
        await pilot.press("slash", *"mallory", "enter", "enter")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
