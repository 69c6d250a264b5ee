"""Triage for the day screen: seen marks as the cursor passes, next / previous unseen paper,
"mark all above seen".

`Triage` is a controller held by the day screen. A paper is seen once the user moved the
cursor off it after it rested there while the list was being read (it was in the preview;
not while a filter was typed in the search box), when it is starred or marked, or with "mark
all above seen"; marks go through the day model (`apply_marks`), and seen marks are written to the
store in batches (`flush_seen`) and when the screen closes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from paperterm.daymodel import MarkChange
from paperterm.listing import Entry

if TYPE_CHECKING:
    from paperterm.store import Store
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
        """Mark `entries` seen (written to the store with the next flush); how many were not."""
        ids = tuple(e.id for e in entries if not e.seen)
        if ids:
            self._pending_seen.update(ids)
            self.model.apply_marks([MarkChange(ids, "seen", True)])
        return len(ids)

    def cursor_moved(self, table: PaperTable, entry: Entry | None) -> None:
        """The preview follows the cursor; the paper the user moved off has been seen if it
        was under the cursor while the list had the focus (not only while a filter was
        being typed: each letter puts other papers under the cursor for a moment)."""
        self.view.preview.show(entry)
        reading = self.view.focused is table
        left, was_read = self._under_cursor, self._read or reading
        self._under_cursor, self._read = entry, reading
        if left is not None and left is not entry and table.moved_by_user and was_read:
            self.mark_seen([left])

    def flush_seen(self) -> None:
        """Write the papers marked seen since the last flush to the store."""
        if not self._pending_seen:
            return
        ids, self._pending_seen = sorted(self._pending_seen), set()
        topic = self.view.topic.name  # what was read under this topic teaches it
        self.view.reader.write_store("the seen marks",
                                     lambda store: store.marks.mark_seen(ids, topic=topic))

    def reload(self, store: Store) -> None:
        """Seen, starred and saved marks as the store has them now: those that differ show.
        Seen marks are only ever added (this screen's own are written first)."""
        self.flush_seen()
        states = store.marks.states(self.model.by_id)
        changes = []
        for e in self.model.entries:
            st = states.get(e.id)
            starred, saved = (st.starred, st.saved) if st is not None else (False, False)
            if st is not None and st.seen and not e.seen:
                changes.append(MarkChange((e.id,), "seen", True))
            if starred != e.starred:
                changes.append(MarkChange((e.id,), "starred", starred))
            if saved != e.saved:
                changes.append(MarkChange((e.id,), "saved", saved))
                e.bib_key = st.bib_key if st is not None else None
        self.model.apply_marks(changes)

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
        n = self.mark_seen(self.model.shown[: self.view.table.cursor])
        self.view.reader.say(f"{n} paper{'s' * (n != 1)} above marked seen.", timeout=3)
