"""The day screen's ways into the library: search everything, the Starred reading list,
papers similar to the current one, and its note and tags. A controller held by the day
screen. The library screens are imported when first opened, not on the reader's start-up
path."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from paperterm.services.marks import MarkChange

if TYPE_CHECKING:
    from paperterm.tui.screens.day_view import DayView


class LibraryActions:
    def __init__(self, view: DayView) -> None:
        self.view = view
        self.model = view.model

    def load_annotations(self, ids: Iterable[str]) -> None:
        """The user's notes and tags on these papers, from the store, into the day model."""
        store = self.view.reader.store
        ids = list(ids)
        if not ids:
            return
        notes, tags = store.marks.notes(ids), store.marks.tags(ids)
        changes = []
        for pid in ids:
            e = self.model.by_id.get(pid)
            if e is None:
                continue
            note, its_tags = notes.get(pid, ""), tuple(tags.get(pid, ()))
            if note != e.note:
                changes.append(MarkChange((pid,), "note", note))
            if its_tags != e.tags:
                changes.append(MarkChange((pid,), "tags", its_tags))
        self.model.apply_marks(changes)

    def resumed(self) -> None:
        """Back from the library: the preview as the marks are now (the marks service
        brought what changed there into the day model)."""
        if self.view.current is not None:
            self.view.preview.render_entry()

    def library_search(self) -> None:
        from paperterm.tui.screens.library import LibraryScreen

        self.view.app.push_screen(LibraryScreen("search"))

    def starred_view(self) -> None:
        from paperterm.tui.screens.library import LibraryScreen

        self.view.app.push_screen(LibraryScreen("starred"))

    def similar(self) -> None:
        from paperterm.tui.screens.library import LibraryScreen

        current = self.view.current
        if current is not None:
            self.view.app.push_screen(LibraryScreen("similar", paper_id=current.id))

    def edit_note(self) -> None:
        from paperterm.tui.screens.library import NoteEditor

        e = self.view.current
        if e is not None:  # the note and tags show as the marks service publishes them
            self.view.app.push_screen(NoteEditor(e.id))
