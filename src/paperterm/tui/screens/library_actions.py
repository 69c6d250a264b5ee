"""The day screen's ways into the library: search everything, the Starred reading list,
papers similar to the current one, and its note and tags. A mixin of `DayScreen`.
The library screens are imported when first opened, not on the reader's start-up path."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.app import App

    from paperterm.listing import Entry
    from paperterm.tui.preview import Preview


class LibraryActions:
    app: App[int]
    if TYPE_CHECKING:  # DayScreen's read-only properties
        @property
        def current(self) -> Entry | None: ...
        @property
        def preview(self) -> Preview: ...

    def load_annotations(self, entries: Mapping[str, Entry]) -> None:
        """The user's notes and tags on these papers, from the store (for the preview)."""
        if not entries:
            return
        store = self.app.store  # type: ignore[attr-defined]  # the reader's
        notes, tags = store.marks.notes(entries), store.marks.tags(entries)
        for pid, e in entries.items():
            e.note, e.tags = notes.get(pid, ""), tuple(tags.get(pid, ()))

    def on_screen_resume(self) -> None:
        """Back from the library (where notes and tags may have changed): show them anew."""
        e = self.current
        if e is not None:
            self.load_annotations({e.id: e})
            self.preview.render_entry()

    def action_library_search(self) -> None:
        from paperterm.tui.screens.library import LibraryScreen

        self.app.push_screen(LibraryScreen("search"))

    def action_starred_view(self) -> None:
        from paperterm.tui.screens.library import LibraryScreen

        self.app.push_screen(LibraryScreen("starred"))

    def action_similar(self) -> None:
        from paperterm.tui.screens.library import LibraryScreen

        if self.current is not None:
            self.app.push_screen(LibraryScreen("similar", paper_id=self.current.id))

    def action_edit_note(self) -> None:
        from paperterm.tui.screens.library import NoteEditor

        e = self.current
        if e is None:
            return

        def saved(done: bool | None) -> None:
            if done:
                self.load_annotations({e.id: e})
                self.preview.render_entry()

        self.app.push_screen(NoteEditor(e.id), saved)
