"""The note and tags editor (`n`, in the day view and the library screens): a multi-line
note and comma-separated tags for one paper, saved through the reader's marks service."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, TextArea

from paperterm.text.hygiene import cut
from paperterm.tui.host import Reader, reader_of
from paperterm.tui.text import one_line, tex


class NoteEditor(ModalScreen[bool]):
    """A multi-line note and comma-separated tags for one paper; ctrl+s saves, esc cancels."""

    DEFAULT_CSS = """
    NoteEditor { align: center middle; }
    #note-editor { width: 80%; height: 80%; background: $surface; border: round $primary; }
    #note-text { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", show=True, priority=True),
        Binding("escape", "cancel", "Cancel", show=True),
    ]

    def __init__(self, paper_id: str, title: str = "") -> None:
        super().__init__()
        self.paper_id = paper_id
        self.title_ = title  # shown above the note: which paper it is
        self._saved = ""  # said once the editor is gone, in the screen's header line

    @property
    def reader(self) -> Reader:
        return reader_of(self.app)

    def compose(self) -> ComposeResult:
        store = self.reader.store
        note = store.marks.note(self.paper_id)
        tags = store.marks.tags([self.paper_id]).get(self.paper_id, [])
        with Vertical(id="note-editor"):
            heading = Text(f"Note on {self.paper_id}", style="bold")
            if self.title_:
                heading.append(f": {cut(one_line(tex(self.title_)), 120)}")
            heading.append("  (ctrl+s saves, esc cancels)")
            yield Label(heading, id="note-heading")
            yield TextArea(note, id="note-text")
            yield Label("Tags (comma-separated)")
            yield Input(", ".join(tags), id="note-tags")
        yield Footer()

    def on_mount(self) -> None:
        text = self.query_one(TextArea)
        text.move_cursor(text.document.end)  # what the user types adds to the note
        text.focus()

    def action_save(self) -> None:
        if not self.reader.store.available:
            self.reader.say("No database: the note cannot be kept.", "error")
            self.dismiss(False)
            return
        marks = self.reader.marks  # every open day shows the note and tags at once
        marks.set_note(self.paper_id, self.query_one(TextArea).text)
        marks.set_tags(self.paper_id, self.query_one("#note-tags", Input).value.split(","))
        self._saved = f"Note and tags saved for {self.paper_id}"
        self.dismiss(True)

    def on_unmount(self) -> None:
        # said on the screen underneath (its header line), not as a toast over its preview
        if self._saved:
            self.app.call_later(self.reader.say, self._saved, "information", 3)

    def action_cancel(self) -> None:
        self.dismiss(False)
