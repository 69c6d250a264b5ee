"""Load a day once (issue 19, item 1): the service the CLI's start and both of the reader's
background loads (the first day, `R`, a topic switch; `[`/`]`/`D`/`W`) call."""

from __future__ import annotations

import threading
from datetime import date

from paperterm.services import days
from paperterm.sources.loader import LoadRequest
from paperterm.store import Store, opener


def _req(**kw) -> LoadRequest:  # type: ignore[no-untyped-def]
    return LoadRequest(categories=["cs.LG", "cs.AI"], announce_types=["new", "cross"], **kw)


def test_a_day_that_needs_the_network_is_left_pending_when_deferred(isolated_home):
    isolated_home.home.mkdir(parents=True)
    store = Store.open(isolated_home.db)
    try:
        deferred = days.open_day(_req(), store, defer_network=True)
        # nothing cached: the bundled sample day shows while today's is fetched (issue 32)
        assert deferred.pending == _req() and deferred.day.source == "sample"
        assert deferred.day.notices[0].startswith("showing the bundled sample day")
        past = days.open_day(_req(date=date(2026, 2, 3)), store, defer_network=True)
        assert past.pending == _req(date=date(2026, 2, 3)) and past.day.source == "loading"
        assert days.cached_day(_req(), store) is None
        now = days.open_day(_req(), store)  # arXiv unreachable: the loader's fallback
        assert now.pending is None and now.day.source == "sample" and now.day.notices
        sample = days.open_day(_req(sample=True), store, defer_network=True)
        assert sample.pending is None and sample.day.papers
    finally:
        store.close()


def test_a_fetch_reports_one_event_from_its_own_thread(isolated_home, tmp_path):
    isolated_home.home.mkdir(parents=True)
    got: list[days.DayEvent] = []
    done = threading.Event()

    def on_event(event: days.DayEvent) -> None:
        got.append(event)
        done.set()

    days.fetch_in_background(_req(offline=True), opener(isolated_home.db), on_event)
    assert done.wait(30)
    (loaded,) = got
    assert isinstance(loaded, days.DayLoaded) and loaded.request == _req(offline=True)
    assert loaded.day.papers  # offline and nothing cached: the sample, said so
    broken = tmp_path / "broken.xml"
    broken.write_text("not a feed")
    got.clear()
    days.fetch_day(_req(feed=broken), opener(isolated_home.db), got.append)
    (failed,) = got
    assert isinstance(failed, days.DayFailed)
    assert failed.error.startswith("could not load the day:") and "broken.xml" in failed.error
