"""Day navigation in the reader, a mixin of `DayScreen`: `[` / `]` the previous / next
announcement day (weekends and known holidays skipped), `D` a date to jump to, `W` this
week's papers with a day column. A cached day opens at once; a missing one is fetched in the
background (offline: the reader says it is not cached and stays where it is)."""

from __future__ import annotations

import contextlib
import threading
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from paperterm.sources import daynav
from paperterm.sources.calendar import eastern_today

if TYPE_CHECKING:
    from paperterm.models import Day
    from paperterm.session import Session
    from paperterm.sources.loader import LoadRequest
    from paperterm.tui.host import Reader


def base_request(session: Session) -> LoadRequest:
    """What the session loads from, reduced to its feed (categories, types, offline)."""
    from paperterm.sources.loader import LoadRequest

    req = session.request
    if req is None:
        req = LoadRequest(categories=list(session.config.categories),
                          announce_types=list(session.config.announce_types))
    return replace(req, feed=None, date=None, query=None, sample=False, since=None,
                   refresh=False)


class JumpDialog(ModalScreen[str | None]):
    """Asks for a date: YYYY-MM-DD, today or yesterday (enter opens it, esc cancels)."""

    DEFAULT_CSS = """
    JumpDialog { align: center middle; }
    #jump-box { width: 64; max-width: 100%; height: auto; border: round $primary;
                background: $surface; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[Binding]] = [Binding("escape", "cancel", "Cancel")]

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


class DayNavigation:
    session: Session
    autoscore: bool

    @property
    def reader(self) -> Reader: ...  # provided by DayScreen

    # -- the keys ---------------------------------------------------------------------------

    def action_previous_day(self) -> None:
        self._step(-1)

    def action_next_day(self) -> None:
        self._step(1)

    def action_jump_day(self) -> None:
        def chosen(text: str | None) -> None:
            if text is not None and text.strip():
                self.jump_to(text)

        self.reader.push_screen(JumpDialog(), chosen)

    def action_this_week(self) -> None:
        base = base_request(self.session)
        self.open_day(replace(base, since=daynav.week_start(eastern_today())))

    # -- where to go ------------------------------------------------------------------------

    def _step(self, step: int) -> None:
        reader, store = self.reader, self.reader.store
        today = eastern_today()
        current = self.session.day.day
        if current is None:  # a search or a multi-day view: [ goes to the latest day
            if step > 0:
                reader.say("This view is not one day: [ opens the latest announcement, D a "
                           "date.", "warning")
                return
            current = today + timedelta(days=1)
        if store is None:
            reader.say("No database: days cannot be looked up.", "error")
            return
        base = base_request(self.session)
        target = daynav.neighbour(store, base.feed_key, current, step, today,
                                  offline=base.offline)
        if target.day is None:
            reader.say(target.notice or "No other announcement day.", "warning")
            return
        fetch_today = target.day == today and not target.cached
        self.open_day(replace(base, date=None if fetch_today else target.day), target.notice)

    def jump_to(self, text: str) -> None:
        """Open the announcement of a typed date (see daynav.parse_jump)."""
        reader, store = self.reader, self.reader.store
        today = eastern_today()
        try:
            day, notice = daynav.parse_jump(text, today)
        except ValueError as exc:
            reader.say(str(exc), "error")
            return
        base = base_request(self.session)
        cached = store is not None and bool(store.cached_days(base.feed_key, day, day))
        if not cached and base.offline:
            reader.say(f"Offline: the {day.isoformat()} announcement is not cached.", "warning")
            return
        if not cached and store is not None and store.empty_days(base.feed_key, day, day):
            reader.say(f"arXiv announced nothing on {day.isoformat()} (a holiday).", "warning")
            return
        self.open_day(replace(base, date=None if day == today and not cached else day), notice)

    # -- opening a day ----------------------------------------------------------------------

    def open_day(self, req: LoadRequest, notice: str | None = None) -> None:
        """Show the day `req` loads: at once from the cache, else fetched in the background."""
        from paperterm.sources import loader

        reader = self.reader
        if reader.session.pending is not None:
            reader.say("Already loading…", timeout=3)
            return
        store = reader.store
        if store is not None and loader.loads_without_network(req, store):
            try:
                day = loader.load_day(req, store)
            except (loader.LoadError, OSError) as exc:
                reader.say(str(exc), "error")
                return
            self._show(req, day, notice)
            return
        reader.session.pending = req
        reader.say(loader.loading_label(req), timeout=5)
        threading.Thread(target=self._fetch, args=(req, notice), name="paperterm-day",
                         daemon=True).start()

    def _fetch(self, req: LoadRequest, notice: str | None) -> None:
        """In a thread (its own store): load the day, then show it on the UI thread."""
        from paperterm.sources.loader import load_day_at

        reader = self.reader
        try:
            day = load_day_at(req, self.session.db_path)
        except Exception as exc:
            with contextlib.suppress(Exception):
                reader.call_from_thread(self._failed, f"could not load the day: {exc}")
            return
        with contextlib.suppress(Exception):  # the reader may have quit meanwhile
            reader.call_from_thread(self._show, req, day, notice)

    def _failed(self, message: str) -> None:
        self.reader.session.pending = None
        self.reader.say(message, "error")

    def _show(self, req: LoadRequest, day: Day, notice: str | None) -> None:
        reader = self.reader
        s = reader.session
        s.pending = None
        if reader.quitting:
            return
        s.day, s.request = day, req
        while not isinstance(reader.screen, DayNavigation) and len(reader.screen_stack) > 1:
            reader.pop_screen()
        reader.switch_screen(type(self)(s, autoscore=self.autoscore))  # type: ignore[call-arg]
        for text in dict.fromkeys([notice, *day.notices]):
            if text:
                reader.say(text, "warning", timeout=8)

