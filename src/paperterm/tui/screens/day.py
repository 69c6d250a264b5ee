"""The day view: one loaded announcement as a sortable, filterable list with a preview.

What shows, in which order, and the marks are the day model's (`paperterm.day.model`): the
screen observes it and repaints the list and the header when it changes. The screen's parts
are controllers it holds, each handed the screen as a `DayView` (screens/day_view.py):
`ScoringController` runs the scorers, `PaperActions` stars, marks, saves, copies and opens
papers, `Triage` keeps seen marks, `Filtering`, `SortActions`, `TopicSwitch`, `Follows`,
`Enrichment`, `LibraryActions`, `SummaryActions`, `DayNavigation` and `PreviewKeys` own
their keys.
Textual finds actions and message handlers on the screen: each `action_*` and `on_*` here
is a real method that hands over to the controller owning it (typed: mypy and "go to
definition" follow every key to its code).
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input

from paperterm.day.listing import Entry, FilterState
from paperterm.day.model import DayChange, DayModel
from paperterm.day.session import Session
from paperterm.models import Topic
from paperterm.services.days import DayFailed, DayLoaded
from paperterm.services.scoring import RunSummary
from paperterm.text.textsearch import keyword_terms
from paperterm.tui.bindings import APP_KEYS, bindings
from paperterm.tui.footer import FittingFooter
from paperterm.tui.header import TopBar, day_header, topic_label
from paperterm.tui.host import Reader, reader_of
from paperterm.tui.messages import (
    EnrichmentDone,
    LocalScores,
    ServiceEvent,
    UnsureFound,
    ZoteroDone,
)
from paperterm.tui.paper_list import ColumnHeader, PaperTable
from paperterm.tui.preview import Preview, no_match
from paperterm.tui.screens.day_marks import DayMarks
from paperterm.tui.screens.day_nav import DayNavigation
from paperterm.tui.screens.enrich_actions import Enrichment
from paperterm.tui.screens.filtering import Filtering
from paperterm.tui.screens.follow_actions import Follows
from paperterm.tui.screens.library_actions import LibraryActions
from paperterm.tui.screens.paper_actions import PaperActions
from paperterm.tui.screens.preview_keys import PreviewKeys
from paperterm.tui.screens.quick_triage import QuickTriage
from paperterm.tui.screens.scoring import ScoringController
from paperterm.tui.screens.sorting import SortActions
from paperterm.tui.screens.summary import SummaryActions
from paperterm.tui.screens.topics import TopicSwitch
from paperterm.tui.screens.triage import Triage
from paperterm.tui.screens.unsure import UnsureTriage
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

    class Ready(Message):
        """The screen is up; `notices` are what it has to say at start."""

        def __init__(self, notices: list[tuple[str, str]]) -> None:
            super().__init__()
            self.notices = notices

    def __init__(self, session: Session, *, autoscore: bool = True,
                 focus_id: str | None = None, visit: bool = False) -> None:
        """`focus_id`: the paper the cursor starts on (until the user moves it); `visit`:
        opened from the library, on top of it: esc (with no filter to clear) goes back."""
        super().__init__()
        self.focus_id = focus_id
        self.visit = visit
        self.autoscore = autoscore
        # the day's one owner of its entries, session and topic: the screen observes it
        self.model = DayModel.of_session(session)
        self.notices: list[tuple[str, str]] = []  # said once, when the screen is up
        self.scorer = ScoringController(self)
        self.triage = Triage(self)
        self.papers = PaperActions(self, self.triage, self.scorer)
        self.library = LibraryActions(self, DayScreen)
        self.summaries = SummaryActions(self)
        self.enrichment = Enrichment(self)
        self.follows = Follows(self, self.scorer)
        self.days = DayNavigation(self, DayScreen)
        self.sorting = SortActions(self, self.SORT_NOTICE_DELAY)
        self.filtering = Filtering(self)
        self.topics = TopicSwitch(self, self.follows, self.scorer)
        self.preview_keys = PreviewKeys(self)
        self.day_marks = DayMarks(self)
        self.quick_triage = QuickTriage(self)
        self.unsure = UnsureTriage(self)
        self._mounted = False
        self._stop_observing = self.model.subscribe(self._model_changed)

    # -- the model's state, read where the screen was asked before -------------------------

    @property
    def session(self) -> Session:
        return self.model.session

    @property
    def topic(self) -> Topic:
        return self.model.topic

    @property
    def scoring(self) -> bool:
        """An LLM run is under way (the model's run state)."""
        return self.model.run.scoring

    @property
    def summary(self) -> RunSummary | None:
        return self.model.run.summary

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
        yield Preview(id="preview", topic=lambda: self.model.topic.name)
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
        self._mounted = True  # its widgets are there: model changes may repaint them
        self.search.value = self.model.filters.text  # a filter kept from the day before
        self.search.display = bool(self.model.filters.text)
        self.preview.keep_expanded = self.session.config.expand_abstracts
        self.day_marks.load()
        self.enrichment.show_signals(self.reader.store)
        self.library.load_annotations(self.model.by_id)
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

    def load_dismissed(self) -> None:
        self.day_marks.load_dismissed()

    def reload_keys(self) -> None:
        self.day_marks.reload_keys()

    def flush_seen(self) -> None:
        """Write the papers marked seen since the last flush to the store."""
        self.triage.flush_seen()

    # -- what shows, in which order ---------------------------------------------------------

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
        if "topic" in change.state:  # the preview marks its words
            self._show_terms()
        if change.state:  # the topic, the run: the header says them
            self.show_header()
        if change.reordered:
            self._show_list(to_top=change.resorted)
        elif "score" in change.fields:
            self.marks_changed()  # the rows and the counts
        elif change.ids:
            self.marks_changed()
            current = self.current
            if current is not None and current.id in change.ids \
                    and change.fields & {"note", "tags", "dismissed"}:
                self.preview.render_entry()  # the preview shows them
        if "score" in change.fields:  # the preview says the paper's score and why
            self.preview.render_entry()

    def _show_list(self, *, to_top: bool) -> None:
        # said only of an empty list: a full one's first paper is on its way to the preview
        # (the first paint said "No paper matches the filters" above a full list)
        self.preview.empty_message = "" if self.model.shown else self._empty_message()
        self.table.empty_message = self.preview.empty_message
        self._show_terms()
        table = self.table
        if to_top:
            table.moved_by_user = False
        table.set_entries(self.model.shown, to_top=not table.moved_by_user)
        if self.focus_id is not None and not table.moved_by_user:
            at = next((i for i, e in enumerate(self.model.shown) if e.id == self.focus_id), None)
            if at is not None:
                table.move_to(at)
        self.show_header()

    def _show_terms(self) -> None:
        self.preview.set_terms(self.model.filters.terms(),
                               keyword_terms(self.model.topic.keywords))

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

    def show_header(self) -> None:
        try:
            self.query_one("#topbar", TopBar).info = day_header(
                self.model, self.session.day, topic_label(self.model.topic))
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
        self.preview_keys.toggle_abstract()

    def action_keep_expanded(self) -> None:
        self.preview_keys.keep_expanded()

    def action_preview_down(self) -> None:
        self.preview_keys.page_down()

    def action_preview_up(self) -> None:
        self.preview_keys.page_up()

    def action_zoom_preview(self) -> None:
        self.preview_keys.zoom()

    def action_hide_preview(self) -> None:
        self.preview_keys.hide()

    def action_triage_cards(self) -> None:
        self.quick_triage.open()

    def action_unsure_queue(self) -> None:
        self.unsure.open()

    def on_unsure_found(self, message: UnsureFound) -> None:
        self.unsure.found(message)

    # -- filters (screens/filtering.py) -----------------------------------------------------

    @on(Input.Changed, "#search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.filtering.search_changed(event.value)

    def action_start_search(self) -> None:
        self.filtering.start_search()

    def action_submit_search(self) -> None:
        self.filtering.submit_search()

    def action_clear_search(self) -> None:
        """esc: clear the filter; on a day visited from the library, with nothing to
        clear, back to the results."""
        if self.visit and not self.search.display and not self.model.filters.text:
            self.dismiss(None)
            return
        self.filtering.clear_search()

    def action_open_filters(self) -> None:
        self.filtering.open_filters()

    # -- scoring and topic ------------------------------------------------------------------

    def action_rescore(self) -> None:
        self.scorer.rescore()

    def action_force_rescore(self) -> None:
        self.scorer.force_rescore()

    def action_pick_topic(self) -> None:
        self.topics.pick()

    def switch_topic(self, topic: Topic, *, same_day: bool = False) -> None:
        """Score the day against `topic` instead (see topics.TopicSwitch)."""
        self.topics.switch(topic, same_day=same_day)

    def cancel_scoring(self) -> None:
        """Stop the run under way; whatever it still sends is ignored."""
        self.scorer.cancel()

    # -- the workers' messages (each checked against the job that counts) --------------------

    def on_service_event(self, message: ServiceEvent) -> None:
        """A service's own event: the scoring run's, or a day's fetch (`[`, `]`, `D`, `W`)."""
        match message.event:
            case DayLoaded() | DayFailed():
                self.days.on_service_event(message)
            case _:
                self.scorer.on_service_event(message)

    def on_local_scores(self, message: LocalScores) -> None:
        self.scorer.on_local_scores(message)

    def on_enrichment_done(self, message: EnrichmentDone) -> None:
        self.enrichment.done(message)

    def on_zotero_done(self, message: ZoteroDone) -> None:
        self.papers.zotero_done(message)

    def on_paper_table_cursor_moved(self, message: PaperTable.CursorMoved) -> None:
        if message.table.moved_by_user:
            self.focus_id = None  # the user goes elsewhere: a re-rank shows the top again
        self.triage.cursor_moved(message.table, message.entry)

    def on_screen_resume(self) -> None:
        self.library.resumed()

    # -- the controllers' keys --------------------------------------------------------------

    def action_cycle_sort(self) -> None:
        self.sorting.cycle()

    def action_reverse_sort(self) -> None:
        self.sorting.reverse()

    def action_toggle_star(self) -> None:
        self.papers.toggle_star()

    def action_not_interested(self) -> None:
        self.papers.not_interested()

    def action_toggle_mark(self) -> None:
        self.papers.toggle_mark()

    def action_clear_marks(self) -> None:
        self.papers.clear_marks()

    def action_save_bib(self) -> None:
        self.papers.save_bib()

    def action_copy_bibtex(self) -> None:
        self.papers.copy_bibtex()

    def action_export_as(self) -> None:
        self.papers.export_as()

    def action_send_zotero(self) -> None:
        self.papers.send_zotero()

    def action_open_abs(self) -> None:
        self.papers.open_abs()

    def action_open_pdf(self) -> None:
        self.papers.open_pdf()

    def action_next_unseen(self) -> None:
        self.triage.next_unseen()

    def action_prev_unseen(self) -> None:
        self.triage.prev_unseen()

    def action_seen_above(self) -> None:
        self.triage.seen_above()

    def action_library_search(self) -> None:
        self.library.library_search()

    def action_starred_view(self) -> None:
        self.library.starred_view()

    def action_similar(self) -> None:
        self.library.similar()

    def action_edit_note(self) -> None:
        self.library.edit_note()

    def action_follow_author(self) -> None:
        self.follows.pick_author()

    def action_summarize(self) -> None:
        self.summaries.summarize()

    def action_previous_day(self) -> None:
        self.days.previous_day()

    def action_next_day(self) -> None:
        self.days.next_day()

    def action_jump_day(self) -> None:
        self.days.jump_day()

    def action_this_week(self) -> None:
        self.days.this_week()
