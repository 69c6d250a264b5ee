"""The command palette, hardened against keys typed faster than it opens and closes: a
paging key that arrives before the list is laid out (ctrl+p then PageDown at once), or a
second esc or enter queued behind the one that closed it, is ignored instead of raising inside
Textual or closing the screen underneath; so is a palette closed before it opened (a day
arriving in the background replaces whatever is on top)."""

from __future__ import annotations

import contextlib

from textual import work
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.css.query import NoMatches
from textual.events import Mount


class SafeCommandPalette(CommandPalette):
    """Textual's command palette; its keys act only while it is the screen on top."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_active:
            return False
        return super().check_action(action, parameters)

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
            await CommandPalette._gather_commands.__wrapped__(self, search_value)  # type: ignore[attr-defined]

    def _refresh_command_list(self, *args: object, **kwargs: object) -> None:
        with contextlib.suppress(NoMatches):  # results arriving after the palette closed
            super()._refresh_command_list(*args, **kwargs)  # type: ignore[arg-type]

    def dismiss(self, result: object = None) -> AwaitComplete:
        # a second enter queued behind the one that chose a command: the palette is closing
        # already, and popping again would close the screen underneath (or none is left)
        if not self.is_active:
            return AwaitComplete.nothing()
        return super().dismiss(result)  # type: ignore[arg-type]
