"""The day view: one loaded announcement as a sortable, filterable list with a preview.

Sort and filter state are reactives (`sort_key`, `reverse`, `filters`): assigning one
recomputes what shows and repaints the list and the header. The screen's two other parts
are mixins: `LiveScoring` (screens/scoring.py) runs the scorers and keeps the reactives
`scoring` and `summary` current, which repaint the header; `PaperActions`
(screens/paper_actions.py) stars, marks, saves, copies and opens papers.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import ClassVar

from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import SimpleCommand
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input

from paperterm.listing import (
    PROVISIONAL,
    Entry,
    FilterState,
    make_entries,
    view,
)
from paperterm.models import Topic
from paperterm.scoring.types import RunSummary
from paperterm.session import Session
from paperterm.textsearch import keyword_terms
from paperterm.tui.entry_scores import clear_scores
from paperterm.tui.footer import FittingFooter
from paperterm.tui.header import HeaderInfo, TopBar
from paperterm.tui.host import Reader, reader_of
from paperterm.tui.keys import APP_KEYS, bindings
from paperterm.tui.paper_list import ColumnHeader, PaperTable
from paperterm.tui.preview import NO_MATCH, Preview
from paperterm.tui.screens.day_nav import DayNavigation
from paperterm.tui.screens.enrich_actions import EnrichActions
from paperterm.tui.screens.follow_actions import FollowActions
from paperterm.tui.screens.library_actions import LibraryActions
from paperterm.tui.screens.paper_actions import PaperActions
from paperterm.tui.screens.scoring import ENABLE_LLM_HINT, LiveScoring
from paperterm.tui.screens.sorting import SortActions
from paperterm.tui.screens.summary import SummaryActions
from paperterm.tui.screens.triage import Triage
from paperterm.tui.text import one_line


class DayScreen(LiveScoring, PaperActions, LibraryActions, SummaryActions, Triage,
                EnrichActions, FollowActions, DayNavigation, SortActions, Screen[None]):
    """The paper list, the preview, the header line and the search box for one day."""

    BINDINGS: ClassVar[list[Binding]] = [
        *bindings(APP_KEYS),
        # priority: handled in typing order, so a key typed right after esc (q) sees the list
        Binding("escape", "clear_search", "Clear filter", show=False, id="clear_search",
                priority=True),
        # priority: keys typed right after enter are queued already and must reach the list
        Binding("enter", "submit_search", show=False, priority=True, id="submit_search"),
    ]

    SEEN_FLUSH_INTERVAL = 2.0  # write seen marks to the store at most this often
    SORT_NOTICE_DELAY = 0.4  # sort keys pressed closer together than this give one notice
    FOOTER_WIDE = 130  # below this the footer drops its padding so every shown key fits

    sort_key: var[str] = var("relevance", init=False)
    reverse: var[bool] = var(False, init=False)
    filters: var[FilterState] = var(FilterState, init=False)
    scoring: var[bool] = var(False, init=False)  # an LLM run is under way
    summary: var[RunSummary | None] = var(None, init=False, always_update=True)

    class Ready(Message):
        """The screen is up; `notices` are what it has to say at start."""

        def __init__(self, notices: list[tuple[str, str]]) -> None:
            super().__init__()
            self.notices = notices

    def __init__(self, session: Session, *, autoscore: bool = True) -> None:
        super().__init__()
        self.session = session
        self.topic: Topic = session.topic
        self.autoscore = autoscore
        self.entries: list[Entry] = make_entries(session.day.papers, session.day.paper_days)
        self.by_id: dict[str, Entry] = {e.id: e for e in self.entries}
        self.categories = sorted({c for e in self.entries for c in e.paper.categories})
        self.shown: list[Entry] = list(self.entries)
        self.scorer_label = ""
        self._notices: list[tuple[str, str]] = []  # said once, when the screen is up
        self._pending_scores = []
        self._rescore_next = []
        self._pending_seen: set[str] = set()
        self._under_cursor: Entry | None = None
        self._sort_notice_timer: Timer | None = None

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        table = PaperTable(id="papers")
        table.show_days = bool(self.session.day.paper_days)  # a multi-day view
        yield TopBar(id="topbar")
        yield Input(placeholder='filter: whole words, "a phrase", prefix*  (esc clears)',
                    id="search")
        yield ColumnHeader(table, id="columns")
        yield table
        yield Preview(id="preview")
        yield FittingFooter(compact=self.app.size.width < self.FOOTER_WIDE)

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(Footer).compact = event.size.width < self.FOOTER_WIDE

    @property
    def reader(self) -> Reader:
        return reader_of(self.app)

    @property
    def table(self) -> PaperTable:
        return self.query_one("#papers", PaperTable)

    @property
    def preview(self) -> Preview:
        return self.query_one("#preview", Preview)

    @property
    def search(self) -> Input:
        return self.query_one("#search", Input)

    @property
    def current(self) -> Entry | None:
        """The paper under the cursor; None while the list is not (or no longer) mounted."""
        tables = self.query("#papers")
        return tables.first(PaperTable).current if tables else None

    def on_mount(self) -> None:
        self.search.display = False
        self.preview.keep_expanded = self.session.config.expand_abstracts
        self._load_marks()
        self._start_following()
        self._start_scoring_on_launch()
        self.start_enrichment()
        self._refilter()
        # focused now, before the first paint (Widget.focus defers it): a key typed as soon as
        # the list shows must reach it
        self.set_focus(self.table)
        self.set_interval(self.SEEN_FLUSH_INTERVAL, self.flush_seen)
        self.post_message(self.Ready(self._notices))

    def on_unmount(self) -> None:
        self.cancel_scoring()
        self.flush_seen()

    def _load_marks(self) -> None:
        """Seen, starred and saved marks from the store."""
        store = self.reader.store
        if store is None:
            return
        for pid, st in store.states(self.by_id).items():
            e = self.by_id.get(pid)
            if e is not None:
                e.seen, e.starred, e.saved, e.bib_key = st.seen, st.starred, st.saved, st.bib_key
        self.show_signals(store)
        self.load_annotations(self.by_id)

    # -- what shows, in which order ---------------------------------------------------------

    def watch_sort_key(self) -> None:
        self._refilter(to_top=True)

    def watch_reverse(self) -> None:
        self._refilter(to_top=True)

    def watch_filters(self) -> None:
        self._refilter()

    def watch_scoring(self) -> None:
        self._show_header()

    def watch_summary(self) -> None:
        self._show_header()

    @property
    def alive(self) -> bool:
        """Composed and attached, and the app is not shutting down."""
        return self.is_attached and not self.reader.quitting and bool(self.children)

    def _refilter(self, *, to_top: bool = False) -> None:
        """Recompute which papers show, in which order. The cursor stays on its paper once
        the user has moved it; until then, and after an explicit re-rank (`to_top`: a sort
        change, a topic switch, a finished scoring run), the top of the ranking shows."""
        if not self.alive:
            return
        self.shown = view(self.entries, self.filters, self.sort_key, self.reverse)
        self.preview.empty_message = self._empty_message()
        self.preview.set_terms(self.filters.terms(), keyword_terms(self.topic.keywords))
        table = self.table
        if to_top:
            table.moved_by_user = False
        table.set_entries(self.shown, to_top=not table.moved_by_user)
        self._show_header()

    def _empty_message(self) -> str:
        if self.entries:
            return NO_MATCH
        day = self.session.day
        if day.source == "loading":
            return one_line(day.label)
        why = " ".join(one_line(n) for n in day.notices)
        return f"No papers in this announcement ({one_line(day.label)}). {why}".strip()

    def show_loading(self) -> None:
        """Repaint what the screen says while its day loads (the app updates the label)."""
        if self.alive:
            self._refilter()
            self.preview.render_entry()

    def header_info(self) -> HeaderInfo:
        counts = {"queued": 0, "scored": 0, "cached": 0, "failed": 0, "unsent": 0,
                  "provisional": 0}
        for e in self.entries:
            if e.status in counts:
                counts[e.status] += 1
            if e.status in PROVISIONAL and e.relevance is not None:
                counts["provisional"] += 1
        day = self.session.day
        return HeaderInfo(
            topic=self.topic.name, day=day.label, flags=tuple(day.flags),
            shown=len(self.shown), total=len(self.entries),
            filters=tuple(self.filters.describe()), sort_key=self.sort_key,
            reverse=self.reverse, scoring=self.scoring, summary=self.summary,
            scorer=self.scorer_label, **counts, **self.triage_counts(),
        )

    def _show_header(self) -> None:
        try:
            self.query_one("#topbar", TopBar).info = self.header_info()
            self.query_one("#columns", ColumnHeader).set_sort(self.sort_key, self.reverse)
        except NoMatches:  # pragma: no cover - before compose, or during shutdown
            pass

    @on(ColumnHeader.SortClicked)
    def _sort_clicked(self, message: ColumnHeader.SortClicked) -> None:
        self._sort(message.key, not self.reverse if message.key == self.sort_key else False)

    def action_list_action(self, name: str) -> None:
        getattr(self.table, f"action_{name}")()

    def action_toggle_abstract(self) -> None:
        self.preview.toggle()

    def action_keep_expanded(self) -> None:
        keep = not self.preview.keep_expanded
        self.preview.set_keep_expanded(keep)
        self.reader.say("Abstracts stay expanded" if keep else "Abstracts collapse again",
                        timeout=2)

    def action_preview_down(self) -> None:
        self.preview.page(down=True)

    def action_preview_up(self) -> None:
        self.preview.page(down=False)

    # -- filters -------------------------------------------------------------------------------

    def action_start_search(self) -> None:
        if isinstance(self.focused, Input):  # a priority binding: "/" typed into a text box
            self.focused.insert_text_at_cursor("/")
            return
        self.search.display = True
        self.run_worker(self._index_for_search, thread=True, exclusive=True, group="index")
        # focus now, not later (Widget.focus defers): keys typed right after "/" are queued
        # already and must land in the search box, not trigger list bindings
        self.set_focus(self.search)

    def _index_for_search(self) -> None:
        """Build every paper's search words off the UI thread while the first word is typed."""
        for e in list(self.entries):
            e.search  # noqa: B018 - computed and kept on first access

    @on(Input.Changed, "#search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.filters = replace(self.filters, text=event.value)

    def action_submit_search(self) -> None:
        """enter in the search box: keep the filter, back to the list (at once, not deferred)."""
        search = self.search
        if self.focused is not search:
            raise SkipAction()
        if not search.value.strip():
            search.display = False
        self.set_focus(self.table)

    def action_clear_search(self) -> None:
        search = self.search
        search.display = False
        if search.value:
            search.value = ""
        self.filters = replace(self.filters, text="")
        self.set_focus(self.table)

    def action_open_filters(self) -> None:
        from paperterm.tui.filters import FilterScreen  # on first use: not on the start path

        def done(state: FilterState | None) -> None:
            if state is not None:
                self.filters = replace(state, text=self.filters.text)

        self.app.push_screen(FilterScreen(self.filters, self.categories), done)

    # -- scoring and topic ------------------------------------------------------------------

    def action_rescore(self) -> None:
        papers = [e.paper for e in self.shown]
        if not papers:
            return
        if self.session.settings.use_llm and self.scoring:
            self.rescore_later(papers)
            return
        if self.session.settings.use_llm:
            self.autoscore = True
            self._score_with_llm(papers, use_cache=True)
            if not self.scoring:
                self.reader.say("Every shown paper already has a score for this topic and "
                                "model.")
            self._refilter()
        else:
            self._score_locally(hint=False)
            self._refilter()
            self.reader.say(ENABLE_LLM_HINT, timeout=6)

    def action_pick_topic(self) -> None:
        from paperterm.config import ConfigError
        from paperterm.topics import all_topics

        try:
            topics = all_topics(self.session.config)
        except ConfigError as exc:
            self.reader.say(str(exc), "error")
            return
        commands = [
            SimpleCommand(one_line(name), partial(self.switch_topic, topic),
                          one_line(topic.description)[:100])
            for name, topic in sorted(topics.items())
        ]
        self.app.search_commands(commands, placeholder="Switch topic…")

    def switch_topic(self, topic: Topic, *, same_day: bool = False) -> None:
        """Score the day against `topic` instead; the current run's late scores are dropped.
        A topic read on other categories first loads this day for them (unless `same_day`)."""
        if not self.alive or (not same_day and self.reader.reload_for_topic(topic)):
            return
        self.cancel_scoring()
        self._rescore_next = []
        self.topic = self.session.topic = self._with_follows(topic)  # kept by later days
        self._mark_followed()
        self.summary = None
        self._pending_scores.clear()
        clear_scores(self.entries)
        if self.session.settings.use_llm:
            self.autoscore = True
            self._score_with_llm([e.paper for e in self.entries], use_cache=True,
                                 prefilter=True)
        else:
            self._score_locally(hint=False)
        self._refilter(to_top=True)
        self.preview.render_entry()
        self.reader.say(f"Topic: {topic.name}", timeout=3)
