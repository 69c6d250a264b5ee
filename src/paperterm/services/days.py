"""Load a day, once for the CLI and the reader: at once from files and the cache, or fetched
(with the loader's fallbacks: the cached day, the sample) on a thread of its own, reported
as an event.

`open_day` answers what can be shown now; `fetch_day` (in a thread: `fetch_in_background`)
loads what needs the network. The loader (`sources.loader`) decides where papers come from.
`step`, `jump` and `this_week` say which day the reader's `[` / `]`, `D` and `W` open (or
why it stays); `LoadRequest` and `LoadError` are the loader's, named here for the reader.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, NamedTuple

from paperterm.models import Day
from paperterm.sources import daynav
from paperterm.sources.calendar import eastern_today
from paperterm.sources.loader import LoadError, LoadRequest, loading_label

if TYPE_CHECKING:
    from paperterm.day.session import Session
    from paperterm.store import Store, StoreFactory
    from paperterm.store.repositories import Papers

NOTHING_SINCE = daynav.NOTHING_SINCE  # how the loader begins "nothing cached since DAY"

__all__ = ["NOTHING_SINCE", "DayEvent", "DayFailed", "DayLoaded", "LoadError", "LoadRequest",
           "Move", "Opened", "base_request", "cached_day", "day_of_paper", "fetch_day",
           "fetch_in_background", "jump", "loading_label", "open_day", "session_request",
           "step", "this_week"]


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
    loaded here: what was fetched earlier today shows meanwhile (else the most recent cached
    day, else the bundled sample day; an empty "loading" day for a date, a range or a
    search), and `pending` says what to fetch. Raises `LoadError` for a request that cannot
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


# -- the reader's day navigation: which day `[` / `]`, `D` and `W` open -----------------


class Move(NamedTuple):
    """The day to open (`request`; `notice`, if any, said with it), or None: stay, and
    `notice` says why (with its `severity`)."""

    request: LoadRequest | None
    notice: str | None = None
    severity: str = "warning"


def session_request(session: Session, *, topic_categories: bool = False) -> LoadRequest:
    """What `session` loads from: its request, else the config's categories and types (the
    topic's own categories first, with `topic_categories`)."""
    if session.request is not None:
        return session.request
    config = session.config
    categories = (session.topic.categories or config.categories) if topic_categories \
        else config.categories
    return LoadRequest(categories=list(categories), announce_types=list(config.announce_types))


def base_request(session: Session) -> LoadRequest:
    """What the session loads from, reduced to its feed (categories, types, offline)."""
    return replace(session_request(session), feed=None, date=None, query=None, sample=False,
                   since=None, refresh=False, step=0)


def this_week(session: Session) -> LoadRequest:
    """This week's papers of the session's feed, with a day column (`W`)."""
    return replace(base_request(session), since=daynav.week_start(eastern_today()))


def step(store: Store, session: Session, by: int) -> Move:
    """The announcement day `by` steps from the session's (`[`: -1, `]`: 1; weekends and
    known holidays skipped); from a view of several days, `[` opens the latest one."""
    today = eastern_today()
    current = session.day.day
    if current is None:  # a search or a multi-day view: [ goes to the latest day
        if by > 0:
            return Move(None, "This view is not one day: [ opens the latest announcement, D a "
                              "date.")
        current = today + timedelta(days=1)
    if not store.available:
        return Move(None, "No database: days cannot be looked up.", "error")
    base = base_request(session)
    target = daynav.neighbour(store.papers, base.feed_key, current, by, today,
                              offline=base.offline)
    if target.day is None:
        return Move(None, target.notice or "No other announcement day.")
    fetch_today = target.day == today and not target.cached
    return Move(replace(base, date=None if fetch_today else target.day, step=by), target.notice)


def jump(papers: Papers, session: Session, text: str) -> Move:
    """The announcement of a typed date (`D`: YYYY-MM-DD, today, yesterday; see
    `daynav.parse_jump`)."""
    today = eastern_today()
    try:
        day, notice = daynav.parse_jump(text, today)
    except ValueError as exc:
        return Move(None, str(exc), "error")
    base = base_request(session)
    cached = bool(papers.cached_days(base.feed_key, day, day))
    if not cached and base.offline:
        return Move(None, f"Offline: the {day.isoformat()} announcement is not cached.")
    if not cached and papers.empty_days(base.feed_key, day, day):
        return Move(None, f"arXiv announced nothing on {day.isoformat()} (a holiday).")
    return Move(replace(base, date=None if day == today and not cached else day), notice)


# -- arXiv's feed as `paperterm doctor` checks it (issue 29: one door) ----------------------

__all__ += ["arxiv_feed", "arxiv_feed_url"]

if TYPE_CHECKING:
    from paperterm.models import Paper


def arxiv_feed_url(categories: list[str]) -> str:
    """The RSS address of today's announcement for `categories` (PAPERTERM_RSS_URL kept)."""
    from paperterm.sources import rss

    return rss.feed_url(categories)


def arxiv_feed(categories: list[str], *, timeout: float, retries: int) -> list[Paper]:
    """Today's announcement for `categories` from arXiv's RSS feed, fetched once within
    `timeout` (asked again at most `retries` times), not cached; raises what the fetch
    raises."""
    from paperterm.sources import rss

    return rss.fetch_rss(categories, timeout=timeout, retries=retries).papers
