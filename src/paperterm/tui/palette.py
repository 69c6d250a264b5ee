"""The command palette, hardened against keys typed faster than it opens and closes: a
paging key that arrives before the list is laid out (ctrl+p then PageDown at once), or a
second esc or enter queued behind the one that closed it, is ignored instead of raising inside
Textual or closing the screen underneath; so is a palette closed before it opened (a day
arriving in the background replaces whatever is on top). The guards on Textual's private
hooks are in `compat.GuardedPalette`."""

from __future__ import annotations

from textual.await_complete import AwaitComplete

from paperterm.tui.compat import GuardedPalette


class SafeCommandPalette(GuardedPalette):
    """Textual's command palette; its keys act only while it is the screen on top."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_active:
            return False
        return super().check_action(action, parameters)

    def dismiss(self, result: object = None) -> AwaitComplete:
        # a second enter queued behind the one that chose a command: the palette is closing
        # already, and popping again would close the screen underneath (or none is left)
        if not self.is_active:
            return AwaitComplete.nothing()
        return super().dismiss(result)
