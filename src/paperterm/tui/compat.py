"""Every use of Textual's private API, in one place, each with a contract test
(tests/tui/test_compat.py) that fails on a Textual release where it no longer holds.

Textual offers no public way to do these; each is small and says why it is needed. Nothing
else in paperterm touches a name starting with `_` on a Textual object or imports a private
Textual module: add new touchpoints here, with their test.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from textual import work
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.css.query import NoMatches
from textual.events import Mount
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey as _FooterKey

# The widget `Footer` makes for each key; its width decides which keys fit (footer.py).
FooterKey = _FooterKey


def character_to_key(character: str) -> str:
    """The key name Textual's keymap gives a typed character ("*" -> "asterisk")."""
    from textual.keys import _character_to_key

    return _character_to_key(character)


def push_result_callback(screen: Screen[Any], requester: App[Any]) -> None:
    """Give `screen` the (empty) result callback `push_screen` would: a default screen made
    by `get_default_screen` has none, and `switch_screen` pops one from it."""
    screen._push_result_callback(requester, None)


def refresh_truecolor_filter(app: App[Any]) -> None:
    """Remake the app's ANSI-to-truecolor filter for its current ANSI theme (what Textual's
    theme watcher does, which the reader's first theme skips: see app.py)."""
    app._refresh_truecolor_filter(app.ansi_theme)


def footer_bindings_ready(footer: Footer) -> bool:
    """Whether `footer` has been told of its screen's bindings yet (before that it composes
    no keys)."""
    return bool(footer._bindings_ready)


def set_footer_bindings_ready(footer: Footer) -> None:
    """Mark `footer` as told of its screen's bindings (the reader's footer takes Textual's
    bindings signal over, and must set what Textual's handler sets)."""
    footer._bindings_ready = True


class GuardedPalette(CommandPalette):
    """Textual's command palette with its private hooks guarded against keys typed faster
    than it opens and closes (see palette.py, which builds on this)."""

    closing = False  # dismissed: its list may go before its timers and workers stop

    def dismiss(self, result: Any = None) -> AwaitComplete:
        # a "No matches" line due after the list is gone would raise NoMatches in a timer
        self.closing = True
        self._stop_no_matches_countdown()
        return super().dismiss(result)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        if not self.closing:  # a search still finishing as the palette closes
            super()._start_no_matches_countdown(search_value)

    def _on_mount(self, event: Mount) -> None:
        # popped before it mounted: Textual's set-up would take the screen under it from a
        # stack that no longer holds this palette (IndexError when the day is the only one)
        if self not in self.app.screen_stack:
            event.prevent_default()

    def _action_command_list(self, action: str) -> None:
        # the list not laid out yet, or already closing: nothing to page through
        with contextlib.suppress(KeyError, IndexError, NoMatches):
            super()._action_command_list(action)

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        # a search that starts (or goes on) after the palette began closing: its list is gone
        with contextlib.suppress(NoMatches):
            await palette_gather(self, search_value)

    def _refresh_command_list(self, *args: object, **kwargs: object) -> None:
        with contextlib.suppress(NoMatches):  # results arriving after the palette closed
            super()._refresh_command_list(*args, **kwargs)  # type: ignore[arg-type]


def palette_gather(palette: CommandPalette, search_value: str) -> Coroutine[Any, Any, None]:
    """The body of Textual's `_gather_commands` (a `@work` method), for a subclass's own
    worker to await."""
    gather: Callable[[CommandPalette, str], Coroutine[Any, Any, None]] = (
        CommandPalette._gather_commands.__wrapped__)  # type: ignore[attr-defined]
    return gather(palette, search_value)


__all__ = ["FooterKey", "GuardedPalette", "character_to_key", "footer_bindings_ready",
           "palette_gather", "push_result_callback", "refresh_truecolor_filter",
           "set_footer_bindings_ready"]
