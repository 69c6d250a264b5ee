"""No key sequence ends the reader with a traceback, and `q` always wins (issue 10, item 3)."""

from __future__ import annotations

import random

import pytest
from textual import events
from textual.widgets import Input

from paperterm.tui.bindings import ALL_KEYS
from paperterm.tui.screens.day import DayScreen

CHARS = {"slash": "/", "question_mark": "?", "asterisk": "*", "space": " "}


def burst(app, *keys: str) -> None:
    """Send keys the way a terminal delivers fast typing: all queued before any is handled
    (Pilot.press waits for each key to be handled, which hides races)."""
    for key in keys:
        char = CHARS.get(key, key if len(key) == 1 else None)
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)


async def _quit_then(make_session, make_app, size, until, *after: str) -> int | None:
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        burst(app, "q", *after)
        await until(pilot, lambda: app.return_code is not None)
    return app.return_code


@pytest.mark.parametrize("after", ["t", "f", "slash", "question_mark", "ctrl+p", "b"])
async def test_q_then_another_key_still_quits_cleanly(make_session, make_app, size, until,
                                                      after):
    assert await _quit_then(make_session, make_app, size, until, after, "j") == 0


async def test_palette_then_page_down_at_once(make_session, make_app, probe, size, until):
    from paperterm.tui.palette import SafeCommandPalette

    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        burst(app, "ctrl+p", "pagedown", "pagedown", "pageup", "end", "home")
        await until(pilot, lambda: isinstance(app.screen, SafeCommandPalette))
        await pilot.press("pagedown", "escape")
        await until(pilot, lambda: app.screen is probe(app).day)
        assert probe(app).day.is_attached
    assert app.return_code in (None, 0)


async def test_theme_palette_then_page_down_at_once(make_session, make_app, probe, size,
                                                    until):
    """The palette's "Theme" command opens a second palette; a PageDown arriving before it
    is laid out raised KeyError: 0 inside Textual's OptionList (the mashing race)."""
    from paperterm.tui.palette import SafeCommandPalette

    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.action_change_theme()  # what ctrl+p, "theme", enter runs
        burst(app, "pagedown", "pagedown", "end", "pageup")
        await until(pilot, lambda: isinstance(app.screen, SafeCommandPalette))
        await pilot.pause()
        await pilot.press("pagedown", "escape")
        await until(pilot, lambda: app.screen is probe(app).day)
    assert app.return_code in (None, 0)


async def test_a_palette_closing_before_its_search_starts(make_session, make_app, probe, size,
                                                          until):
    """ctrl+p then esc at once: the palette's search worker could start after its list was
    removed, and its NoMatches ended the app (a mashing run)."""
    from textual.command import CommandList

    from paperterm.tui.palette import SafeCommandPalette

    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, SafeCommandPalette))
        palette = app.screen
        await palette.query_one(CommandList).remove()  # what closing does first
        palette._gather_commands("sort")
        await until(pilot, lambda: all(w.is_finished for w in app.workers
                                       if w.node is palette))  # the search has run
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is probe(app).day)
        assert probe(app).day.is_attached
    assert app.return_code in (None, 0)


async def test_a_palette_closed_before_it_opened(make_session, make_app, probe, size, until):
    """ctrl+p, then a day loaded in the background (or `]`) pops what is on top before the
    palette has mounted: its set-up took the screen under it from a stack that no longer held
    it, an IndexError that ended the app (two mashing runs on CI)."""
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.action_command_palette()
        app.pop_screen()  # what the day switch does to any screen above the day
        await pilot.pause()  # the palette's set-up, queued before the pop, has run
        await pilot.pause()
        assert app.screen is probe(app).day
        await pilot.press("ctrl+p")  # and the palette still opens afterwards
        await until(pilot, lambda: type(app.screen).__name__ == "SafeCommandPalette")
    assert app.return_code in (None, 0)


async def test_a_second_close_never_closes_the_day(make_session, make_app, probe, size):
    """Two closes of a dialog queued at once: the second popped the day itself (a blank
    screen under the old layout; nothing left to show, and an error, with the day as the only
    screen)."""
    from paperterm.tui.help import HelpScreen

    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.push_screen(HelpScreen({}))
        await pilot.pause()
        app.pop_screen()
        app.pop_screen()
        await pilot.pause()  # both closes handled
        await pilot.pause()
        assert app.screen is probe(app).day and len(app.screen_stack) == 1
        await pilot.press("j")
        assert probe(app).table.cursor == 1
    assert app.return_code in (None, 0)


def _bound_keys() -> list[str]:
    keys = [k for spec in ALL_KEYS for k in spec.keys.split(",") if k not in ("q",)]
    return [*keys, "escape", "tab", "ctrl+p", "enter", "a", "1"]


@pytest.mark.parametrize("seed", range(10))
async def test_random_mashing_over_every_bound_key_never_crashes(make_session, make_app,
                                                                 size, seed, monkeypatch,
                                                                 probe, until):
    import webbrowser

    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: True)  # no real browser
    rng = random.Random(seed)
    keys = _bound_keys()
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(12):
            burst(app, *rng.choices(keys, k=6))
            if rng.random() < 0.3:  # a pause in the typing: what was typed is handled
                await pilot.pause()
        def on_the_list() -> bool:  # the top day screen (day navigation may stack one more)
            return isinstance(app.screen, DayScreen) and not isinstance(app.focused, Input)

        # out of any text box or dialog; a loaded machine may still be handling queued keys,
        # so the state must hold across a pause before the final q
        for _ in range(20):
            await pilot.pause()
            if on_the_list():
                await pilot.pause()
                if on_the_list():
                    break
            await pilot.press("escape")
        burst(app, "q")
        await until(pilot, lambda: app.return_code is not None)
        where = f"{app.screen_stack!r} focus={app.focused!r}"
    assert app.return_code == 0, where


async def test_the_list_has_the_focus_before_the_first_paint(make_session, make_app,
                                                            monkeypatch):
    """A `j` typed as soon as the list shows was lost when the focus arrived a moment later
    (seen in a real terminal on a loaded machine)."""
    focus_when_mounted = []
    original = DayScreen.on_mount

    def on_mount(screen: DayScreen) -> None:
        original(screen)
        focus_when_mounted.append(screen.focused)

    monkeypatch.setattr(DayScreen, "on_mount", on_mount)
    app = make_app(make_session())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#papers")
    assert focus_when_mounted == [table]
