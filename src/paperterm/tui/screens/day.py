"""The day view: one loaded announcement as a sortable, filterable list with a preview.

What shows, in which order, and the marks are the day model's (`paperterm.daymodel`): the
screen observes it and repaints the list and the header when it changes. The screen's parts
are controllers it holds, each handed the screen as a `DayView` (screens/day_view.py):
`ScoringController` runs the scorers, `PaperActions` stars, marks, saves, copies and opens
papers, `Triage` keeps seen marks, `Filtering`, `SortActions`, `TopicSwitch`, `Follows`,
`Enrichment`, `LibraryActions`, `SummaryActions` and `DayNavigation` own their keys.
Textual finds actions and message handlers on the screen: each `action_*` and `on_*` here
hands over in one line (`day_view.action`, `day_view.handler`).
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer, Input

from paperterm.daymodel import DayChange, DayModel
from paperterm.listing import PROVISIONAL, Entry, FilterState
from paperterm.models import Topic
from paperterm.scoring.types import RunSummary
from paperterm.session import Session
from paperterm.textsearch import keyword_terms
from paperterm.tui.footer import FittingFooter
from paperterm.tui.header import HeaderInfo, TopBar
from paperterm.tui.host import Reader, reader_of
from paperterm.tui.keys import APP_KEYS, bindings
from paperterm.tui.paper_list import ColumnHeader, PaperTable
from paperterm.tui.preview import Preview, no_match
from paperterm.tui.screens.day_nav import DayNavigation
from paperterm.tui.screens.day_view import action, handler
from paperterm.tui.screens.enrich_actions import Enrichment
from paperterm.tui.screens.filtering import Filtering
from paperterm.tui.screens.follow_actions import Follows
from paperterm.tui.screens.library_actions import LibraryActions
from paperterm.tui.screens.paper_actions import PaperActions
from paperterm.tui.screens.scoring import ScoringController
from paperterm.tui.screens.sorting import SortActions
from paperterm.tui.screens.summary import SummaryActions
from paperterm.tui.screens.topics import TopicSwitch
from paperterm.tui.screens.triage import Triage
from paperterm.tui.text import one_line


class DayScreen(Screen[None]):
    """The paper list, the preview, the header line and the search box for one day."""

    BINDINGS: ClassVar[list[BindingType]] = [
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
        self.model = DayModel.of_papers(session.day.papers, session.day.paper_days)
        self.notices: list[tuple[str, str]] = []  # said once, when the screen is up
        self.scorer = ScoringController(self)
        self.triage = Triage(self)
        self.papers = PaperActions(self, self.triage, self.scorer)
        self.library = LibraryActions(self)
        self.summaries = SummaryActions(self)
        self.enrichment = Enrichment(self)
        self.follows = Follows(self, self.scorer)
        self.days = DayNavigation(self, DayScreen)
        self.sorting = SortActions(self, self.SORT_NOTICE_DELAY)
        self.filtering = Filtering(self)
        self.topics = TopicSwitch(self, self.follows, self.scorer)
        self._mounted = False
        self._stop_observing = self.model.subscribe(self._model_changed)

    # -- the model's state, read where the screen was asked before -------------------------

    @property
    def entries(self) -> list[Entry]:
        return self.model.entries

    @property
    def by_id(self) -> dict[str, Entry]:
        return self.model.by_id

    @property
    def shown(self) -> list[Entry]:
        return self.model.shown

    @property
    def sort_key(self) -> str:
        return self.model.sort_key

    @property
    def reverse(self) -> bool:
        return self.model.reverse

    @property
    def filters(self) -> FilterState:
        return self.model.filters

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
        footer = FittingFooter(compact=self.app.size.width < self.FOOTER_WIDE)
        footer.hidden = self._footer_hides
        yield footer

    def _footer_hides(self, action: str) -> bool:
        """Undo shows in the footer once there is a mark to take back."""
        return action == "app.undo" and not self.reader.marks.can_undo

    def refit_footer(self) -> None:
        """What the footer offers may have changed (a mark given or undone)."""
        for footer in self.query(FittingFooter):
            footer.refit()

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
        self._mounted = True  # its widgets are there: model changes may repaint them
        self.search.display = False
        self.preview.keep_expanded = self.session.config.expand_abstracts
        self.preview.topic = self.topic.name
        self._load_marks()
        self.follows.start()
        self.scorer.start_on_launch()
        self.enrichment.start()
        self.refilter()
        # focused now, before the first paint (Widget.focus defers it): a key typed as soon as
        # the list shows must reach it
        self.set_focus(self.table)
        self.set_interval(self.SEEN_FLUSH_INTERVAL, self.flush_seen)
        self.post_message(self.Ready(self.notices))

    def on_unmount(self) -> None:
        # no longer observed first: its widgets are going while its last seen marks are
        # published (to the other open days), and repainting them raised NoMatches
        self._mounted = False
        self._stop_observing()
        self.scorer.cancel()
        self.flush_seen()

    def _load_marks(self) -> None:
        """Seen, starred and saved marks from the store."""
        store = self.reader.store
        by_id = self.model.by_id
        for pid, st in store.marks.states(by_id).items():
            e = by_id.get(pid)
            if e is not None:
                e.seen, e.starred, e.saved, e.bib_key = st.seen, st.starred, st.saved, st.bib_key
        self.load_dismissed()
        self.enrichment.show_signals(store)
        self.library.load_annotations(by_id)

    def load_dismissed(self) -> None:
        """Which papers are marked "not interested" under the screen's topic."""
        try:
            dismissed = self.reader.store.marks.dismissed_ids(self.topic.name)
        except Exception:  # an unreadable store loses only the trace of the marks
            dismissed = set()
        for e in self.model.entries:
            e.dismissed = e.id in dismissed
        self.preview.topic = self.topic.name

    def reload_keys(self) -> None:
        """The citation keys of the saved papers as the store has them (after the marks
        service re-read the marks: another program may have saved some)."""
        by_id = self.model.by_id
        for pid, st in self.reader.store.marks.states(by_id).items():
            e = by_id.get(pid)
            if e is not None and e.saved:
                e.bib_key = st.bib_key

    def flush_seen(self) -> None:
        """Write the papers marked seen since the last flush to the store."""
        self.triage.flush_seen()

    # -- what shows, in which order ---------------------------------------------------------

    def watch_scoring(self) -> None:
        self.show_header()

    def watch_summary(self) -> None:
        self.show_header()

    @property
    def alive(self) -> bool:
        """Mounted with its list still there, attached, and the app is not shutting down.
        Marks published while this screen was still composing, or while it and another day
        were being removed together (Textual removes the widgets before the screen's
        unmount), reached it with no list to repaint."""
        return (self._mounted and self.is_attached and not self.reader.quitting
                and bool(self.query("#papers")))

    def refilter(self, *, to_top: bool = False) -> None:
        """Recompute which papers show, in which order. The cursor stays on its paper once
        the user has moved it; until then, and after an explicit re-rank (`to_top`: a sort
        change, a topic switch, a finished scoring run), the top of the ranking shows."""
        if self.alive:
            self.model.refilter(resorted=to_top)

    def _model_changed(self, change: DayChange) -> None:
        if not self.alive:
            return
        if change.reordered:
            self._show_list(to_top=change.resorted)
        elif change.ids:
            self.marks_changed()
            current = self.current
            if current is not None and current.id in change.ids \
                    and change.fields & {"note", "tags", "dismissed"}:
                self.preview.render_entry()  # the preview shows them

    def _show_list(self, *, to_top: bool) -> None:
        self.preview.empty_message = self._empty_message()
        self.table.empty_message = self.preview.empty_message
        self.preview.set_terms(self.model.filters.terms(), keyword_terms(self.topic.keywords))
        table = self.table
        if to_top:
            table.moved_by_user = False
        table.set_entries(self.model.shown, to_top=not table.moved_by_user)
        self.show_header()

    def marks_changed(self) -> None:
        """Seen, star or mark flags changed in place: repaint the rows and the counts."""
        self.table.refresh_entries()
        self.show_header()

    def _empty_message(self) -> str:
        if self.model.entries:
            return no_match(self.model.filters)
        day = self.session.day
        if day.source == "loading":
            return one_line(day.label)
        why = " ".join(one_line(n) for n in day.notices)
        return f"No papers in this announcement ({one_line(day.label)}). {why}".strip()

    def show_loading(self) -> None:
        """Repaint what the screen says while its day loads (the app updates the label)."""
        if self.alive:
            self.refilter()
            self.preview.render_entry()

    def header_info(self) -> HeaderInfo:
        counts = {"queued": 0, "scored": 0, "cached": 0, "failed": 0, "unsent": 0,
                  "provisional": 0}
        model = self.model
        for e in model.entries:
            if e.status in counts:
                counts[e.status] += 1
            if e.status in PROVISIONAL and e.relevance is not None:
                counts["provisional"] += 1
        day = self.session.day
        return HeaderInfo(
            topic=self.topic.name, day=day.label, flags=tuple(day.flags),
            shown=len(model.shown), total=len(model.entries),
            filters=tuple(model.filters.describe()), sort_key=model.sort_key,
            reverse=model.reverse, scoring=self.scoring, summary=self.summary,
            scorer=model.scorer_label, **counts, **model.triage_counts(),
        )

    def show_header(self) -> None:
        try:
            self.query_one("#topbar", TopBar).info = self.header_info()
            self.query_one("#columns", ColumnHeader).set_sort(self.model.sort_key,
                                                              self.model.reverse)
        except NoMatches:  # pragma: no cover - before compose, or during shutdown
            pass

    @on(ColumnHeader.SortClicked)
    def _sort_clicked(self, message: ColumnHeader.SortClicked) -> None:
        self.sorting.clicked(message.key)

    def action_list_action(self, name: str) -> None:
        getattr(self.table, f"action_{name}")()

    def action_toggle_abstract(self) -> None:
        self.preview.toggle()

    def action_keep_expanded(self) -> None:
        keep = not self.preview.keep_expanded
        self.preview.set_keep_expanded(keep)
        self.reader.say("Abstracts stay expanded" if keep else "Abstracts collapse again",
                        timeout=2)

    def action_zoom_preview(self) -> None:
        """z: the preview takes the height, the list shrinks to its cursor row (again:
        back)."""
        zoom = not self.has_class("-zoom")
        self.set_class(zoom, "-zoom")
        self.remove_class("-no-preview")
        self.call_after_refresh(self.table.move_to, self.table.cursor)  # keep it in sight

    def action_hide_preview(self) -> None:
        """h: hide the preview, the list takes its height (again: show it)."""
        hide = not self.has_class("-no-preview")
        self.set_class(hide, "-no-preview")
        self.remove_class("-zoom")
        if not hide:
            self.preview.render_entry()

    def action_triage_cards(self) -> None:
        """v: quick triage, one card per unseen paper shown (screens/cards.py)."""
        from paperterm.tui.screens.cards import TriageCards

        deck = [e for e in self.model.shown if not e.seen]
        if not deck:
            self.reader.say("No unseen paper in the list to triage (f filters, u finds "
                            "unseen papers, esc clears the search)", timeout=5)
            return
        current = self.current
        start = deck.index(current) if current in deck else 0
        self.app.push_screen(TriageCards(self, deck, start), self._cards_closed)

    def _cards_closed(self, last: Entry | None) -> None:
        """Back from the cards: the list's cursor on the last card's paper."""
        if last is None or not self.alive:
            return
        shown = self.model.shown
        if last in shown:
            self.table.moved_by_user = True
            self.table.move_to(shown.index(last))

    def action_preview_down(self) -> None:
        self.preview.page(down=True)

    def action_preview_up(self) -> None:
        self.preview.page(down=False)

    # -- filters (screens/filtering.py) -----------------------------------------------------

    @on(Input.Changed, "#search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.filtering.search_changed(event.value)

    action_start_search = action("filtering", "start_search")
    action_submit_search = action("filtering", "submit_search")
    action_clear_search = action("filtering", "clear_search")
    action_open_filters = action("filtering", "open_filters")

    # -- scoring and topic ------------------------------------------------------------------

    action_rescore = action("scorer", "rescore")
    action_force_rescore = action("scorer", "force_rescore")

    action_pick_topic = action("topics", "pick")

    def switch_topic(self, topic: Topic, *, same_day: bool = False) -> None:
        """Score the day against `topic` instead (see topics.TopicSwitch)."""
        self.topics.switch(topic, same_day=same_day)

    def cancel_scoring(self) -> None:
        """Stop the run under way; whatever it still sends is ignored."""
        self.scorer.cancel()

    # -- the workers' messages (each checked against the job that counts) --------------------

    on_scores_arrived = handler("scorer", "on_scores_arrived")
    on_scoring_progress = handler("scorer", "on_scoring_progress")
    on_scoring_failed = handler("scorer", "on_scoring_failed")
    on_scoring_finished = handler("scorer", "on_scoring_finished")
    on_local_scores = handler("scorer", "on_local_scores")
    on_enrichment_done = handler("enrichment", "done")
    on_zotero_done = handler("papers", "zotero_done")
    on_day_fetched = handler("days", "fetched")
    on_day_fetch_failed = handler("days", "failed")

    def on_paper_table_cursor_moved(self, message: PaperTable.CursorMoved) -> None:
        self.triage.cursor_moved(message.table, message.entry)

    def on_screen_resume(self) -> None:
        self.library.resumed()

    # -- the controllers' keys --------------------------------------------------------------

    action_cycle_sort = action("sorting", "cycle")
    action_reverse_sort = action("sorting", "reverse")
    action_toggle_star = action("papers", "toggle_star")
    action_not_interested = action("papers", "not_interested")
    action_toggle_mark = action("papers", "toggle_mark")
    action_clear_marks = action("papers", "clear_marks")
    action_save_bib = action("papers", "save_bib")
    action_copy_bibtex = action("papers", "copy_bibtex")
    action_export_as = action("papers", "export_as")
    action_send_zotero = action("papers", "send_zotero")
    action_open_abs = action("papers", "open_abs")
    action_open_pdf = action("papers", "open_pdf")
    action_next_unseen = action("triage", "next_unseen")
    action_prev_unseen = action("triage", "prev_unseen")
    action_seen_above = action("triage", "seen_above")
    action_library_search = action("library", "library_search")
    action_starred_view = action("library", "starred_view")
    action_similar = action("library", "similar")
    action_edit_note = action("library", "edit_note")
    action_follow_author = action("follows", "pick_author")
    action_summarize = action("summaries", "summarize")
    action_previous_day = action("days", "previous_day")
    action_next_day = action("days", "next_day")
    action_jump_day = action("days", "jump_day")
    action_this_week = action("days", "this_week")
