"""Sorting keys of the day view: cycle and reverse the sort, one notice per burst."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paperterm.listing import ENRICH_SORTS, SORT_KEYS, SORT_LABELS, sort_arrow

if TYPE_CHECKING:
    from textual.timer import Timer

    from paperterm.tui.host import Reader
    from paperterm.tui.paper_list import PaperTable


class SortActions:
    """Mixed into the day screen, which owns the `sort_key` and `reverse` reactives."""

    SORT_NOTICE_DELAY: float  # the day screen says how long a burst lasts
    sort_key: str
    reverse: bool
    table: PaperTable
    reader: Reader
    alive: bool
    _sort_notice_timer: Timer | None

    if TYPE_CHECKING:
        def set_reactive(self, reactive: Any, value: Any) -> None: ...
        def set_timer(self, delay: float, callback: Any) -> Timer: ...

    def _sort(self, key: str, reverse: bool = False) -> None:
        """Sort by `key` in the given direction (one refilter even when both change)."""
        if key == self.sort_key:
            self.reverse = reverse
        else:
            self.set_reactive(type(self).reverse, reverse)  # type: ignore[attr-defined]
            self.sort_key = key

    def action_cycle_sort(self) -> None:
        keys = (*SORT_KEYS, *ENRICH_SORTS) if self.table.with_signals else SORT_KEYS
        at = keys.index(self.sort_key) if self.sort_key in keys else -1
        self._sort(keys[(at + 1) % len(keys)])
        self._sort_notice()

    def action_reverse_sort(self) -> None:
        self.reverse = not self.reverse
        self._sort_notice()

    def _sort_notice(self) -> None:
        """One "Sorted by" notice for a burst of sort keys: said once they stop coming."""
        if self._sort_notice_timer is not None:
            self._sort_notice_timer.stop()
        self._sort_notice_timer = self.set_timer(self.SORT_NOTICE_DELAY, self._say_sort)

    def _say_sort(self) -> None:
        self._sort_notice_timer = None
        if self.alive:
            arrow = sort_arrow(self.sort_key, self.reverse)
            self.reader.say(f"Sorted by {SORT_LABELS[self.sort_key]} {arrow}", timeout=2)

