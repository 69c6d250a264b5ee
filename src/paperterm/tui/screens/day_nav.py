"""Day navigation in the reader, a controller of the day screen: `[` / `]` the previous / next
announcement day (weekends and known holidays skipped), `D` a date to jump to, `W` this
week's papers with a day column. A cached day opens at once; a missing one is fetched in the
background (offline: the reader says it is not cached and stays where it is). When a step's
fetch fails, the nearest cached day further that way opens instead, said so; with none, the
reader stays. A move keeps the filter and the sort. Whether a fetch may start, and whether
its outcome still counts, is the reader's `DayFetches`' (`services.day_fetch`), shared with
the app's day loader."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label

from paperterm.services import days
from paperterm.tui.messages import ServiceEvent
from paperterm.tui.screens.day_view import DayController
from paperterm.tui.workers import Target, current_job, post

if TYPE_CHECKING:
    from paperterm.models import Day
    from paperterm.services.days import LoadRequest
    from paperterm.services.storage import StoreFactory
    from paperterm.tui.screens.day_view import DayView


class JumpDialog(ModalScreen[str | None]):
    """Asks for a date: YYYY-MM-DD, today or yesterday (enter opens it, esc cancels)."""

    DEFAULT_CSS = """
    JumpDialog { align: center middle; }
    #jump-box { width: 64; max-width: 100%; height: auto; border: round $primary;
                background: $surface; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="jump-box"):
            yield Label("Go to the announcement of (YYYY-MM-DD, today, yesterday):")
            yield Input(placeholder="2026-02-25", id="jump-date")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class DayNavigation(DayController):
    """The day keys of the day screen (a controller it holds). `screen_class` makes the
    screen of another day: `screen_class(session, autoscore=...)`."""

    def __init__(self, view: DayView, screen_class: type[Screen[Any]]) -> None:
        super().__init__(view)
        self.screen_class = screen_class
        self._notice: str | None = None  # what the move to that day had to say

    # -- the keys ---------------------------------------------------------------------------

    def previous_day(self) -> None:
        self._step(-1)

    def next_day(self) -> None:
        self._step(1)

    def jump_day(self) -> None:
        def chosen(text: str | None) -> None:
            if text is not None and text.strip():
                self.jump_to(text)

        self.view.app.push_screen(JumpDialog(), chosen)

    def this_week(self) -> None:
        self.open_day(days.this_week(self.session))

    # -- where to go ------------------------------------------------------------------------

    def _step(self, step: int) -> None:
        self._go(days.step(self.view.reader.store, self.session, step))

    def jump_to(self, text: str) -> None:
        """Open the announcement of a typed date (see `services.days.jump`)."""
        self._go(days.jump(self.view.reader.store.papers, self.session, text))

    def _go(self, move: days.Move) -> None:
        if move.request is None:
            self.view.reader.say(move.notice or "", move.severity)
            return
        self.open_day(move.request, move.notice)

    # -- opening a day ----------------------------------------------------------------------

    def open_day(self, req: LoadRequest, notice: str | None = None) -> None:
        """Show the day `req` loads: at once from the cache, else fetched in the background
        (the load-a-day service, `services.days`)."""
        reader = self.view.reader
        fetches = reader.fetches
        # a fetch under way (today's, hanging, say) gives way to the day asked for now
        if fetches.busy and not fetches.abandon():
            reader.say("Loading the day for the topic chosen; go to another day when it is "
                       "up.", timeout=3)
            return
        store = reader.store
        if store.available:
            try:
                day = days.cached_day(req, store)
            except (days.LoadError, OSError) as exc:
                reader.say(str(exc), "error")
                return
            if day is not None:
                self._show(req, day, notice)
                return
        if not fetches.begin(req, self._fetch):
            return
        reader.say(days.loading_label(req), timeout=5)
        self._notice = notice

    def _fetch(self, req: LoadRequest) -> threading.Thread:
        return fetch_in_thread(self.view, req, self.view.reader.session.open_store)

    def on_service_event(self, message: ServiceEvent) -> None:
        """The fetch's outcome (the load-a-day service's event), if from the fetch that
        counts."""
        if self.view.reader.fetches.settle(message.worker) is None:  # the fetch is over
            return  # another fetch counts now, or the reader quits
        match message.event:
            case days.DayLoaded(request=req, day=day):
                self._show(req, day, self._notice)
            case days.DayFailed(error=error):
                self.view.reader.say(error, "error")

    def _show(self, req: LoadRequest, day: Day, notice: str | None) -> None:
        reader, app = self.view.reader, self.view.app
        if reader.quitting:  # (a cached day too: nothing opens while the reader closes)
            return
        if req.since is not None and not day.papers:  # an empty week: the day shown stays
            reader.say(_empty_week(req.since, [notice, *day.notices]), "warning", timeout=8)
            return
        s = reader.update_session(day=day, request=replace(req, step=0))
        # down to the reader's own day: a day visited from the library goes too
        while len(app.screen_stack) > 1 and (not isinstance(app.screen, self.screen_class)
                                             or getattr(app.screen, "visit", False)):
            app.pop_screen()
        screen = self.screen_class(s, autoscore=self.view.autoscore)  # type: ignore[call-arg, arg-type]
        if req.since is None:  # another day: the same filter and sort (a week has its own)
            here, there = self.view.model, screen.model  # type: ignore[attr-defined]
            there.filters = here.filters
            there.sort_key, there.reverse = here.sort_key, here.reverse
        app.switch_screen(screen)
        for text in dict.fromkeys([notice, *day.notices]):
            if text:
                reader.say(text, "warning", timeout=8)


def _empty_week(since: date, notices: list[str | None]) -> str:
    """What `W` with nothing this week says, once: the loader's own notices (a day that
    could not be fetched, "No cached papers since ..." with the latest cached day) after
    "Nothing this week:", and that the day shown stays (it repeated "no papers since ..."
    in its own words before the loader's)."""
    said = [n for n in dict.fromkeys(notices) if n]
    if not any(n.startswith(days.NOTHING_SINCE) for n in said):
        said.append(f"{days.NOTHING_SINCE} {since.isoformat()}.")
    return f"Nothing this week: {' '.join(said)} The day shown stays."


def fetch_in_thread(target: Target, req: LoadRequest, open_store: StoreFactory,
                    ) -> threading.Thread:
    """Load the day `req` asks for on a daemon thread (the load-a-day service's `fetch_day`,
    its own store; `q` never waits for a hanging network) and post its event to `target`
    as a `ServiceEvent` of that thread, which is returned."""
    def report(event: days.DayEvent) -> None:  # in the thread
        post(target, ServiceEvent(current_job(), event))

    return days.fetch_in_background(req, open_store, report)
