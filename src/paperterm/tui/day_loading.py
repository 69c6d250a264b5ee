"""Loading a day in the background while the reader is up: the first day when it needs the
network, `R` (fetch today's announcement again) and a topic switch to other categories.

A mixin of `PapertermApp`. The fetch is the load-a-day service's (`services.days`: a daemon
thread with its own store, so `q` never waits for a hanging network); its event arrives
through `call_from_thread` and the day replaces the day screen. Meanwhile the empty screen
counts the seconds. The session is immutable: each change is a new one, held by the app.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from paperterm.models import Day, Topic
from paperterm.session import Session
from paperterm.tui.screens.day import DayScreen

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.timer import Timer

    from paperterm.services.days import DayEvent


class DayLoading:
    """Background loads of the day for `PapertermApp`."""

    # provided by PapertermApp
    session: Session
    autoscore: bool
    quitting: bool
    screen_stack: list[Screen[Any]]
    say: Callable[..., None]
    set_interval: Callable[..., Timer]
    call_from_thread: Callable[..., Any]
    switch_screen: Callable[..., Any]

    _loading_timer: Timer | None = None  # counts the seconds of a background load
    _topic_after_load: Topic | None = None  # a topic switch waiting for its day

    def _start_loading(self) -> None:
        from paperterm.services.days import fetch_in_background

        req = self.session.pending
        assert req is not None
        # a daemon thread, not a Textual worker: `q` must not wait for a hanging network
        fetch_in_background(req, self.session.open_store, self._on_day_event)
        day = self.session.day
        if day.source == "loading":  # the empty screen counts the seconds meanwhile
            self._loading_timer = self.set_interval(
                1.0, partial(self._loading_tick, day, day.label, time.monotonic()))

    def _loading_tick(self, day: Day, label: str, since: float) -> None:
        if day is not self.session.day or self.session.pending is None or self.quitting:
            if self._loading_timer is not None:
                self._loading_timer.stop()
                self._loading_timer = None
            return
        day.label = f"{label} {time.monotonic() - since:.0f} s"
        for screen in self.screen_stack:
            if isinstance(screen, DayScreen):
                screen.show_loading()

    def action_refresh_day(self) -> None:
        """R: fetch today's announcement again (in the background; the list stays usable)."""
        from paperterm.sources.loader import loading_label

        req = self.session.request
        if self.session.pending is not None:
            self.say("Already loading…", timeout=3)
            return
        if req is None or req.feed is not None or req.sample or req.query or req.date:
            self.say("Only today's announcement can be re-fetched (this is a file, the "
                     "sample, a search or a past day).", "warning")
            return
        if req.offline:
            self.say("Offline (--offline): not re-fetching.", "warning")
            return
        self.session = dataclasses.replace(
            self.session, pending=dataclasses.replace(req, refresh=True))
        self.say(loading_label(req).replace("loading", "Re-fetching", 1))
        self._start_loading()

    def reload_for_topic(self, topic: Topic) -> bool:
        """A topic read on other categories: load the shown day for them in the background
        (the list stays usable meanwhile) and score it for `topic`. False: the day stays."""
        from paperterm.sources.loader import loading_label
        from paperterm.tui.topic_day import reload_for_topic

        req = reload_for_topic(self.session, topic)
        pending = self.session.pending
        if pending is not None and self._topic_after_load is not None:
            # a topic switch is loading its day: the latest choice wins if it reads the
            # same categories; otherwise it waits (the thread cannot be called back)
            if req is not None and sorted(req.categories) == sorted(pending.categories):
                self._topic_after_load = topic
                self.say(f"Topic: {topic.name}: {loading_label(req)}")
            else:
                self.say(f"Loading the day for topic {self._topic_after_load.name}; "
                         "switch again when it is up.", "warning")
            return True
        if req is None or pending is not None:
            return False
        self._topic_after_load = topic
        self.session = dataclasses.replace(self.session, pending=req)
        self.say(f"Topic: {topic.name}: {loading_label(req)}")
        self._start_loading()
        return True

    # -- the thread and its outcome ---------------------------------------------------------

    def _on_day_event(self, event: DayEvent) -> None:
        """In the fetch's thread: its outcome, handed to the UI thread."""
        with contextlib.suppress(Exception):  # the reader may have quit meanwhile
            self.call_from_thread(self._day_event, event)

    def _day_event(self, event: DayEvent) -> None:
        from paperterm.services.days import DayLoaded

        if isinstance(event, DayLoaded):
            self._day_loaded(event.day)
        else:
            self._load_failed(event.error)

    def _load_failed(self, message: str) -> None:
        self.session = dataclasses.replace(self.session, pending=None)
        self.say(message, "error")
        day = self.session.day
        if day.source == "loading":  # the empty screen says so instead of "loading…"
            day.label = message
            for screen in self.screen_stack:
                if isinstance(screen, DayScreen):
                    screen.show_loading()
        topic, self._topic_after_load = self._topic_after_load, None
        if topic is not None:  # the day stays: score it for the topic the user chose
            for screen in self.screen_stack:
                if isinstance(screen, DayScreen):
                    screen.switch_topic(topic, same_day=True)

    def _day_loaded(self, day: Day) -> None:
        if self.quitting:
            return
        s = self.session
        req = s.pending
        topic, self._topic_after_load = self._topic_after_load, None
        said = set(s.day.notices)  # said when the shown day came
        if s.day.source == "loading":  # what start-up had to say still stands
            day.notices[:0] = [n for n in s.day.notices if n not in day.notices]
        self.session = dataclasses.replace(
            s, day=day, pending=None,
            topic=s.topic if topic is None else topic,  # a topic switch: that topic
            request=s.request if req is None else dataclasses.replace(req, refresh=False))
        gc.unfreeze()  # what start-up froze (app.py) includes the screen replaced here
        self.switch_screen(DayScreen(self.session, autoscore=self.autoscore))
        for note in dict.fromkeys(day.notices):  # what this load has to say (the sample
            if note not in said:                 # instead of today's papers, say)
                self.say(note, "warning", timeout=10)
