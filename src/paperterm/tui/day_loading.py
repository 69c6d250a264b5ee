"""Loading a day in the background while the reader is up: the first day when it needs the
network, `R` (fetch today's announcement again) and a topic switch to other categories.

A mixin of `PapertermApp`. The fetch runs on a daemon thread with its own store (`q` must
not wait for a hanging network); the day arrives through `call_from_thread` and replaces
the day screen. Meanwhile the empty screen counts the seconds.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import threading
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
        # a daemon thread, not a Textual worker: `q` must not wait for a hanging network
        threading.Thread(target=self._load_in_thread, name="paperterm-load",
                         daemon=True).start()
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
        self.session.pending = dataclasses.replace(req, refresh=True)
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
        self.session.pending = req
        self.say(f"Topic: {topic.name}: {loading_label(req)}")
        self._start_loading()
        return True

    # -- the thread and its outcome ---------------------------------------------------------

    def _load_in_thread(self) -> None:
        """Fetch the day the session is waiting for (its own store: one per thread)."""
        from paperterm.sources.loader import load_day_at

        req = self.session.pending
        assert req is not None
        try:
            day = load_day_at(req, self.session.open_store)
        except Exception as exc:
            with contextlib.suppress(Exception):
                self.call_from_thread(self._load_failed, f"could not load the day: {exc}")
            return
        with contextlib.suppress(Exception):  # the reader may have quit meanwhile
            self.call_from_thread(self._day_loaded, day)

    def _load_failed(self, message: str) -> None:
        self.session.pending = None
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
        req = self.session.pending
        topic, self._topic_after_load = self._topic_after_load, None
        if topic is not None:  # a topic switch: that topic
            self.session.topic = topic
        said = set(self.session.day.notices)  # said when the shown day came
        if self.session.day.source == "loading":  # what start-up had to say still stands
            day.notices[:0] = [n for n in self.session.day.notices if n not in day.notices]
        if req is not None:
            self.session.request = dataclasses.replace(req, refresh=False)
        self.session.day = day
        self.session.pending = None
        gc.unfreeze()  # what start-up froze (app.py) includes the screen replaced here
        self.switch_screen(DayScreen(self.session, autoscore=self.autoscore))
        for note in dict.fromkeys(day.notices):  # what this load has to say (the sample
            if note not in said:                 # instead of today's papers, say)
                self.say(note, "warning", timeout=10)
