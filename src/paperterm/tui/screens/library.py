"""The library across days, in the reader: search over every cached paper, the Starred
reading list and papers similar to one, in one screen (the note/tags editor, `n`, is
`screens.note_editor`).

Results show title, first author, day and score; the detail pane shows authors, tags, the
note and the abstract snippet with the matched words highlighted. The search box never
waits for a query: each runs in a worker thread on a store of its own once typing pauses
(`DEBOUNCE`), one at a time, and only the results of the query the box holds are shown.
The usual keys work on the result under the cursor: `*` star, `b` save to .bib, `c` copy
BibTeX, `o`/`p` open, `n` note and tags, `ctrl+z` undo the last mark change; `esc` goes
back to the day. Marks go through the reader's marks service, which shows them on every
open screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from paperterm.day.marks import MarkChange
from paperterm.day.scores import ShownScore, score_text
from paperterm.models import Topic
from paperterm.services.library import (
    HIT_CLOSE,
    HIT_OPEN,
    QueryTooLarge,
    SearchFailed,
    SearchHit,
    searchable,
)
from paperterm.settings import ScoringSettings
from paperterm.text.hygiene import clean_line
from paperterm.tui.bib_actions import BibOptions, bibtex_clipping, save_papers
from paperterm.tui.footer import FittingFooter
from paperterm.tui.host import Reader, reader_of
from paperterm.tui.messages import LibraryFound
from paperterm.tui.screens.note_editor import NoteEditor
from paperterm.tui.text import clean, tex
from paperterm.tui.workers import current_job, post

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.worker import Worker

    from paperterm.services.storage import StoreFactory

LIMIT = 200  # results shown
# seconds without a keystroke before the box's query runs (at 0.06 s, results shown between
# two keys typed 150 ms apart delayed the next letter: p95 44 ms against 33 ms)
DEBOUNCE = 0.12
OpenDay = Callable[[SearchHit], None]  # show the day of a result, the cursor on it


class Results(OptionList):
    """The results: j/k move like the arrows, enter opens the result's day; up from the
    first result goes back to the query (when there is one)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Its day", show=True),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    def action_cursor_up(self) -> None:
        query = self.screen.query("#library-query")
        if self.highlighted in (None, 0) and query and query.first().display:
            query.first().focus()
            return
        super().action_cursor_up()


class QueryBox(Input):
    """The query: Down goes to the results."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "screen.to_results", "Results", show=False),
    ]


_OPEN, _CLOSE = "\ue000", "\ue001"  # the markers, as characters TeX leaves alone


def highlighted(snippet: str) -> Text:
    """The snippet as literal text, its TeX shown as Unicode as in the day's preview, with
    the matched words in reverse video (a match of stop words alone is not)."""
    from paperterm.text.textsearch import only_stop_words

    marked = snippet.replace(HIT_OPEN, _OPEN).replace(HIT_CLOSE, _CLOSE)
    text = " ".join(clean(tex(marked)).split())
    out = Text()
    for i, part in enumerate(text.split(_OPEN)):
        hit, _, rest = part.partition(_CLOSE) if i else ("", "", part)
        if hit:
            out.append(hit, style="" if only_stop_words(hit) else "bold reverse")
        out.append(rest.replace(_CLOSE, ""))
    return out


class LibraryScreen(Screen[None]):
    """`mode`: "search" (a query box), "starred" (the reading list) or "similar"."""

    DEFAULT_CSS = """
    #library-title { padding: 0 1; text-style: bold; }
    #library-results { height: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    #library-detail {  /* as tall as what it shows, at most 45%: the results get the rest */
        height: auto; max-height: 45%; padding: 0 1; border-top: solid $primary;
        overflow-y: auto;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", show=True),
        Binding("asterisk", "star", "Star", show=True),
        Binding("n", "note", "Note/tags", show=True),
        Binding("b", "save", "Save .bib", show=True),
        Binding("c", "copy", "Copy"),
        Binding("o", "open('abs')", "Open", show=True),
        Binding("p", "open('pdf')", "PDF"),
        Binding("m", "similar", "Similar", show=True),
        Binding("ctrl+z", "app.undo", "Undo", id="undo"),  # `undo` in [keys] remaps it
    ]

    def __init__(self, mode: str = "search", *, paper_id: str | None = None,
                 query: str = "", open_day: OpenDay | None = None) -> None:
        super().__init__()
        self.mode, self.paper_id, self.initial = mode, paper_id, query
        self.open_day = open_day
        self.hits: list[SearchHit] = []
        self.shown: dict[str, ShownScore] = {}
        self.starred: set[str] = set()
        self._query: Worker[Any] | None = None  # the search running, whose hits count
        self._typing: Timer | None = None  # the pause after a keystroke
        self._found_for: str | None = None  # the query whose hits are shown
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def reader(self) -> Reader:
        return reader_of(self.app)

    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="library-title")
        # no select-all on focus: tab back to the query keeps the text for the next key
        yield QueryBox(self.initial, placeholder='search every cached paper: words, '
                       '"a phrase", prefix*, -word, author:, tag:', id="library-query",
                       select_on_focus=False)
        yield Results(id="library-results")
        yield Static(id="library-detail")
        yield FittingFooter()  # the keys that fit, whole

    def _title(self) -> str:
        return {"search": "Search the library", "starred": "Starred: your reading list",
                "similar": f"Similar to {self.paper_id}"}[self.mode]

    def on_mount(self) -> None:
        self._unsubscribe = self.reader.marks.subscribe(self._marks_changed)
        box = self.query_one("#library-query", Input)
        box.display = self.mode == "search"
        self.refresh_results()
        (box if self.mode == "search" else self.query_one(OptionList)).focus()

    # -- results --------------------------------------------------------------------------

    def _find(self) -> tuple[list[SearchHit], dict[str, ShownScore]]:
        from paperterm.services import library

        store = self.reader.store
        topic, settings = self.reader.session.topic, self.reader.session.settings
        if self.mode == "starred":
            return library.starred(store, topic, settings)
        if self.mode == "similar" and self.paper_id:
            return library.similar(store, self.paper_id, topic, settings, limit=LIMIT)
        return library.search(store, self.query_text, topic, settings, limit=LIMIT)

    @property
    def query_text(self) -> str:
        return self.query_one("#library-query", Input).value

    def refresh_results(self) -> None:
        """Find the results again: at once (Starred, Similar, a store that keeps nothing),
        or the box's query in a worker thread (`run_query`)."""
        if self.mode == "search" and self.reader.store.available:
            self.run_query()
            return
        self.show_results(*self._find())

    def show_results(self, hits: list[SearchHit], shown: dict[str, ShownScore]) -> None:
        self.hits, self.shown = hits, shown
        store = self.reader.store
        self.starred = store.marks.starred_ids()
        results = self.query_one("#library-results", OptionList)
        results.clear_options()
        results.add_options([Option(self._row(h)) for h in self.hits])
        if self.hits:
            results.highlighted = 0
        self._show_detail()

    def run_query(self) -> None:
        """Search for what the box holds in a worker thread, unless a search is running: when
        it ends, its hits are shown if the box still holds its query, else the box's query
        runs (the newest keystroke wins; a stale query's hits are never shown)."""
        self._typing = None
        query = self.query_text
        if self._query is not None or query == self._found_for:
            return
        try:
            nothing = not searchable(query)
        except QueryTooLarge as exc:  # said, never a crash nor a silent "no results"
            self._found_for = query
            self.show_results([], {})
            self.notify(str(exc), severity="warning")
            return
        if nothing:  # nothing to search for yet
            self._found_for = query
            self.show_results([], {})
            return
        session = self.reader.session
        self._query = self._search(query, session.open_store, session.topic, session.settings)

    # `description`: not Textual's repr of the arguments (11 ms a key)
    @work(thread=True, name="library-search", group="library-search", exit_on_error=False,
          description="library search")
    def _search(self, query: str, open_store: StoreFactory, topic: Topic,
                settings: ScoringSettings) -> None:
        """Search the library for `query` on a store of this thread's own; post the hits."""
        from paperterm.services import library

        hits: list[SearchHit] = []
        shown: dict[str, ShownScore] = {}
        error = ""
        try:  # whatever happens, the screen hears back: it runs no other search until then
            hits, shown = library.search_at(open_store, query, topic, settings, limit=LIMIT)
        except SearchFailed as exc:  # the index refused the query: said, not "no results"
            hits, shown, error = [], {}, str(exc)
        except Exception:  # a store gone bad meanwhile: no results, the box stays usable
            hits, shown = [], {}
        post(self, LibraryFound(current_job(), query, hits, shown, error))

    def on_library_found(self, message: LibraryFound) -> None:
        if message.worker is not self._query:
            return
        self._query = None
        if message.query == self.query_text:
            self._found_for = message.query
            self.show_results(message.hits, message.shown)
            if message.error:
                self.notify(message.error, severity="error")
        elif self._typing is None:  # typed while it ran, and the pause is over
            self.run_query()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def _marks_changed(self, changes: Sequence[MarkChange]) -> None:
        """A star given or taken anywhere (here, `ctrl+z`): the rows it touches show it in
        place; no row comes or goes until the list is opened again."""
        touched = False
        for c in changes:
            if c.field == "starred":
                (self.starred.update if c.value else self.starred.difference_update)(c.ids)
                touched = True
            touched = touched or c.field in ("note", "tags")
        if not touched or not self.is_attached:
            return
        results = self.query_one("#library-results", OptionList)
        ids = {pid for c in changes for pid in c.ids}
        for i, h in enumerate(self.hits):
            if h.paper.id in ids:
                results.replace_option_prompt_at_index(i, self._row(h))
        self._show_detail()

    def _row(self, h: SearchHit) -> Text:
        score = score_text(h.relevance, self.shown.get(h.paper.id))
        star = "★" if h.paper.id in self.starred else " "
        return Text(f"{score} {star} {h.day}  {tex(h.paper.title)}  — "
                    f"{tex(h.paper.first_author)}",
                    no_wrap=True, overflow="ellipsis")

    @property
    def current(self) -> SearchHit | None:
        i = self.query_one("#library-results", OptionList).highlighted
        return self.hits[i] if i is not None and 0 <= i < len(self.hits) else None

    def _show_detail(self) -> None:
        detail = self.query_one("#library-detail", Static)
        h = self.current
        if h is None:
            if self.mode == "starred":
                said = "Nothing starred yet: * stars a paper."
            elif self.mode == "search" and not searchable(self.query_text):
                said = ("Type to search every cached paper: words, \"a phrase\", prefix*, "
                        "-word, author:, tag:")  # nothing asked yet: nothing failed to match
            else:
                said = "No cached paper matches."
            detail.update(Text(said))
            return
        p = h.paper
        store = self.reader.store
        note = store.marks.note(p.id)
        tags = store.marks.tags([p.id]).get(p.id, [])
        out = Text()
        out.append(tex(p.title) + "\n", style="bold")
        out.append(", ".join(tex(a) for a in p.authors) + "\n")
        out.append(f"{p.versioned_id}  ·  {h.day}  ·  {', '.join(p.categories)}\n")
        if tags:
            out.append("tags: " + ", ".join(tags) + "\n")
        if note:
            out.append("note: " + note + "\n")
        out.append("\n")
        out.append_text(highlighted(h.snippet))
        detail.update(out)

    def on_input_changed(self, event: Input.Changed) -> None:
        """A keystroke: the box shows it at once; its query runs once typing pauses."""
        if self.mode != "search" or not self.reader.store.available:
            self.refresh_results()
            return
        if self._typing is not None:
            self._typing.stop()
        self._typing = self.set_timer(DEBOUNCE, self.run_query)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """enter on a result: its day, the cursor on it (esc comes back here)."""
        if self.current is not None and self.open_day is not None:
            self.open_day(self.current)

    def action_to_results(self) -> None:
        if self.hits:
            self.query_one(Results).focus()

    # -- actions on the result under the cursor -------------------------------------------

    def action_back(self) -> None:
        self.dismiss(None)

    def action_star(self) -> None:
        """Star or unstar the result under the cursor; it stays where it is (shown
        unstarred in the Starred list until the list is opened again)."""
        h = self.current
        if h is None:
            return
        marks, pid = self.reader.marks, h.paper.id
        other = marks.starred_elsewhere([pid]).get(pid)
        was = f" (it was starred under topic {other})" if other else ""
        title = clean_line(h.paper.title)  # whole: the log keeps it (M)
        if pid in self.starred:  # as the row shows it
            marks.unstar([pid])
            self.reader.say(f"Unstarred{was}: {title}", "information")
        else:
            marks.star([pid])
            marks.mark_seen([pid])  # as a star in the day list does
            self.reader.say(f"Starred under topic {marks.topic}"
                            f"{f' (was {other})' if other else ''}: {title}", "information")

    def _options(self) -> BibOptions:
        s = self.reader.session
        return BibOptions.from_config(s.config.bibtex, unicode=s.unicode_bib)

    def action_save(self) -> None:
        h = self.current
        if h is None:
            return
        outcome = save_papers([h.paper], self.reader.session.bib_path, self._options())
        if not outcome.error and outcome.in_file and outcome.path is not None:
            self.reader.marks.mark_saved(list(outcome.in_file), outcome.path)  # one by one
        self.reader.say(outcome.message, "error" if outcome.error else "information")

    def action_copy(self) -> None:
        if self.current is not None:
            from paperterm.tui.copying import copy_text

            clip = bibtex_clipping(self.current.paper, None, self._options())
            copy_text(self.reader, clip.text, clip.what)

    def action_open(self, which: str) -> None:
        from paperterm.tui.links import open_link

        if self.current is not None:
            p = self.current.paper
            open_link(self.reader, p.abs_url if which == "abs" else p.pdf_url)

    def action_similar(self) -> None:
        if self.current is not None:
            self.app.push_screen(LibraryScreen("similar", paper_id=self.current.paper.id,
                                               open_day=self.open_day))

    def action_note(self) -> None:
        if self.current is not None:  # shown as it is saved
            paper = self.current.paper
            self.app.push_screen(NoteEditor(paper.id, paper.title))
