"""Loading a day in the background while the reader is up: the first day when it needs the
network, `R` (fetch today's announcement again) and a topic switch to other categories.

`DayLoader` is a controller the app holds. The fetch is the load-a-day service's
(`services.days.fetch_day`) on a daemon thread with its own store (`q` must not wait for a
hanging network), which posts the service's event (`DayLoaded`, or `DayFailed` and why)
to the app as a `ServiceEvent`; the app hands it here, and the day replaces the day
screen. Meanwhile the empty screen counts the seconds. Whether a fetch may start, and
whether its outcome still counts, is the reader's `DayFetches`' (`services.day_fetch`,
which day navigation shares). The session is immutable: each change is a new one, held by
the app (`reader.session`).
"""

from __future__ import annotations

import dataclasses
import gc
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from paperterm.day.session import Session
from paperterm.models import Day, Topic
from paperterm.tui.host import Reader
from paperterm.tui.screens.day import DayScreen
from paperterm.tui.screens.day_nav import fetch_in_thread

if TYPE_CHECKING:
    import threading

    from textual.app import App
    from textual.timer import Timer

    from paperterm.services.day_fetch import DayFetches
    from paperterm.services.days import LoadRequest
    from paperterm.tui.messages import ServiceEvent


class DayLoader:
    """Background loads of the day for the reader app (`app`, seen as `reader`)."""

    def __init__(self, app: App[Any], reader: Reader, *, autoscore: bool) -> None:
        self.app, self.reader = app, reader
        self.autoscore = autoscore
        self._loading_timer: Timer | None = None  # counts the seconds of a background load
        self._topic_after_load: Topic | None = None  # a topic switch waiting for its day

    @property
    def session(self) -> Session:
        """The app's session (a new one at each change)."""
        return self.reader.session

    @property
    def fetches(self) -> DayFetches:
        """The reader's fetch under way (the one owner of `session.pending`)."""
        return self.reader.fetches

    def _say(self, message: str, severity: str = "information",
             timeout: float | None = None) -> None:
        self.reader.say(message, severity, timeout=timeout)

    def _day_screens(self) -> list[DayScreen]:
        return [s for s in self.app.screen_stack if isinstance(s, DayScreen)]

    def start(self) -> None:
        """Load the day the session is waiting for (`session.pending`)."""
        req = self.session.pending
        assert req is not None
        self._begin(req)

    def _begin(self, req: LoadRequest, *, keep: bool = False) -> bool:
        """Fetch `req` (see `DayFetches.begin`); False: not started."""
        if not self.fetches.begin(req, self._fetch, keep=keep):
            return False
        day = self.session.day
        if day.source == "loading":  # the empty screen counts the seconds meanwhile
            self._loading_timer = self.app.set_interval(
                1.0, partial(self._loading_tick, day, day.label, time.monotonic()))
        return True

    def _fetch(self, req: LoadRequest) -> threading.Thread:
        # a daemon thread, not a Textual worker: `q` must not wait for a hanging network
        return fetch_in_thread(self.app, req, self.session.open_store)

    def _loading_tick(self, day: Day, label: str, since: float) -> None:
        if day is not self.session.day or self.session.pending is None or self.reader.quitting:
            if self._loading_timer is not None:
                self._loading_timer.stop()
                self._loading_timer = None
            return
        day.label = f"{label} {time.monotonic() - since:.0f} s"
        for screen in self._day_screens():
            screen.show_loading()

    def refresh_day(self) -> None:
        """R: fetch today's announcement again (in the background; the list stays usable)."""
        from paperterm.services.days import loading_label

        req = self.session.request
        if self.fetches.busy:
            self._say("Already loading…", timeout=3)
            return
        if req is None or req.feed is not None or req.sample or req.query or req.date:
            self._say("Only today's announcement can be re-fetched (this is a file, the "
                      "sample, a search or a past day).", "warning")
            return
        if req.offline:
            self._say("Offline (--offline): not re-fetching.", "warning")
            return
        if self._begin(dataclasses.replace(req, refresh=True)):
            self._say(loading_label(req).replace("loading", "Re-fetching", 1))

    def reload_for_topic(self, topic: Topic) -> bool:
        """A topic read on other categories: load the shown day for them in the background
        (the list stays usable meanwhile) and score it for `topic`. False: the day stays."""
        from paperterm.services.days import loading_label
        from paperterm.tui.topic_day import reload_for_topic

        req = reload_for_topic(self.session, topic)
        pending = self.fetches.pending
        if pending is not None and self.fetches.kept and self._topic_after_load is not None:
            # a topic switch is loading its day: the latest choice wins if it reads the
            # same categories; otherwise it waits (the thread cannot be called back)
            if req is not None and sorted(req.categories) == sorted(pending.categories):
                self._topic_after_load = topic
                self._say(f"Topic: {topic.name}: {loading_label(req)}")
            else:
                self._say(f"Loading the day for topic {self._topic_after_load.name}; "
                          "switch again when it is up.", "warning")
            return True
        if req is None or pending is not None or not self._begin(req, keep=True):
            return False
        self._topic_after_load = topic
        self._say(f"Topic: {topic.name}: {loading_label(req)}")
        return True

    # -- the thread's outcome -----------------------------------------------------------------

    def on_service_event(self, message: ServiceEvent) -> None:
        """The fetch's outcome (the load-a-day service's event), if from the load that
        counts."""
        from paperterm.services import days

        req = self.fetches.settle(message.worker)  # the fetch is over, nothing pending
        if req is None:  # another fetch counts now, or the reader quits
            return
        match message.event:
            case days.DayLoaded(day=day):
                self.day_loaded(day, req)
            case days.DayFailed(error=error):
                self._failed(error)

    def _failed(self, error: str) -> None:
        self._say(error, "error")
        day = self.session.day
        if day.source == "loading":  # the empty screen says so instead of "loading…"
            day.label = error
            for screen in self._day_screens():
                screen.show_loading()
        topic, self._topic_after_load = self._topic_after_load, None
        if topic is not None:  # the day stays: score it for the topic the user chose
            for screen in self._day_screens():
                screen.switch_topic(topic, same_day=True)

    def day_loaded(self, day: Day, req: LoadRequest | None = None) -> None:
        """Show `day`, loaded for `req` (its fetch settled), instead of the shown one."""
        s = self.session
        topic, self._topic_after_load = self._topic_after_load, None
        if topic is not None:  # marks made from now on are the new topic's
            self.reader.switch_marks_topic(topic.name)
        said = set(s.day.notices)  # said when the shown day came
        if topic is None and _same_cached_day(s.day, day):  # the fetch failed: the shown
            self.reader.update_session(  # day stands, as the user left it
                request=s.request if req is None
                else dataclasses.replace(req, refresh=False))
            for note in dict.fromkeys(day.notices):
                if note not in said:
                    self._say(note, "warning", timeout=10)
            if day.source == "sample":  # a stand-in no longer: scored as any day is
                for screen in self._day_screens():
                    if screen.session.day is s.day:
                        screen.scorer.stand_in_stays()
            return
        if s.day.source == "loading":  # what start-up had to say still stands
            day.notices[:0] = [n for n in s.day.notices if n not in day.notices]
        self.reader.update_session(
            day=day,
            topic=s.topic if topic is None else topic,  # a topic switch: that topic
            request=s.request if req is None else dataclasses.replace(req, refresh=False))
        gc.unfreeze()  # what start-up froze (app.py) includes the screen replaced here
        self.app.switch_screen(DayScreen(self.session, autoscore=self.autoscore))
        for note in dict.fromkeys(day.notices):  # what this load has to say (the sample
            if note not in said:                 # instead of today's papers, say)
                self._say(note, "warning", timeout=10)


def _same_cached_day(shown: Day, loaded: Day) -> bool:
    """Whether a load brought back the cached day (or the bundled sample day, on a first
    start) already on screen (arXiv failed)."""
    return (shown.source == loaded.source and shown.source in ("cache", "sample")
            and shown.day == loaded.day
            and [p.id for p in shown.papers] == [p.id for p in loaded.papers])
