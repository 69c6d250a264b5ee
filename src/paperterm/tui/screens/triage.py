"""Triage for the day screen: seen marks as the cursor passes, next / previous unseen paper,
"mark all above seen".

`Triage` is a controller held by the day screen. A paper is seen once the user moved the
cursor off it after it rested there while the list was being read (it was in the preview;
not while a filter was typed in the search box), when it is starred or marked, or with "mark
all above seen". The cursor's seen marks show in the day model at once and reach the marks
service (and so the store) in batches (`flush_seen`) and when the screen closes; "mark all
above seen" goes to the service at once, as one step `ctrl+z` undoes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from paperterm.day.listing import Entry
from paperterm.day.marks import MarkChange

if TYPE_CHECKING:
    from paperterm.tui.paper_list import PaperTable
    from paperterm.tui.screens.day_view import DayView


class Triage:
    """Seen marks and the keys that move between unseen papers."""

    def __init__(self, view: DayView) -> None:
        self.view = view
        self.model = view.model
        self._pending_seen: set[str] = set()  # seen since the last flush
        self._under_cursor: Entry | None = None
        self._read = False  # the paper under the cursor was there while the list was read

    def mark_seen(self, entries: Iterable[Entry]) -> int:
        """Mark `entries` seen (given to the marks service with the next flush); how many
        were not."""
        ids = tuple(e.id for e in entries if not e.seen)
        if ids:
            self._pending_seen.update(ids)
            self.model.apply_marks([MarkChange(ids, "seen", True)])
        return len(ids)

    def cursor_moved(self, table: PaperTable, entry: Entry | None) -> None:
        """The preview follows the cursor; the paper the user moved off has been seen if it
        was under the cursor while the list had the focus (not only while a filter was
        being typed: each letter puts other papers under the cursor for a moment)."""
        self.view.preview.follow(entry, key=table.moved_by_user)
        reading = self.view.focused is table
        left, was_read = self._under_cursor, self._read or reading
        self._under_cursor, self._read = entry, reading
        if left is not None and left is not entry and table.moved_by_user and was_read:
            self.mark_seen([left])

    def flush_seen(self) -> None:
        """Give the papers marked seen since the last flush to the marks service (read under
        its topic, the screen's: what was read teaches it)."""
        if not self._pending_seen:
            return
        ids, self._pending_seen = sorted(self._pending_seen), set()
        self.view.reader.marks.mark_seen(ids)

    def _jump_unseen(self, step: int) -> None:
        table, shown = self.view.table, self.model.shown
        i = table.cursor + step
        while 0 <= i < len(shown):
            if not shown[i].seen:
                table.moved_by_user = True
                table.move_to(i)
                return
            i += step
        where = "below" if step > 0 else "above"
        self.view.reader.say(f"No unseen paper {where} this one.", timeout=3)

    def next_unseen(self) -> None:
        self._jump_unseen(1)

    def prev_unseen(self) -> None:
        self._jump_unseen(-1)

    def seen_above(self) -> None:
        """Mark every paper above the cursor seen, one step `ctrl+z` undoes."""
        above = self.model.shown[: self.view.table.cursor]
        n = sum(not e.seen for e in above)
        self.flush_seen()  # those the cursor passed are not part of the step
        self.view.reader.marks.mark_seen([e.id for e in above if not e.seen], undoable=True)
        self.view.reader.say(f"{n} paper{'s' * (n != 1)} above marked seen.", timeout=3)
