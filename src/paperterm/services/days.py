"""Load a day, once for the CLI and the reader: at once from files and the cache, or fetched
(with the loader's fallbacks: the cached day, the sample) on a thread of its own, reported
as an event.

`open_day` answers what can be shown now; `fetch_day` (in a thread: `fetch_in_background`)
loads what needs the network. The loader (`sources.loader`) decides where papers come from.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from paperterm.models import Day

if TYPE_CHECKING:
    from paperterm.sources.loader import LoadRequest
    from paperterm.store import Store, StoreFactory


class Opened(NamedTuple):
    """What to show now, and what is still to be fetched in the background (None: `day`
    is the day asked for)."""

    day: Day
    pending: LoadRequest | None = None


class DayLoaded(NamedTuple):
    """The day `request` asked for (or the loader's fallback, which its notices explain)."""

    request: LoadRequest
    day: Day


class DayFailed(NamedTuple):
    """Loading `request` failed; `error` is the one line to show."""

    request: LoadRequest
    error: str


DayEvent = DayLoaded | DayFailed
OnDayEvent = Callable[[DayEvent], None]


def open_day(req: LoadRequest, store: Store, *, defer_network: bool = False) -> Opened:
    """The day `req` asks for. With `defer_network`, a day that needs the network is not
    loaded here: what was fetched earlier today shows meanwhile (else an empty "loading"
    day), and `pending` says what to fetch. Raises `LoadError` for a request that cannot
    be loaded (a broken --feed file)."""
    from paperterm.sources import loader

    if defer_network and not loader.loads_without_network(req, store):
        shown = (loader.cached_while_fetching(req, store)
                 or Day([], loader.loading_label(req), req.date, "loading"))
        return Opened(shown, req)
    return Opened(loader.load_day(req, store))


def cached_day(req: LoadRequest, store: Store) -> Day | None:
    """The day `req` asks for when it loads from files and the cache alone, else None
    (fetch it). Raises `LoadError` or OSError for one that cannot be read."""
    from paperterm.sources import loader

    if not loader.loads_without_network(req, store):
        return None
    return loader.load_day(req, store)


def fetch_day(req: LoadRequest, open_store: StoreFactory, on_event: OnDayEvent) -> None:
    """Load `req` with a store of its own from `open_store` (call it on a worker thread) and
    report the outcome as one event; never raises."""
    from paperterm.sources.loader import NotFetched, load_day_at

    try:
        day = load_day_at(req, open_store)
    except NotFetched as exc:  # a step with nowhere to go: its own words
        on_event(DayFailed(req, str(exc)))
        return
    except Exception as exc:
        on_event(DayFailed(req, f"could not load the day: {exc}"))
        return
    on_event(DayLoaded(req, day))


def fetch_in_background(req: LoadRequest, open_store: StoreFactory, on_event: OnDayEvent,
                        ) -> threading.Thread:
    """`fetch_day` on a daemon thread (quitting never waits for a hanging network), which
    is returned: `on_event` is called on it."""
    thread = threading.Thread(target=fetch_day, args=(req, open_store, on_event),
                              name="paperterm-day", daemon=True)
    thread.start()
    return thread


def day_of_paper(req: LoadRequest, store: Store, paper_id: str, day: str) -> Day:
    """The announcement day a cached paper belongs to (`day`: its day as the library has
    it, YYYY-MM-DD), from the cache alone: that day of `req`'s feed when the paper is in
    it, else every paper cached as announced that day (the paper always among them)."""
    from dataclasses import replace
    from datetime import date

    from paperterm.sources import loader
    from paperterm.store import Selection

    try:
        when: date | None = date.fromisoformat(day)
    except (TypeError, ValueError):
        when = None
    if when is not None and store.papers.day_papers(req.feed_key, when):
        own = replace(req, date=when, feed=None, query=None, since=None, sample=False,
                      refresh=False)
        loaded = loader.load_day(own, store)
        if any(p.id == paper_id for p in loaded.papers):
            return loaded
    papers = [p for p, _ in store.library.library_papers(Selection(day=when))] if when else []
    if all(p.id != paper_id for p in papers):
        papers = [*store.library.cached_papers([paper_id]).values(), *papers]
    return Day(papers, when.isoformat() if when else paper_id, when, "cache")
