"""The reader's fetch of a day (`services.day_fetch.DayFetches`) without Textual: one at a
time, and only the outcome of the fetch under way counts (not one given up for another
day, nor one arriving while the reader quits)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from paperterm.day.session import HeldSession, Session
from paperterm.models import Day, Topic
from paperterm.services.day_fetch import DayFetches
from paperterm.services.days import LoadRequest
from paperterm.settings import ScoringSettings
from paperterm.settings.config import Config

TODAY = LoadRequest(categories=["cs.LG", "cs.AI"], announce_types=["new", "cross"])
PAST = replace(TODAY, date=date(2026, 2, 24))


def _session(pending: LoadRequest | None = None) -> Session:
    day = Day(papers=[], label="2026-02-25", day=date(2026, 2, 25), source="cache")
    return Session(config=Config(), day=day, topic=Topic(name="moe", description="experts"),
                   settings=ScoringSettings(), db_path=Path("unused.sqlite3"),
                   bib_path=Path("unused.bib"), pending=pending)


class Starts:
    """A `start` that fetches nothing: records each request, returns a new job for it."""

    def __init__(self) -> None:
        self.started: list[tuple[LoadRequest, object]] = []

    def __call__(self, req: LoadRequest) -> object:
        job = object()
        self.started.append((req, job))
        return job

    @property
    def last(self) -> object:
        return self.started[-1][1]


@pytest.fixture
def held() -> HeldSession:
    return HeldSession(_session())


@pytest.fixture
def told(held: HeldSession) -> list[Session]:
    sessions: list[Session] = []
    held.subscribe(sessions.append)
    return sessions


def test_a_fetch_begins_pending_and_a_second_waits_until_it_is_in(held, told):
    fetches, start = DayFetches(held), Starts()
    assert not fetches.busy and fetches.begin(TODAY, start)
    assert fetches.pending is TODAY and held.session.pending is TODAY and fetches.busy
    assert [s.pending for s in told] == [TODAY]  # one change, told once
    assert not fetches.begin(PAST, start) and not fetches.begin(TODAY, start)
    assert [r for r, _ in start.started] == [TODAY] and fetches.pending is TODAY
    assert fetches.settle(start.last) is TODAY and not fetches.busy
    assert fetches.begin(PAST, start) and fetches.pending is PAST  # once in: the next one


def test_what_start_up_left_pending_is_fetched_without_a_change():
    held = HeldSession(_session(pending=TODAY))
    told: list[Session] = []
    held.subscribe(told.append)
    fetches, start = DayFetches(held), Starts()
    assert fetches.busy and not fetches.begin(PAST, start)  # start-up's comes first
    assert fetches.begin(TODAY, start) and start.started == [(TODAY, start.last)]
    assert held.session.pending is TODAY and told == []
    assert not fetches.begin(TODAY, start)  # under way: not a second time


def test_a_result_after_the_reader_moved_on_is_ignored(held):
    fetches, start = DayFetches(held), Starts()
    fetches.begin(TODAY, start)
    hanging = start.last
    assert fetches.abandon() and not fetches.busy  # the user went to another day
    assert fetches.begin(PAST, start)
    assert fetches.settle(hanging) is None  # today's comes in late: dropped
    assert fetches.pending is PAST  # the day asked for since is still awaited
    assert fetches.settle(start.last) is PAST and fetches.pending is None


def test_a_failure_clears_pending_once(held, told):
    fetches, start = DayFetches(held), Starts()
    fetches.begin(TODAY, start)
    job = start.last
    assert fetches.settle(job) is TODAY  # the fetch failed: the caller says why
    assert held.session.pending is None and [s.pending for s in told] == [TODAY, None]
    assert fetches.settle(job) is None and len(told) == 2  # its event again: nothing


def test_another_jobs_event_changes_nothing(held, told):
    fetches, start = DayFetches(held), Starts()
    assert fetches.settle(object()) is None and fetches.settle(None) is None  # none under way
    fetches.begin(TODAY, start)
    assert fetches.settle(object()) is None  # a scoring worker's, say
    assert fetches.pending is TODAY and len(told) == 1


def test_quitting_drops_late_results_and_starts_nothing(held, told):
    fetches, start = DayFetches(held), Starts()
    fetches.begin(TODAY, start)
    fetches.cancel()
    assert fetches.settle(start.last) is None  # the day came while the reader closes
    assert not fetches.begin(PAST, start) and len(start.started) == 1
    assert len(told) == 1  # the session is left as it was


def test_a_kept_fetch_is_not_given_up_for_another_day(held):
    fetches, start = DayFetches(held), Starts()
    assert fetches.begin(TODAY, start, keep=True) and fetches.kept
    assert not fetches.abandon() and fetches.pending is TODAY  # a topic switch waits for it
    assert fetches.settle(start.last) is TODAY and not fetches.kept
    fetches.begin(PAST, start)
    assert not fetches.kept and fetches.abandon() and fetches.pending is None


def test_abandoning_with_nothing_under_way_changes_nothing(held, told):
    fetches = DayFetches(held)
    assert fetches.abandon() and told == []
