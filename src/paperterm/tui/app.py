"""The reader: `run_tui(session)` shows one loaded day, scored against a topic.

`PapertermApp` keeps what is app-wide (colour themes, the key map, the SQLite store's
lifetime, notices) and hosts the screens: the day view (`screens.day.DayScreen`), the
default screen (composed with the app; another day replaces it), and the dialogs it opens.

Start-up is kept light: the scoring engine (and litellm) is imported only by the worker
that runs an LLM scoring pass, after the list is on screen."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.command import CommandListItem, SimpleProvider
from textual.theme import ThemeProvider
from textual.widget import AwaitMount
from textual.widgets import Input

from paperterm.day.session import HeldSession, Session
from paperterm.models import Topic
from paperterm.services.day_fetch import DayFetches
from paperterm.services.ranking import RankingProcess, ranking_wanted
from paperterm.settings.reader_state import remember_theme
from paperterm.tui.bindings import effective_keys, keymap_problems
from paperterm.tui.commands import PapertermCommands
from paperterm.tui.compat import push_result_callback
from paperterm.tui.day_loading import DayLoader
from paperterm.tui.footer import refit_footers
from paperterm.tui.key_order import handled_by, until_mounted
from paperterm.tui.message_log import MessageLog
from paperterm.tui.messages import MarksRead, ServiceEvent, StoreChanged
from paperterm.tui.notices import NoticeLine
from paperterm.tui.palette import SafeCommandPalette
from paperterm.tui.screens.day import DayScreen
from paperterm.tui.store_watch import StoreWatch
from paperterm.tui.store_writes import Op, StoreWrites
from paperterm.tui.text import one_line
from paperterm.tui.theme_choice import cycle_order, first_theme, start_with_theme
from paperterm.tui.themes import readable_variables, register_themes, score_defaults
from paperterm.tui.workers import DaemonExecutor, current_job, post

if TYPE_CHECKING:
    from textual.timer import Timer

    from paperterm.day.marks import MarkChange
    from paperterm.services.marks import MarksService
    from paperterm.services.storage import Store


TEACHES = frozenset({"starred", "saved", "dismissed"})  # marks the local ranking learns from


class PapertermApp(App[int], inherit_bindings=False):
    """paperterm's reader. `PapertermApp(session).run()` or `run_tui(session)`."""

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "paperterm"
    ENABLE_COMMAND_PALETTE = True
    COMMANDS = App.COMMANDS | {PapertermCommands}
    _theme_chosen = False  # the readable colours wait for the first theme (see __init__)
    # not inherited: Textual's own ctrl+q binding (priority, hidden) hid the footer's Quit
    # when [keys] maps quit to ctrl+q; ctrl+q quits through `hard_quit_keys` instead
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "help_quit", show=False, system=True)]

    def __init__(self, session: Session, *, autoscore: bool = True) -> None:
        super().__init__()
        self.held_session = HeldSession(session)  # changed only through `update_session`
        self.autoscore = autoscore
        self.store: Store  # opened with the first screen (get_default_screen)
        self.marks: MarksService  # every mark, for the current topic; made with the store
        self.said_log = MessageLog()  # every notice of the session (M)
        self.writes = StoreWrites()  # star/seen/saved writes, retried behind a lock
        self.lost_writes: list[str] = []  # those still queued when the reader closed
        self._retry_timer: Timer | None = None
        self.quitting = False  # set by `q`: every later key and click is ignored
        self.hints_given: set[str] = set()  # once per run, whatever day screens follow
        # free-text topics of this session (the one it started with too), offered by `t`
        self.free_topics: dict[str, Topic] = (
            {session.topic.name: session.topic} if session.topic.adhoc else {})
        # local rankings run beside the reader, keys never wait (started by the first one)
        self.ranking: RankingProcess | None = RankingProcess() if ranking_wanted() else None
        self.fetches = DayFetches(self.held_session)  # the one day fetched at a time
        self.loader = DayLoader(self, self, autoscore=autoscore)  # days loaded meanwhile
        self.store_watch = StoreWatch(self, session.open_store)  # other programs' writes
        self._marks_read: object | None = None  # the read of the marks whose result counts
        self._marks_changed = 0  # changes published so far: a read older than one is stale
        self.keymap, key_problems = keymap_problems(dict(session.config.keys))
        keys, _ = effective_keys(self.keymap)
        self.quit_keys = frozenset(keys["quit"].split(","))
        taken = {k for i, ks in keys.items() if i != "quit" for k in ks.split(",")}
        self.hard_quit_keys = frozenset({"ctrl+q"} - taken)  # quit even from a text box
        self.startup_notices: list[tuple[str, str]] = [
            (n, "warning")
            for n in dict.fromkeys([*session.day.notices, *session.notices, *key_problems])
        ]
        self.theme_names, theme_errors = register_themes(self, session.config)
        self.startup_notices += [(err, "error") for err in theme_errors]
        self._theme_chosen = True
        start_with_theme(self, first_theme(self, session, self.theme_names,
                                           self.startup_notices))

    @property
    def session(self) -> Session:
        """The session later days open with (each day's own is its model's)."""
        return self.held_session.session

    def update_session(self, **changes: Any) -> Session:
        return self.held_session.update(**changes)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return score_defaults(self.current_theme)

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables, every text colour made readable (tui/themes.py: 4.5:1 or
        better in truecolor and 256 colours); also kept as `theme_variables`, as Textual does."""
        if not self._theme_chosen:  # App.__init__ asks first, for its default theme: unused
            return {}
        variables = super().get_css_variables()  # Textual's `theme_variables`: updated in place
        variables.update(readable_variables(variables, self.current_theme.dark))
        return variables

    def get_default_screen(self) -> DayScreen:
        """The day's screen, the bottom of the stack, composed with the app (pushed from
        `on_mount`, its first frame was thrown away: a twelfth of the time to the first
        paint). Opens the store it reads its marks from."""
        self._open_store()
        screen = DayScreen(self.session, autoscore=self.autoscore)
        # as `push_screen` leaves it: `switch_screen` (another day) pops this callback
        push_result_callback(screen, self)
        return screen

    def pop_screen(self) -> AwaitComplete:
        """Close the screen on top, never the day itself: a second close queued behind the
        first (keys typed fast) pops nothing."""
        if len(self.screen_stack) <= 1:
            return AwaitComplete.nothing()
        return super().pop_screen()

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        if self.session.pending is not None:
            if self.session.day.source != "loading":  # the cached (or sample) day shows
                from paperterm.services.days import loading_label

                label = loading_label(self.session.pending)
                self.say(label.replace("loading", "Re-fetching" if self.session.day.source
                                       == "cache" else "Loading", 1))
            self.loader.start()

    def on_day_screen_ready(self, message: DayScreen.Ready) -> None:
        for text, severity in [*self.startup_notices, *message.notices]:
            self.say(text, severity, timeout=10)
        self.startup_notices = []
        if self.store.available and not self.store_watch.started:  # after the first paint
            self.store_watch.start()  # another program's marks show without a key
        if not gc.isenabled():  # turned off for start-up (cli/reader.py): on after the paint
            self.call_after_refresh(_collect_from_now_on)

    # -- loading a day in the background (see day_loading.DayLoader) ---------------------

    def action_refresh_day(self) -> None:
        """R: fetch today's announcement again (in the background; the list stays usable)."""
        self.loader.refresh_day()

    def reload_for_topic(self, topic: Topic) -> bool:
        """Load the shown day for `topic`'s categories in the background; False: it stays."""
        return self.loader.reload_for_topic(topic)

    def on_service_event(self, message: ServiceEvent) -> None:
        """A day's fetch reports (the load-a-day service's event, see DayLoader)."""
        self.loader.on_service_event(message)

    # -- marks ----------------------------------------------------------------------------

    def apply_marks(self, changes: Sequence[MarkChange]) -> None:
        """Marks changed (the marks service publishes every change, whichever screen made
        it): every open day shows them at once, and ranks again from a mark that teaches
        its ranking (a star, a save, not interested), wherever it was given."""
        self._marks_changed += 1
        teaches = any(c.field in TEACHES for c in changes)
        for screen in self.screen_stack:
            if isinstance(screen, DayScreen):
                screen.model.apply_marks(changes)
                if teaches:
                    screen.scorer.relearn()
        # undo shows once there is a mark to take back (recorded after the change is out)
        self.call_later(refit_footers, list(self.screen_stack))

    def _flush_seen(self) -> list[DayScreen]:
        """Every open day writes its waiting seen marks; returns the open days."""
        days = [s for s in self.screen_stack if isinstance(s, DayScreen)]
        for screen in days:
            screen.flush_seen()
        return days

    def switch_marks_topic(self, name: str) -> None:
        """Marks made from now on are `name`'s; every open day's waiting seen marks first go
        under the topic they were read under."""
        self._flush_seen()
        self.marks.switch_topic(name)

    def on_app_focus(self, event: events.AppFocus) -> None:
        """Back in the reader: marks another program set meanwhile (a CLI run) show."""
        self._reload_marks(self._flush_seen())  # the seen marks of this run go first

    def on_store_changed(self, message: StoreChanged) -> None:
        """Another connection wrote to the database (tui/store_watch.py): a star given in
        another shell shows within a second, without a key. The open days' marks are read
        on a worker thread with its own connection (5,000 papers' marks took tens of ms,
        and the reader's own writer thread counts as another connection)."""
        if message.worker is not self.store_watch.thread or not self.store.available:
            return
        ids = [pid for s in self.screen_stack if isinstance(s, DayScreen)
               for pid in s.model.by_id]
        if ids:
            self._marks_read = self.run_worker(
                partial(self._read_marks, ids, self.marks.topic, self._marks_changed),
                name="marks-read",
                group="marks-read", exclusive=True, thread=True, exit_on_error=False)

    def _read_marks(self, ids: list[str], topic: str, changed: int) -> None:
        """On a worker thread: the marks of `ids` as the database has them, posted back."""
        from paperterm.services.marks import read_marks
        from paperterm.services.storage import open_or_unavailable

        store = open_or_unavailable(self.session.open_store)
        try:
            fresh = read_marks(store, ids, topic) if store.available else None
        finally:
            store.close()
        if fresh is not None:
            post(self, MarksRead(current_job(), topic, fresh, changed))

    def _reload_marks(self, days: list[DayScreen]) -> None:
        """The open days' marks read again at once (back in the reader: rare)."""
        if not self.store.available or self.writes.pending:  # the store would undo marks
            return
        self.marks.reload([pid for screen in days for pid in screen.model.by_id])
        for screen in days:
            screen.reload_keys()

    def on_marks_read(self, message: MarksRead) -> None:
        """Show what another program changed (the marks service publishes the differences)
        unless a newer read is under way, the topic changed, a mark was made since the read
        began (its commit brings a read of its own), or our own writes wait (the store would
        undo them)."""
        if (message.worker is not self._marks_read or message.topic != self.marks.topic
                or message.changed != self._marks_changed
                or self.writes.pending or not self.store.available):
            return
        self.marks.reload(list(message.fresh), message.fresh)
        for screen in self.screen_stack:
            if isinstance(screen, DayScreen):
                screen.reload_keys()

    def action_undo(self) -> None:
        """ctrl+z: take back the last star, unstar, not interested or "mark all above seen",
        and say what was undone."""
        self._flush_seen()  # seen marks waiting for their batch go first
        undone = self.marks.undo()
        refit_footers(self.screen_stack)
        if undone is None:
            self.say("Nothing to undo.", timeout=3)
            return
        self.say(undone, timeout=5)  # its reverse change went through apply_marks

    # -- notices --------------------------------------------------------------------------

    def say(self, message: str, severity: str = "information",
            timeout: float | None = None) -> None:
        """A one-line notice; never parsed as markup (file names and errors are untrusted)."""
        self.notify(one_line(message), severity=severity,
                    timeout=timeout, markup=False)

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A notice goes to the screen's header line (`NoticeLine`), where it covers
        nothing; a screen without one shows it as a toast. A screen just put up (a day
        loaded meanwhile) has no header line yet: the notice waits for it."""
        self.said_log.add(message if not markup else Text.from_markup(message).plain,
                          str(severity))
        screen = self.screen if self.screen_stack else None
        if screen is not None and not screen.is_mounted:
            screen.call_later(self._show_notice, message, title, severity, timeout, markup)
        else:
            self._show_notice(message, title, severity, timeout, markup)

    def _show_notice(self, message: str, title: str, severity: Any, timeout: float | None,
                     markup: bool) -> None:
        lines = self.screen.query(NoticeLine) if self.screen_stack else None
        if not lines:
            super().notify(message, title=title, severity=severity, timeout=timeout,
                           markup=markup)
            return
        text = message if not markup else Text.from_markup(message).plain
        lines.first().notice(text, str(severity),
                             self.NOTIFICATION_TIMEOUT if timeout is None else timeout)

    # -- the store ------------------------------------------------------------------------

    def _open_store(self) -> None:
        """Open the store and the marks service over it (for the session's topic; its
        writes wait behind another program's lock, `write_store`)."""
        from paperterm.services import storage
        from paperterm.services.marks import MarksService

        self.store, problem = storage.open_database(self.session.db_path)
        if problem is not None:
            self.startup_notices.append((f"{problem} Stars and seen marks will not be kept.",
                                         "error"))
        elif self.store.notice:
            self.startup_notices.append((self.store.notice, "warning"))
        self.marks = MarksService(self.store, self.session.topic.name, write=self.write_store)
        self.marks.subscribe(self.apply_marks)

    def write_store(self, what: str, op: Op) -> bool:
        """Run a write (`what`: "star 2602.20191") now, or in the background while another
        program holds the database's lock; the user is told if it cannot be done, and False
        says so to the marks service (which then shows no mark as made)."""
        if not self.store.available:
            self.say(f"Not saved: {what} ({self.store.problem or 'no database'}); this "
                     "session keeps no marks.", "error")
            return False
        error = self.writes.run(self.store, what, op)
        if error is not None:  # not a lock: the database went away or is read-only
            self.say(f"{error}. Stars and seen marks will not be kept.", "error")
            self.drop_store(error)
            return False
        if self.writes.pending and self._retry_timer is None:
            self.say("The database is locked by another program; paperterm keeps trying "
                     "to save your marks", "warning")
            self._retry_timer = self.set_interval(1.0, self._retry_writes)
        return True

    def _retry_writes(self) -> None:
        if self.store.available:
            for message in self.writes.retry(self.store):
                self.say(message, "error")
        if (not self.store.available or not self.writes.pending) \
                and self._retry_timer is not None:
            self._retry_timer.stop()
            self._retry_timer = None

    def drop_store(self, problem: str = "the database went away") -> None:
        """The database went away: carry on without it (marks are no longer kept)."""
        from paperterm.services.storage import unavailable

        self.store = unavailable(problem)
        self.marks.store = self.store  # it reads what it shows from the stand-in now

    def on_unmount(self) -> None:
        from paperterm.services.marks import MarksService
        from paperterm.services.storage import unavailable

        self._stop_ranking()
        self.store_watch.stop()
        # the screens are unmounted first: they have written what they had to
        if self.writes.pending and self.store.available:  # one last try, a moment's wait
            self.writes.busy_wait = 0.5
            self.writes.retry(self.store)
        self.lost_writes = self.writes.clear()  # still behind a lock: said on the way out
        with contextlib.suppress(Exception):  # not opened when the app failed to start
            self.store.close()
        # a day screen closing late (its day replaced as `q` came) writes to nothing, not
        # through the app's writes to the closed store (kept closed: `app.store.closed`)
        if getattr(self, "marks", None) is not None:  # none when the app failed to start
            self.marks = MarksService(unavailable("the reader has closed"),
                                      self.marks.topic)

    # -- app-wide actions -----------------------------------------------------------------

    def theme_cycle(self) -> list[str]:
        """Theme names in the order T cycles through them: ours, then Textual's."""
        return cycle_order(self.theme_names, self.available_themes)

    def action_cycle_theme(self) -> None:
        names = self.theme_cycle()
        i = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(i + 1) % len(names)]
        self.say(f"Theme: {self.theme}", timeout=2)
        problem = remember_theme(self.theme, self.session.config.theme)
        if problem:
            self.say(problem, "warning")

    def action_show_messages(self) -> None:
        from paperterm.tui.message_log import MessageLogScreen

        self.push_screen(MessageLogScreen(self.said_log))

    def action_show_help(self) -> None:
        from paperterm.tui.help import HelpScreen  # (imported when first opened: 1.4 ms)
        self.push_screen(HelpScreen(self.keymap))

    async def action_quit(self) -> None:
        self.quitting = True
        self.fetches.cancel()  # a day fetched from now on is not shown
        self._stop_ranking()
        self.exit(0)

    def _stop_ranking(self) -> None:
        """Stop the ranking process: a ranking under way ends at once (with nothing)."""
        if self.ranking is not None:
            self.ranking.close()

    async def on_event(self, event: events.Event) -> None:
        # keys typed after `q` are queued already: they must not open screens or run actions
        # on a reader that is shutting down
        if self.quitting and isinstance(event, events.InputEvent):
            return
        if (isinstance(event, events.Key) and not event.is_forwarded and (
                event.key in self.hard_quit_keys
                or (event.key in self.quit_keys and self._quit_key_quits()))):
            # decided here, in typing order: the focused widget's queue may still hold keys
            # that move focus (a `/` typed after `q` must not swallow the quit)
            await self.action_quit()
            return
        if not isinstance(event, events.Key) or event.is_forwarded:
            await super().on_event(event)
            return
        if not self.screen_stack:  # shutting down
            return
        await until_mounted(self.screen)
        target = self.focused or self.screen
        await super().on_event(event)
        await handled_by(target)

    def _quit_key_quits(self) -> bool:
        """The quit key quits on every screen unless a text box has the focus."""
        return bool(self.screen_stack) and not isinstance(self.focused, Input)

    def action_command_palette(self) -> None:
        # Textual types `is_open`'s app as App[object]; any App works
        if self.use_command_palette and not SafeCommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(SafeCommandPalette(id="--command-palette"))

    def search_commands(self, commands: Sequence[CommandListItem],
                        placeholder: str = "Search for commands…") -> AwaitMount:
        # a provider instance, as Textual's own search_commands passes (its type says a class)
        provider = SimpleProvider(self.screen, list(commands))
        return self.push_screen(SafeCommandPalette(
            providers=[provider], placeholder=placeholder))  # type: ignore[list-item]

    def search_themes(self) -> None:
        # the palette's "Theme" command: Textual would push its own, unguarded palette, where
        # a PageDown typed before it is laid out raises KeyError inside OptionList
        self.push_screen(SafeCommandPalette(providers=[ThemeProvider],
                                            placeholder="Search for themes…"))


def _collect_from_now_on() -> None:
    # what start-up built lives as long as the first day is shown: never scanned again (a
    # day loaded later unfreezes it, so that the screen it replaces can be collected)
    gc.freeze()
    gc.enable()


def run_tui(session: Session) -> int:
    """Run the reader until the user quits. Returns the exit code."""
    app = PapertermApp(session)
    loop = asyncio.new_event_loop()
    loop.set_default_executor(DaemonExecutor())
    asyncio.set_event_loop(loop)
    try:
        result = app.run(loop=loop)
    finally:
        with contextlib.suppress(Exception):
            loop.run_until_complete(loop.shutdown_asyncgens())
        asyncio.set_event_loop(None)
        loop.close()
    for line in app.lost_writes:  # said after the terminal is restored, where it stays
        print(f"paperterm: not saved (the database stayed locked by another program): "
              f"{line}", file=sys.stderr)
    if app.return_code not in (None, 0):
        return app.return_code
    return result or 0


__all__ = ["PapertermApp", "run_tui"]
