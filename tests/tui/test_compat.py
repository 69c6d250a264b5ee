"""Contract tests of `paperterm.tui.compat`: each private Textual touchpoint still exists and
behaves as the reader relies on. One fails first when a Textual release changes it."""

from __future__ import annotations

import inspect
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.command import CommandPalette
from textual.filter import ANSIToTruecolor
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Label

from paperterm.tui import compat


class Named(Screen[None]):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Label(self.text)


class DefaultScreenApp(App[None]):
    """Its default screen is made as the reader makes the day's (get_default_screen)."""

    def __init__(self, *, with_callback: bool) -> None:
        super().__init__()
        self.with_callback = with_callback

    def get_default_screen(self) -> Screen[None]:
        screen = Named("first")
        if self.with_callback:
            compat.push_result_callback(screen, self)
        return screen


async def test_a_default_screen_given_a_result_callback_can_be_switched_away():
    app = DefaultScreenApp(with_callback=True)
    async with app.run_test() as pilot:
        await app.switch_screen(Named("second"))
        await pilot.pause()
        assert isinstance(app.screen, Named) and app.screen.text == "second"
        assert len(app.screen_stack) == 1


def test_the_callback_is_the_one_switch_screen_pops():
    """Why it is pushed: `switch_screen` pops one result callback from the screen it
    replaces, and a default screen has none."""
    screen = Named("first")
    before = len(screen._result_callbacks)
    compat.push_result_callback(screen, App[None]())
    assert len(screen._result_callbacks) == before + 1
    screen._pop_result_callback()
    assert len(screen._result_callbacks) == before


async def test_the_truecolor_filter_follows_the_theme_set_without_its_watcher():
    app = App[None]()
    async with app.run_test():
        light = next(n for n, t in app.available_themes.items() if not t.dark)
        app.set_reactive(App.theme, light)  # as the reader sets its first theme
        compat.refresh_truecolor_filter(app)
        filters = [f for f in app._filters if isinstance(f, ANSIToTruecolor)]
        assert len(filters) == 1
        assert filters[0]._terminal_theme is app.ansi_theme_light is app.ansi_theme


async def test_footer_keys_and_the_bindings_ready_flag():
    assert issubclass(compat.FooterKey, Widget)
    params = inspect.signature(compat.FooterKey).parameters
    assert {"key", "key_display", "description", "action"} <= set(params)

    class FooterApp(App[None]):
        BINDINGS: ClassVar = [("x", "bell", "Ring")]

        def compose(self) -> ComposeResult:
            yield Footer()

    app = FooterApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        footer = app.query_one(Footer)
        assert compat.footer_bindings_ready(footer)  # set by Textual once bindings are known
        keys = list(footer.query(compat.FooterKey))
        assert any(k.description == "Ring" and k.key_display for k in keys)
        compat.set_footer_bindings_ready(footer)
        assert compat.footer_bindings_ready(footer)
    fresh = Footer()
    assert not compat.footer_bindings_ready(fresh)
    compat.set_footer_bindings_ready(fresh)
    assert compat.footer_bindings_ready(fresh)


def test_the_palette_hooks_the_guards_override_exist_with_their_signatures():
    hooks = {"_on_mount": ["self", "_"], "_action_command_list": ["self", "action"],
             "_refresh_command_list": None,
             "_start_no_matches_countdown": ["self", "search_value"]}
    for name, params in hooks.items():
        hook = getattr(CommandPalette, name)
        assert callable(hook), name
        if params is not None:
            assert list(inspect.signature(hook).parameters) == params, name
        assert name in compat.GuardedPalette.__dict__  # the guard overrides it
    assert list(inspect.signature(CommandPalette._stop_no_matches_countdown).parameters) == [
        "self"]
    group = CommandPalette._GATHER_COMMANDS_GROUP
    assert isinstance(group, str) and group
    body = CommandPalette._gather_commands.__wrapped__
    assert inspect.iscoroutinefunction(body)
    assert list(inspect.signature(body).parameters) == ["self", "search_value"]


async def test_the_guarded_palette_searches_through_textuals_gather_body():
    from paperterm.tui.palette import SafeCommandPalette

    app = App[None]()
    async with app.run_test() as pilot:
        app.push_screen(SafeCommandPalette())
        await pilot.pause()
        palette = app.screen
        assert isinstance(palette, compat.GuardedPalette)
        palette._gather_commands("theme")  # what typing in the palette starts
        from textual.command import CommandList

        for _ in range(500):  # until the search has listed its hits
            if palette.query_one(CommandList).option_count > 0:
                break
            await pilot.pause()
        assert palette.query_one(CommandList).option_count > 0


async def test_a_closing_palette_starts_no_no_matches_countdown():
    """The "No matches" line is added by a timer of the palette; one due after the palette
    began closing found its list gone (NoMatches, the app crashed)."""
    from paperterm.tui.palette import SafeCommandPalette

    app = App[None]()
    async with app.run_test() as pilot:
        app.push_screen(SafeCommandPalette())
        await pilot.pause()
        palette = app.screen
        assert isinstance(palette, compat.GuardedPalette)
        palette._start_no_matches_countdown("zzzz")
        assert palette._no_matches_timer is not None  # what Textual keeps the countdown in
        palette.dismiss()
        assert palette._no_matches_timer is None
        palette._start_no_matches_countdown("zzzz")  # a search finishing meanwhile
        assert palette._no_matches_timer is None
        await pilot.pause()
        assert not isinstance(app.screen, CommandPalette)


def test_characters_get_the_key_names_textuals_keymap_uses():
    """`[keys]` in the config may say "*" or "asterisk": both are the same key."""
    assert compat.character_to_key("*") == "asterisk"
    assert compat.character_to_key("[") == "left_square_bracket"
    assert compat.character_to_key("a") == "a"
    assert compat.character_to_key("A") == "A"

