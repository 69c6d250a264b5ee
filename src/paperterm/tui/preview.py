"""The preview pane: everything about the paper under the cursor."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text
from textual import events
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from paperterm.listing import Entry
from paperterm.tui.text import clean, one_line, safe, tex

COLLAPSED_LINES = 4
NO_MATCH = "No paper matches the filters. Press / or f to change them, esc clears the text filter."
_measure_console = Console(width=80, file=None, color_system=None, legacy_windows=False)


def wrapped_lines(text: str, width: int) -> int:
    """How many lines `text` takes at `width` cells."""
    if width <= 0:
        return 0
    return len(Text(text).wrap(_measure_console, width))


class AbstractToggle(Static):
    """The "more / less" switch under a long abstract (also: enter, space)."""

    class Pressed(Message):
        pass

    def on_click(self, event: events.Click) -> None:
        self.post_message(self.Pressed())


class Preview(VerticalScroll, can_focus=True):
    """Title, authors, categories, id and links, the model's judgement, the abstract."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entry: Entry | None = None
        self.expanded = False
        self.collapsible = False
        self.empty_message = NO_MATCH  # what to say when no paper is under the cursor

    def compose(self):
        yield Static(id="pv-meta")
        yield Static(id="pv-abstract")
        yield AbstractToggle(id="pv-toggle")

    def show(self, entry: Entry | None, *, expanded: bool | None = None) -> None:
        if entry is not self.entry:
            self.scroll_home(animate=False)
            if expanded is None:
                expanded = False
        self.entry = entry
        if expanded is not None:
            self.expanded = expanded
        self.render_entry()

    def toggle(self) -> None:
        self.expanded = not self.expanded
        self.render_entry()

    def on_abstract_toggle_pressed(self, message: AbstractToggle.Pressed) -> None:
        self.toggle()

    def on_resize(self, event: events.Resize) -> None:
        self.render_entry()

    def _width(self) -> int:
        return max(20, (self.scrollable_content_region.width or 80) - 1)

    def meta_text(self) -> Text:
        e = self.entry
        if e is None:
            return Text(self.empty_message)
        p = e.paper
        out = Text()
        out.append(one_line(tex(p.title)), style="bold")
        out.append("\n")
        out.append(one_line(", ".join(p.authors)) or "(no authors listed)", style="italic")
        out.append("\n")
        cats = [one_line(c) for c in p.categories]
        if cats:
            out.append(cats[0], style="bold")
            if len(cats) > 1:
                out.append("  " + " ".join(cats[1:]))
        out.append(f"  ·  {one_line(p.announce_type)}", style="dim")
        out.append("\n")
        out.append(f"arXiv:{one_line(p.versioned_id)}")
        out.append("  ")
        out.append(p.abs_url, style="underline")
        out.append("  ")
        out.append(p.pdf_url, style="underline")
        if p.journal_ref:
            out.append("\n" + one_line(p.journal_ref), style="dim")
        if p.comment:
            out.append("\n" + one_line(p.comment), style="dim")
        out.append("\n")
        out.append_text(self.judgement_text(e))
        return out

    def judgement_text(self, e: Entry) -> Text:
        out = Text()
        if e.relevance is not None:
            out.append(f"relevance {e.relevance}", style="bold")
            if e.novelty is not None:
                out.append(f" · novelty {e.novelty}", style="bold")
            source = {"local": "local keyword scorer", "cached": "cached"}.get(e.status, "")
            if source:
                out.append(f"  ({source})", style="dim")
            if e.reason:
                out.append("\n")
                out.append(one_line(e.reason))
        elif e.status == "queued":
            out.append("… waiting for the model", style="dim")
        elif e.status == "failed":
            out.append("! not scored: ", style="bold")
            out.append(one_line(e.error or e.reason or "unknown error"))
        else:
            out.append("not scored (press r to score)", style="dim")
        return out

    def abstract_source(self) -> str:
        if self.entry is None:
            return ""
        return " ".join(clean(tex(self.entry.paper.abstract)).split())

    def render_entry(self) -> None:
        if not self.is_mounted:
            return
        meta = self.query_one("#pv-meta", Static)
        abstract = self.query_one("#pv-abstract", Static)
        toggle = self.query_one("#pv-toggle", AbstractToggle)
        meta.update(self.meta_text())
        text = self.abstract_source()
        lines = wrapped_lines(text, self._width())
        self.collapsible = lines > COLLAPSED_LINES + 1
        collapsed = self.collapsible and not self.expanded
        abstract.set_class(collapsed, "collapsed")
        abstract.update(safe(text))
        toggle.display = self.collapsible
        if self.collapsible:
            label = (
                f"▾ more ({lines - COLLAPSED_LINES} more lines; enter)"
                if collapsed
                else "▴ less (enter)"
            )
            toggle.update(Text(label))

    def abstract_plain(self) -> str:
        """What the abstract widget shows (for tests)."""
        return self.abstract_source()
