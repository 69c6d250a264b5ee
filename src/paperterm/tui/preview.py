"""The preview pane: everything about the paper under the cursor."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual import events
from textual.color import Color
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from paperterm.day.listing import Entry, FilterState
from paperterm.text.textsearch import Term, spans
from paperterm.tui.text import clean, one_line, safe, tex
from paperterm.tui.themes import contrast

if TYPE_CHECKING:
    from paperterm.services.history import Op

COLLAPSED_LINES = 4
SEARCH_MATCH = "reverse"  # words the text filter matched (readable in every theme)
TOPIC_MATCH = "bold underline"  # the topic's keywords
DIFF_CONTRAST = 3.0  # a word diff's colour against the preview (else: bold / strike only)
NOTE_LINES = 6  # lines of the user's note shown in the preview
NO_MATCH = "No paper matches the filters. Press / or f to change them, esc clears the text filter."


def no_match(filters: FilterState) -> str:
    """What an empty list says: which filter left nothing, and the key that changes it."""
    said = []
    if filters.text.strip():
        said.append(f'No paper matches "{one_line(filters.text.strip())}": / changes the '
                    "search, esc clears it.")
    others = [d for d in filters.describe() if not d.startswith('"')]
    if others:
        said.append(f"No paper {'left by' if said else 'matches'} the filters "
                    f"({', '.join(others)}): f changes them.")
    return " ".join(said) or NO_MATCH
_measure_console = Console(width=80, file=None, color_system=None, legacy_windows=False)


def wrapped_lines(text: str, width: int) -> int:
    """How many lines `text` takes at `width` cells."""
    if width <= 0:
        return 0
    return len(Text(text).wrap(_measure_console, width))


def annotations_text(e: Entry, muted: Style | str = "dim") -> Text:
    """The user's tags and note on the paper (each line of the note kept), if any; `muted`:
    the style of the line saying more is hidden."""
    out = Text()
    if e.tags:
        out.append("\ntags: ", style="bold")
        out.append(" ".join(f"#{one_line(t)}" for t in e.tags))
    lines = [one_line(line) for line in e.note.splitlines()]
    for i, line in enumerate(lines[:NOTE_LINES]):
        out.append("\nnote: " if i == 0 else "\n      ", style="bold" if i == 0 else "")
        out.append(line)
    if len(lines) > NOTE_LINES:
        out.append(f"\n      … {len(lines) - NOTE_LINES} more line(s) (n shows the note)",
                   style=muted)
    return out


class AbstractToggle(Static):
    """The "more / less" switch under a long abstract (also: enter, space)."""

    class Pressed(Message):
        pass

    def on_click(self, event: events.Click) -> None:
        self.post_message(self.Pressed())


def short_authors(authors: list[str], width: int) -> str:
    """The authors in at most `width` cells: as many as fit, then "… +45 more"."""
    full = ", ".join(authors)
    if Text(full).cell_len <= width or len(authors) <= 1:
        return full
    for n in range(len(authors) - 1, 0, -1):
        text = f"{', '.join(authors[:n])}, … +{len(authors) - n} more"
        if Text(text).cell_len <= width:
            return text
    return f"{authors[0]}, … +{len(authors) - 1} more"


class Preview(VerticalScroll, can_focus=True):
    """The paper under the cursor: title, authors, categories and id, the model's judgement;
    the abstract, filling the height left (all of it once expanded); links and comments.
    A kept paper that came back revised shows its title and abstract as a word diff against
    the earlier version (struck and inserted words in the theme's error/success colours)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "preview--inserted", "preview--deleted", "preview--muted"}
    DEFAULT_CSS = """
    Preview > .preview--inserted { color: $text-success; text-style: bold; }
    Preview > .preview--deleted { color: $text-error; text-style: strike; }
    Preview > .preview--muted { color: $pt-muted; }
    """

    def __init__(self, *, id: str | None = None,
                 topic: Callable[[], str] = lambda: "") -> None:
        """`topic`: the name of the day's topic, read from its owner (the day model) when
        shown ("not interested" is said under it)."""
        super().__init__(id=id)
        self.entry: Entry | None = None
        self.expanded = False
        self.keep_expanded = False  # every paper opens expanded (E, config expand_abstracts)
        self.collapsible = False
        self.fit_lines = COLLAPSED_LINES  # abstract lines shown while collapsed
        # what to say when no paper is under the cursor: nothing until the list is filled
        # (the first paint said "No paper matches the filters" above a list about to fill)
        self.empty_message = ""
        self.search_terms: list[Term] = []  # highlighted: the text filter's words
        self.topic_terms: list[Term] = []  # and the topic's keywords
        self.topic = topic
        self._following: Entry | None = None
        self._follow_due = False  # a follow() render waits for the list's next frame

    def on_mount(self) -> None:
        # its text carries the theme's colours (muted, inserted, deleted), worked out when
        # drawn: a theme switch (T) draws it again, once the new theme's styles are in
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _theme: object) -> None:
        self.render_entry()

    def compose(self):
        yield Static(id="pv-meta")
        yield Static(id="pv-abstract")
        yield AbstractToggle(id="pv-toggle")
        yield Static(id="pv-links")

    def show(self, entry: Entry | None, *, expanded: bool | None = None) -> None:
        if entry is not self.entry:
            self.scroll_home(animate=False)
            if expanded is None:
                expanded = self.keep_expanded
        self.entry = entry
        if expanded is not None:
            self.expanded = expanded
        self.render_entry()

    def follow(self, entry: Entry | None, *, key: bool) -> None:
        """Show `entry` under the cursor. After a key moved it from one paper to another the
        preview renders once the list has painted the move (a key's first frame is the list
        alone, and a held key renders only the paper the cursor stops on); otherwise now."""
        self._following = entry
        if not (key and entry is not None and self.entry is not None):
            self.show(entry)
        elif not self._follow_due:
            self._follow_due = True
            self.call_after_refresh(self._follow_now)

    def _follow_now(self) -> None:
        self._follow_due = False
        self.show(self._following)

    def set_keep_expanded(self, keep: bool) -> None:
        """Keep abstracts expanded across papers (or collapse them again)."""
        self.keep_expanded = keep
        self.expanded = keep
        self.render_entry()

    def page(self, down: bool) -> None:
        """One page of the preview down (a collapsed abstract expands first) or up."""
        if down and self.collapsible and not self.expanded:
            self.expanded = True
            self.render_entry()
            self.call_after_refresh(self.scroll_page_down, animate=False)
        elif down:
            self.scroll_page_down(animate=False)
        else:
            self.scroll_page_up(animate=False)

    def set_terms(self, search: list[Term], topic: list[Term]) -> None:
        """Highlight these filter words and topic keywords (repaints only on a change)."""
        if (search, topic) != (self.search_terms, self.topic_terms):
            self.search_terms, self.topic_terms = search, topic
            self.render_entry()

    @property
    def muted(self) -> Style:
        """Quieter text (the type, where a score comes from, links' details): a colour that
        still reads on the preview's background in every theme (not `dim`, which halves it)."""
        return self.get_component_rich_style("preview--muted", partial=True)

    def highlighted(self, text: str, style: str = "") -> Text:
        """`text` shown literally, with the search and topic terms in it highlighted."""
        out = safe(text, style)
        for start, end in spans(text, self.topic_terms):
            out.stylize(TOPIC_MATCH, start, end)
        for start, end in spans(text, self.search_terms):
            out.stylize(SEARCH_MATCH, start, end)
        return out

    def diff(self, pieces: list[tuple[Op, str]], style: str = "") -> Text:
        """A word diff as one text: deleted words struck, inserted ones bold, in the theme's
        colours (component classes, never fixed colours)."""
        styles = {"ins": self._readable(self.get_component_rich_style("preview--inserted",
                                                                      partial=True)),
                  "del": self._readable(self.get_component_rich_style("preview--deleted",
                                                                      partial=True))}
        out = Text(style=style)
        for i, (op, words) in enumerate(pieces):
            if i:
                out.append(" ")
            shown = " ".join(clean(tex(words)).split())
            out.append_text(safe(shown, styles[op]) if op in styles else safe(shown))
        return out

    def _readable(self, style: Style) -> Style:
        """`style`, or only its bold/strike where the theme's colour reads too faintly on
        the preview's background (a theme whose success colour is pale on light grey)."""
        bg = self.background_colors[1]
        if style.color is None or bg.ansi is not None:  # the terminal's own colours
            return style
        t = style.color.get_truecolor()
        if contrast(Color(t.red, t.green, t.blue), bg) >= DIFF_CONTRAST:
            return style
        return Style(bold=style.bold, strike=style.strike)

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
        """Title, authors (shortened to a line until expanded), categories, type and id,
        and the model's judgement."""
        e = self.entry
        if e is None:
            return Text(self.empty_message)
        p = e.paper
        out = Text()
        rev = e.revision
        if rev is not None and rev.title_changed:
            out.append_text(self.diff(rev.title_diff(), "bold"))
        else:
            out.append_text(self.highlighted(one_line(tex(p.title)), "bold"))
        out.append("\n")
        authors = [one_line(tex(a)) for a in p.authors]
        shown = ", ".join(authors) if self.expanded else short_authors(authors, self._width())
        out.append_text(self.highlighted(shown, "italic") if shown
                        else Text("(no authors listed)", style="italic"))
        if e.followed:
            out.append("  @ followed author", style="bold")
        out.append("\n")
        cats = [one_line(c) for c in p.categories]
        if cats:
            out.append(cats[0], style="bold")
            if len(cats) > 1:
                out.append(" " + " ".join(cats[1:]))
            out.append("  ·  ")
        out.append(one_line(p.announce_type), style=self.muted)
        out.append(f"  ·  arXiv:{one_line(p.versioned_id)}")
        out.append("\n")
        if e.repeat is not None:
            out.append(one_line(e.repeat.note) + "\n", style="dim")
        if rev is not None:
            from paperterm.services.history import diff_summary  # (a revision made it imported)

            out.append(f"revised {rev.label}", style="bold")
            how = ("" if rev.diff_too_large  # (said in the summary: the new text shown)
                   else " (struck: before, bold: new)")
            out.append(f": {diff_summary(rev)}{how}\n")
        judgement = self.judgement_text(e)
        if not self.expanded:  # each line kept to one row, so the abstract keeps its rows
            lines = judgement.split("\n")
            for line in lines:
                line.truncate(self._width(), overflow="ellipsis")
            judgement = Text("\n").join(lines)
        out.append_text(judgement)
        if e.dismissed:
            out.append(f"\n✗ not interested ({one_line(self.topic())}): ranked lower; d again "
                       "or ctrl+z takes it back", style="bold")
        out.append_text(annotations_text(e, self.muted))  # the user's own tags and note
        return out

    def links_text(self) -> Text:
        """Below the abstract: the links (o and p open them), journal reference, comment."""
        e = self.entry
        if e is None:
            return Text()
        p = e.paper
        out = Text()
        out.append(p.abs_url, style="underline")
        out.append("  ")
        out.append(p.pdf_url, style="underline")
        if p.journal_ref:
            out.append("\n" + one_line(p.journal_ref), style=self.muted)
        if p.comment:
            out.append("\n" + one_line(p.comment), style=self.muted)
        for line in e.signals.lines() if e.signals else ():  # enrichment, when cached
            out.append("\n" + one_line(line), style=self.muted)
        return out

    def judgement_text(self, e: Entry) -> Text:
        out = Text()
        if e.relevance is not None:
            out.append(f"relevance {e.relevance}", style="bold")
            if e.novelty is not None:
                out.append(f" · novelty {e.novelty}", style="bold")
            source = {"local": "local ranking", "cached": "cached",
                      "prefilter": "local ranking",
                      "failed": "local ranking, provisional",
                      "queued": "local ranking, provisional: waiting for the model",
                      "unsent": "local ranking, provisional"}.get(e.status, "")
            if source:
                out.append(f"  ({source})", style=self.muted)
            if e.reason:  # on the same line: every line saved is a line of abstract
                out.append("  ")
                out.append(one_line(e.reason))
            if e.status == "unsent":
                out.append(f"\nnot sent to the model ({one_line(e.error or '')})", style=self.muted)
            elif e.status == "failed":
                out.append("\n! the model did not score it: ", style="bold")
                out.append(one_line(e.error or "unknown error"))
        elif e.status == "queued":
            out.append("… waiting for the model", style=self.muted)
        elif e.status == "unsent":
            out.append(f"not sent ({one_line(e.error or '')})", style=self.muted)
        elif e.status == "failed":
            out.append("! not scored: ", style="bold")
            out.append(one_line(e.error or e.reason or "unknown error"))
        else:
            out.append("not scored (press r to score)", style=self.muted)
        return out

    def abstract_source(self) -> str:
        if self.entry is None:
            return ""
        return " ".join(clean(tex(self.entry.paper.abstract)).split())

    def _fit_lines(self, meta: Text, width: int) -> int:
        """Abstract lines that fit under the meta lines and the margin below them."""
        height = self.scrollable_content_region.height
        if not height:
            return COLLAPSED_LINES
        return max(2, height - len(meta.wrap(_measure_console, width)) - 1)

    def render_entry(self) -> None:
        if not self.is_mounted or not self.children:  # not composed yet, or being removed
            return
        meta = self.query_one("#pv-meta", Static)
        abstract = self.query_one("#pv-abstract", Static)
        toggle = self.query_one("#pv-toggle", AbstractToggle)
        meta_text = self.meta_text()
        meta.update(meta_text)
        self.query_one("#pv-links", Static).update(self.links_text())
        text = self.abstract_source()
        rev = self.entry.revision if self.entry is not None else None
        width = self._width()
        lines = wrapped_lines(text, width)
        self.fit_lines = fit = self._fit_lines(meta_text, width)
        self.collapsible = lines > fit
        collapsed = self.collapsible and not self.expanded
        abstract.set_class(collapsed, "collapsed")
        abstract.styles.max_height = fit if collapsed else None
        if rev is not None and rev.abstract_changed:
            abstract.update(self.diff(rev.abstract_diff()))
        else:
            abstract.update(self.highlighted(text))
        # the "more" line sits in the border above, where it takes no line of abstract
        more = lines - fit
        self.border_title = (f"▾ {more} more line{'' if more == 1 else 's'}: enter, J pages"
                             if collapsed else None)
        toggle.display = self.collapsible and not collapsed
        toggle.update(Text("▴ less (enter)"))
