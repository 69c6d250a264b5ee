"""The day screen's ways into the library: search everything, the Starred reading list,
papers similar to the current one, and its note and tags. A controller held by the day
screen. The library screens are imported when first opened, not on the reader's start-up
path."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from paperterm.day.marks import MarkChange

if TYPE_CHECKING:
    from textual.screen import Screen

    from paperterm.services.library import SearchHit
    from paperterm.tui.screens.day_view import DayView


class LibraryActions:
    """`screen_class` makes the screen of the day a result belongs to:
    `screen_class(session, autoscore=..., focus_id=..., visit=True)`."""

    def __init__(self, view: DayView, screen_class: type[Screen[Any]]) -> None:
        self.view = view
        self.model = view.model
        self.screen_class = screen_class

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

        self.view.app.push_screen(LibraryScreen("search", open_day=self.open_day))

    def starred_view(self) -> None:
        from paperterm.tui.screens.library import LibraryScreen

        self.view.app.push_screen(LibraryScreen("starred", open_day=self.open_day))

    def similar(self) -> None:
        from paperterm.tui.screens.library import LibraryScreen

        current = self.view.current
        if current is not None:
            self.view.app.push_screen(LibraryScreen("similar", paper_id=current.id,
                                                    open_day=self.open_day))

    def open_day(self, hit: SearchHit) -> None:
        """Show the day a library result belongs to, the cursor on it, above the results
        (esc goes back to them); from the cache, never the network."""
        from paperterm.services.days import base_request, day_of_paper

        reader = self.view.reader
        if not reader.store.available:
            reader.say("No database: the day cannot be opened.", "error")
            return
        session = reader.session
        try:
            day = day_of_paper(base_request(session), reader.store, hit.paper.id, hit.day)
        except Exception as exc:  # an unreadable cache: say so, stay on the results
            reader.say(f"Cannot open the day of {hit.paper.id}: {exc}", "error")
            return
        visited = replace(session, day=day, pending=None)
        make: Any = self.screen_class  # a DayScreen (its own signature)
        self.view.app.push_screen(make(visited, autoscore=self.view.autoscore,
                                       focus_id=hit.paper.id, visit=True))
        reader.say(f"{hit.paper.id} in its day, {day.label}: esc goes back to the results",
                   timeout=4)

    def edit_note(self) -> None:
        from paperterm.tui.screens.note_editor import NoteEditor

        e = self.view.current
        if e is not None:  # the note and tags show as the marks service publishes them
            self.view.app.push_screen(NoteEditor(e.id, e.paper.title))
