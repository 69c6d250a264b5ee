"""Sorting keys of the day view: cycle and reverse the sort, one notice per burst. A
controller held by the day screen; the sort itself is the day model's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperterm.day.listing import ENRICH_SORTS, SORT_KEYS, SORT_LABELS, sort_arrow

if TYPE_CHECKING:
    from textual.timer import Timer

    from paperterm.tui.screens.day_view import DayView


class SortActions:
    def __init__(self, view: DayView, notice_delay: float) -> None:
        self.view = view
        self.model = view.model
        self.notice_delay = notice_delay  # sort keys closer together give one notice
        self._notice_timer: Timer | None = None

    def sort(self, key: str, reverse: bool = False) -> None:
        """Sort by `key` in the given direction (one refilter even when both change)."""
        self.model.set_sort(key, reverse)

    def clicked(self, key: str) -> None:
        """A column title clicked: sort by it (again: reverse)."""
        model = self.model
        self.sort(key, not model.reverse if key == model.sort_key else False)

    def sorts_with_data(self) -> list[str]:
        """The sorts `s` offers: not novelty ones while no paper has, or will get, a novelty
        score (the local scorer gives none), nor enrichment ones without enrichment."""
        entries = self.model.entries
        novelty = self.view.session.settings.use_llm or any(
            e.novelty is not None for e in entries)
        keys = [k for k in SORT_KEYS if novelty or k not in ("novelty", "combined")]
        if self.view.table.with_signals:
            keys += ENRICH_SORTS
        return keys

    def cycle(self) -> None:
        keys = self.sorts_with_data()
        key = self.model.sort_key
        at = keys.index(key) if key in keys else -1
        self.sort(keys[(at + 1) % len(keys)])
        self._notice()

    def reverse(self) -> None:
        self.sort(self.model.sort_key, not self.model.reverse)
        self._notice()

    def _notice(self) -> None:
        """One "Sorted by" notice for a burst of sort keys: said once they stop coming."""
        if self._notice_timer is not None:
            self._notice_timer.stop()
        self._notice_timer = self.view.set_timer(self.notice_delay, self._say)

    def _say(self) -> None:
        self._notice_timer = None
        if self.view.alive:
            key, reverse = self.model.sort_key, self.model.reverse
            self.view.reader.say(f"Sorted by {SORT_LABELS[key]} {sort_arrow(key, reverse)}",
                                 timeout=2)
