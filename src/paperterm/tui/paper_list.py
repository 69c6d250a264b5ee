"""The paper list: a Line API widget that draws only the visible rows.

Textual's DataTable measures every cell of every added row, which makes a rebuild of 5,000
rows take about half a second; filtering and re-sorting as scores arrive need a rebuild each
time. This widget instead keeps a plain list of `Entry` objects in display order, so a
re-sort or a filter is a Python sort plus a repaint of ~40 lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from paperterm.day.listing import STAND_IN, Entry, score_band, sort_arrow
from paperterm.tui.bindings import LIST_KEYS, bindings
from paperterm.tui.columns import (
    GAP,
    TYPE_SHORT,
    Column,
    Shape,
    category_label,
    column_at,
    fit,
    layout,
    shape_of,
)
from paperterm.tui.text import one_line, tex


def marks_text(e: Entry) -> str:
    return (
        ("+" if e.marked else " ")
        + ("✗" if e.dismissed else "•" if e.new_to_me else " ")
        + ("★" if e.starred else " ")
        + ("✓" if e.saved else " ")
        + ("@" if e.followed else " ")
        + (f" {e.revision.label}" if e.revision else "")
    )


class PaperTable(ScrollView, can_focus=True):
    """The list of papers. Owns the cursor; the app owns the entries and their order."""

    DEFAULT_CSS = """
    PaperTable { overflow-x: hidden; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(LIST_KEYS)

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-table--cursor",
        "paper-table--cursor-blurred",
        "paper-table--marked",
        "paper-table--unseen",
        "paper-table--dim",
        "paper-table--high",
        "paper-table--mid",
        "paper-table--low",
        "paper-table--failed",
        "paper-table--star",
        "paper-table--saved",
    }

    class CursorMoved(Message):
        """The cursor now rests on another paper (or on none)."""

        def __init__(self, table: PaperTable, entry: Entry | None) -> None:
            super().__init__()
            self.table = table
            self.entry = entry

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[Entry] = []
        self._index: dict[str, int] = {}
        self.cursor = 0
        self.moved_by_user = False  # the user moved the cursor since the last re-rank
        self._last_id: str | None = None
        self._display: dict[str, tuple[str, str]] = {}
        self._styles: dict[str, Style] | None = None
        self.with_signals = False  # show the Signal column (the day has enrichment)
        self.show_days = False  # the day column (a view of several days)
        self.empty_message = ""  # what the list says when no paper shows
        self.shape = Shape()

    # -- data ---------------------------------------------------------------------------

    @property
    def current(self) -> Entry | None:
        if 0 <= self.cursor < len(self.entries):
            return self.entries[self.cursor]
        return None

    def set_entries(self, entries: Sequence[Entry], *, to_top: bool = False) -> None:
        """Show `entries` in this order. With `to_top` the cursor and the view go to the first
        paper; otherwise the cursor stays on the paper it was on, at the same height on
        screen (or, if that paper is gone, at the same index)."""
        if to_top:
            self.cursor = 0
            self.scroll_to(y=0, animate=False, force=True, immediate=True)
        keep = None if to_top else self.current.id if self.current is not None else None
        screen_row = self.cursor - int(self.scroll_y)
        self.entries = list(entries)
        self.shape = shape_of(self.entries, self.with_signals, self.show_days)
        self._index = {e.paper.id: i for i, e in enumerate(self.entries)}
        n = len(self.entries)
        if keep is not None and keep in self._index:
            self.cursor = self._index[keep]
        else:
            self.cursor = max(0, min(self.cursor, n - 1))
        self.virtual_size = Size(self.virtual_size.width or 1, n)
        height = self.scrollable_content_region.height or 1
        screen_row = max(0, min(screen_row, height - 1))
        top = max(0, min(self.cursor - screen_row, n - height))
        self.scroll_to(y=top, animate=False, force=True, immediate=True)
        self.refresh()
        self._announce()

    def refresh_entries(self) -> None:
        """Entries changed in place (scores, marks): repaint the visible rows."""
        self.shape = shape_of(self.entries, self.with_signals, self.show_days)
        self.refresh()

    def columns(self) -> list[tuple[Column, int, int]]:
        """The columns as drawn now: (column, x, width)."""
        return layout(self.scrollable_content_region.width or self.size.width, self.shape)

    # -- cursor -------------------------------------------------------------------------

    def move_to(self, index: int) -> None:
        n = len(self.entries)
        if not n:
            self.cursor = 0
            self.refresh()
            self._announce()
            return
        index = max(0, min(index, n - 1))
        if index != self.cursor:
            self.refresh_lines(self.cursor - int(self.scroll_y))
            self.cursor = index
        self._scroll_cursor_visible()
        self.refresh_lines(self.cursor - int(self.scroll_y))
        self._announce()

    def refresh_lines(self, y: int, count: int = 1) -> None:
        width = self.size.width
        self.refresh(Region(0, y, width, count))

    def _scroll_cursor_visible(self) -> None:
        height = self.scrollable_content_region.height or 1
        top = int(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
            self.refresh()
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)
            self.refresh()

    def _announce(self) -> None:
        current = self.current
        cid = current.id if current is not None else None
        if cid != self._last_id:
            self._last_id = cid
            self.post_message(self.CursorMoved(self, current))

    def action_cursor_down(self) -> None:
        self.moved_by_user = True
        self.move_to(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.moved_by_user = True
        self.move_to(self.cursor - 1)

    def action_cursor_top(self) -> None:
        self.moved_by_user = True
        self.move_to(0)

    def action_cursor_bottom(self) -> None:
        self.moved_by_user = True
        self.move_to(len(self.entries) - 1)

    def _page(self) -> int:
        return max(1, (self.scrollable_content_region.height or 1) - 1)

    def action_page_down(self) -> None:
        self.moved_by_user = True
        self.move_to(self.cursor + self._page())

    def action_page_up(self) -> None:
        self.moved_by_user = True
        self.move_to(self.cursor - self._page())

    def on_click(self, event: events.Click) -> None:
        index = int(self.scroll_y) + event.y
        if 0 <= index < len(self.entries):
            self.moved_by_user = True
            self.move_to(index)

    def on_resize(self, event: events.Resize) -> None:
        self._scroll_cursor_visible()
        self.refresh()

    # -- drawing ------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self.refresh()

    def on_focus(self, event: events.Focus) -> None:
        self.refresh()

    def on_blur(self, event: events.Blur) -> None:
        self.refresh()

    def _get_styles(self) -> dict[str, Style]:
        if self._styles is None:
            get = self.get_component_rich_style
            self._styles = {
                name.removeprefix("paper-table--"): get(name, partial=True)
                for name in self.COMPONENT_CLASSES
            }
        return self._styles

    def _cells(self, e: Entry) -> tuple[str, str]:
        shown = self._display.get(e.paper.id)
        if shown is None:
            shown = (one_line(tex(e.paper.title)), one_line(tex(e.paper.first_author)))
            self._display[e.paper.id] = shown
        return shown

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width or self.size.width
        index = int(self.scroll_y) + y
        base = self.rich_style
        if not (0 <= index < len(self.entries)):
            if y == 0 and not self.entries and self.empty_message:  # says why, and the key
                text = fit(" " + one_line(self.empty_message), width)
                return Strip([Segment(text, base + self._get_styles()["unseen"])])
            return Strip.blank(width, base)
        e = self.entries[index]
        st = self._get_styles()
        row = base
        if e.marked:
            row = row + st["marked"]
        if index == self.cursor:
            row = row + (st["cursor"] if self.has_focus else st["cursor-blurred"])
        title, author = self._cells(e)
        # the focused cursor row keeps one text colour: chosen to read on its background
        plain = index == self.cursor and self.has_focus
        tinted = e.marked or index == self.cursor  # quiet cells in the text colour there
        segments: list[Segment] = [Segment(" " * GAP, row)]
        for col, _x, w in layout(width, self.shape):
            text, style = self._cell(col.key, e, title, author, st)
            if plain or (tinted and style is st["dim"]):
                style = None
            if col.key == "cat":
                text = category_label(text, w)
            if col.right:
                text = text.rjust(w)
            segments.append(Segment(fit(text, w), row + style if style else row))
            segments.append(Segment(" " * GAP, row))
        strip = Strip(segments)
        return strip.crop_extend(0, width, row)

    def _cell(
        self, key: str, e: Entry, title: str, author: str, st: dict[str, Style]
    ) -> tuple[str, Style | None]:
        if key == "rel" or key == "nov":
            value = e.relevance if key == "rel" else e.novelty
            if value is not None and e.status in STAND_IN:  # a local stand-in
                return f"~{value}", st["dim"]
            if e.status == "queued" and e.relevance is not None:  # ranked meanwhile
                return "", None
            if value is not None:
                return str(value), st["dim" if e.status == "prefilter" else score_band(value)]
            if e.status == "unsent":
                return "–", st["dim"]
            if e.status == "queued":
                return "…", st["dim"]
            if e.status == "failed":
                return "!", st["failed"]
            return "", None
        if key == "title":
            if e.dismissed:  # not interested: the row reads quieter
                return title, st["dim"]
            return title, st["unseen"] if e.new_to_me else None
        if key == "author":
            return author, st["dim"]
        if key == "cat":
            return e.paper.primary_category, st["dim"]
        if key == "day":
            return e.day[5:], st["dim"]
        if key == "type":
            kind = e.paper.announce_type
            return TYPE_SHORT.get(kind, kind), st["dim"]
        if key == "sig":
            return (e.signals.marker() if e.signals else ""), st["dim"]
        return marks_text(e), st["star"] if e.starred else None


class ColumnHeader(Widget):
    """Column titles above the list; clicking one sorts by it."""

    DEFAULT_CSS = """
    ColumnHeader { height: 1; }
    """

    class SortClicked(Message):
        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, table: PaperTable, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.table = table
        self.sort_key = "relevance"
        self.reverse = False

    def set_sort(self, key: str, reverse: bool) -> None:
        self.sort_key, self.reverse = key, reverse
        self.refresh()

    def _width(self) -> int:
        return self.table.scrollable_content_region.width or self.size.width

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        x = 0
        for col, cx, w in layout(self._width(), self.table.shape):
            out.append(" " * (cx - x))
            active = col.sort == self.sort_key
            arrow = sort_arrow(self.sort_key, self.reverse) if active else ""
            room = w - cell_len(arrow)  # the arrow always shows: the label gives way
            label = col.label if cell_len(col.label) <= room or not col.short else col.short
            label = set_cell_size(label, min(cell_len(label), room)) + arrow
            label = set_cell_size(label.rjust(w) if col.right else label, w)
            out.append(label)
            x = cx + w
        return out

    def on_click(self, event: events.Click) -> None:
        col = column_at(self._width(), event.x, self.table.shape)
        if col is not None and col.sort is not None:
            self.post_message(self.SortClicked(col.sort))
