"""Triage for the day screen: seen marks as the cursor passes, next / previous unseen paper,
"mark all above seen", and the header's unseen, starred and marked counts.

A mixin of `DayScreen`. A paper is seen once the user moved the cursor off it (it was in the
preview), when it is starred or marked, or with "mark all above seen"; seen marks are written
to the store in batches (`flush_seen`) and when the screen closes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from paperterm.listing import Entry
from paperterm.tui.paper_list import PaperTable

if TYPE_CHECKING:
    from paperterm.tui.host import Reader
    from paperterm.tui.preview import Preview


class Triage:
    """Seen marks and the keys that move between unseen papers."""

    # provided by DayScreen
    entries: list[Entry]
    shown: list[Entry]
    reader: Reader
    table: PaperTable
    preview: Preview
    _pending_seen: set[str]
    _under_cursor: Entry | None

    if TYPE_CHECKING:
        def _show_header(self) -> None: ...

    def marks_changed(self) -> None:
        """Seen, star or mark flags changed in place: repaint the rows and the counts."""
        self.table.refresh_entries()
        self._show_header()

    def mark_seen(self, entries: Iterable[Entry]) -> int:
        """Mark `entries` seen (written to the store with the next flush); how many were not."""
        n = 0
        for e in entries:
            if not e.seen:
                e.seen = True
                self._pending_seen.add(e.id)
                n += 1
        if n:
            self.marks_changed()
        return n

    def on_paper_table_cursor_moved(self, message: PaperTable.CursorMoved) -> None:
        """The preview follows the cursor; the paper the user moved off has been seen."""
        self.preview.show(message.entry)
        left, self._under_cursor = self._under_cursor, message.entry
        if left is not None and left is not message.entry and message.table.moved_by_user:
            self.mark_seen([left])

    def flush_seen(self) -> None:
        """Write the papers marked seen since the last flush to the store."""
        if not self._pending_seen:
            return
        ids, self._pending_seen = sorted(self._pending_seen), set()
        self.reader.write_store("the seen marks", lambda store: store.mark_seen(ids))

    def _jump_unseen(self, step: int) -> None:
        table = self.table
        i = table.cursor + step
        while 0 <= i < len(self.shown):
            if not self.shown[i].seen:
                table.moved_by_user = True
                table.move_to(i)
                return
            i += step
        where = "below" if step > 0 else "above"
        self.reader.say(f"No unseen paper {where} this one.", timeout=3)

    def action_next_unseen(self) -> None:
        self._jump_unseen(1)

    def action_prev_unseen(self) -> None:
        self._jump_unseen(-1)

    def action_seen_above(self) -> None:
        n = self.mark_seen(self.shown[: self.table.cursor])
        self.reader.say(f"{n} paper{'s' * (n != 1)} above marked seen.", timeout=3)

    def triage_counts(self) -> dict[str, int]:
        """Unseen, starred and marked papers of the whole day (whatever the filters)."""
        return {"unseen": sum(not e.seen for e in self.entries),
                "starred": sum(e.starred for e in self.entries),
                "marked": sum(e.marked for e in self.entries)}
