"""A footer that shows only the keys that fit: Textual's footer scrolls its keys under the
command-palette key on a narrow terminal, leaving cut labels ("b S") and stray letters."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from paperterm.tui.bindings import APP_KEYS, FOOTER_FIRST
from paperterm.tui.compat import FooterKey, footer_bindings_ready, set_footer_bindings_ready

PALETTE = "-command-palette"


def key_width(key: FooterKey, *, compact: bool) -> int:
    """The cells a footer key takes, margins included (Textual's footer stylesheet: compact
    keys have a right margin of 1, wide ones padding 1 each side; the palette key a border)."""
    width = cell_len(key.key_display) + (1 + cell_len(key.description) if key.description
                                         else 0)
    width += 1 if compact else 2
    if key.has_class(PALETTE):
        width += 1
    return width


class FittingFooter(Footer):
    """`Footer` that hides, from the right, the keys that would not fit whole, and is rebuilt
    only when the keys it shows change."""

    _shown: tuple | None = None
    _rebuild_queued = False
    hidden: Callable[[str], bool] | None = None  # actions whose key stays out for now

    def _nothing_to_undo(self, action: str) -> bool:
        """Undo shows once there is a mark to take back (the default of `hidden`)."""
        from paperterm.tui.host import reader_of

        return action == "app.undo" and not reader_of(self.app).marks.can_undo

    def refit(self) -> None:
        """Fit the keys again (what `hidden` hides may have changed)."""
        self.fit_keys(self.children, self.size.width or self.app.size.width)

    def compose(self) -> ComposeResult:
        if footer_bindings_ready(self):
            self._shown = shown_keys(self.screen)
        children = first_keys_first(list(super().compose()))
        self.fit_keys(children, self.size.width or self.app.size.width)
        yield from children

    def bindings_changed(self, screen: Screen) -> None:
        # Textual rebuilds every key each time any binding may have changed (focus moves, a
        # screen refreshes its bindings), once per signal: four rebuilds, three of them
        # identical, while the reader starts. One rebuild, and only when the shown keys change.
        set_footer_bindings_ready(self)
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            return
        if not self._rebuild_queued and shown_keys(screen) != self._shown:
            self._rebuild_queued = True
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        self._rebuild_queued = False
        if self.is_attached and shown_keys(self.screen) != self._shown:
            await self.recompose()

    def on_resize(self, event: events.Resize) -> None:
        self.fit_keys(self.children, event.size.width)

    def watch_compact(self) -> None:
        self.fit_keys(self.children, self.size.width or self.app.size.width)

    def fit_keys(self, children: Iterable[Widget], width: int) -> None:
        """Show the keys, left to right, while they fit whole left of the palette key."""
        keys = [c for c in children if isinstance(c, FooterKey)]
        hidden = self.hidden or self._nothing_to_undo
        if hidden is not None:
            for key in [k for k in keys if hidden(k.action)]:
                key.display = False
                keys.remove(key)
        room = width - sum(key_width(k, compact=self.compact) for k in keys
                           if k.has_class(PALETTE))
        used = 0
        for key in keys:
            if key.has_class(PALETTE):
                continue
            used += key_width(key, compact=self.compact)
            key.display = used <= room


_FIRST_ACTIONS = [next(k.action for k in APP_KEYS if k.id == i) for i in FOOTER_FIRST]


def first_keys_first(children: list[Widget]) -> list[Widget]:
    """Help and quit first, whatever keys they are mapped to (Textual lists a remapped
    binding last, where a narrow footer cut it)."""
    def place(child: Widget) -> int:
        action = child.action if isinstance(child, FooterKey) else ""
        return _FIRST_ACTIONS.index(action) if action in _FIRST_ACTIONS else len(_FIRST_ACTIONS)

    return sorted(children, key=place)


def refit_footers(screens: Iterable[Screen]) -> None:
    """What the footers offer may have changed (a mark given or undone): fit them again."""
    for screen in screens:
        for footer in screen.query(FittingFooter):
            footer.refit()


def shown_keys(screen: Screen) -> tuple:
    """What the footer would show for `screen`: the shown bindings, the palette key, their
    state (focus moving into a text box changes only hidden bindings)."""
    palette = screen.app.COMMAND_PALETTE_BINDING
    return tuple((binding, enabled, tooltip)
                 for key, (_, binding, enabled, tooltip) in screen.active_bindings.items()
                 if binding.show or key == palette)
