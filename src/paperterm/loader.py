"""Decide where the day's papers come from: file, cache, arXiv RSS/API, or the bundled sample."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from datetime import date
from importlib import resources
from pathlib import Path

from paperterm import net
from paperterm.feeds import FeedError, ParsedFeed, parse_feed
from paperterm.models import Day, Paper
from paperterm.store import Store

EMPTY_RETRY_SECONDS = 3600
SAMPLE_NAME = "sample-2026-02-25.xml"
WEEKEND = "arXiv does not announce on Saturdays and Sundays"
HOLIDAY = "arXiv made no announcement today (an arXiv holiday?)"


class LoadError(Exception):
    """The user asked for something that cannot be loaded (e.g. a broken --feed file)."""


@dataclass
class LoadRequest:
    categories: list[str]
    announce_types: list[str]
    feed: Path | None = None
    date: date | None = None
    query: str | None = None
    sample: bool = False
    offline: bool = False
    max_results: int = 200
    timeout: float = net.TIMEOUT

    @property
    def feed_key(self) -> str:
        return "+".join(sorted(self.categories))


def sample_bytes() -> bytes:
    return resources.files("paperterm").joinpath("data", SAMPLE_NAME).read_bytes()


def load_day(req: LoadRequest, store: Store) -> Day:
    """Load what the request asks for; never raises for network trouble (falls back instead)."""
    if req.feed is not None:
        day = _from_file(req.feed, store)
    elif req.sample:
        day = _sample(store)
    elif req.query:
        day = _query(req, store)
    elif req.date:
        day = _past_day(req, store)
    else:
        day = _today(req, store)
    return _filtered(day, req.announce_types)


def _filtered(day: Day, announce_types: list[str]) -> Day:
    if day.source == "query":
        return day
    kept = [p for p in day.papers if p.announce_type in announce_types]
    hidden = len(day.papers) - len(kept)
    if hidden:
        day.notices.append(
            f"{hidden} announcement(s) of other types hidden (config announce_types = "
            f"{announce_types})."
        )
    return replace(day, papers=kept)


def _parse_file(path: Path) -> ParsedFeed:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"{path}: cannot read feed ({exc.strerror})") from None
    try:
        return parse_feed(data)
    except FeedError as exc:
        raise LoadError(f"{path}: not a readable arXiv feed: {exc}") from None


def _skipped_notice(parsed: ParsedFeed, where: str) -> list[str]:
    if not parsed.skipped:
        return []
    first = "; ".join(parsed.skipped[:3])
    return [f"{where}: {len(parsed.skipped)} item(s) could not be read ({first})"]


def _from_file(path: Path, store: Store) -> Day:
    parsed = _parse_file(path)
    # a day saved from rss.arxiv.org is the same announcement a live fetch would cache: file it
    # under the same key, so `--date` and the weekend fallback find it later
    key = "+".join(sorted(parsed.categories)) if parsed.categories else f"file:{path.name}"
    store.save_day(key, parsed.day, parsed.papers, source="feed")
    label = parsed.day.isoformat() if parsed.day else path.name
    notices = _skipped_notice(parsed, str(path))
    if not parsed.papers:
        notices.append(f"{path}: the feed has no papers (weekend or holiday edition?).")
    return Day(parsed.papers, label, parsed.day, "feed", notices=notices)


def _sample(store: Store, why: str | None = None) -> Day:
    parsed = parse_feed(sample_bytes())
    store.save_day("sample", parsed.day, parsed.papers, source="sample")
    label = parsed.day.isoformat() if parsed.day else "sample"
    shown = f"showing the bundled sample day ({label}), not today's papers."
    notice = f"{why.rstrip('.')}: {shown}" if why else shown[0].upper() + shown[1:]
    return Day(parsed.papers, label, parsed.day, "sample", notices=[notice])


def _cached_or_sample(req: LoadRequest, store: Store, why: str) -> Day:
    latest = store.latest_day(req.feed_key)
    if latest is not None:
        papers = store.day_papers(req.feed_key, latest)
        return Day(papers, latest.isoformat(), latest, "cache",
                   approximate=store.is_approximate(req.feed_key, latest),
                   notices=[f"{why.rstrip('.')}: showing the most recent cached day, "
                            f"{latest.isoformat()}."])
    return _sample(store, why)


def _today(req: LoadRequest, store: Store) -> Day:
    today = net.eastern_today()
    record = store.fetch_record(req.feed_key, today)
    if record is not None:  # fetched earlier today: no network at all
        if record["day"]:
            d = date.fromisoformat(record["day"])
            return Day(store.day_papers(req.feed_key, d), d.isoformat(), d, "cache")
        # an empty feed: final on weekends; on a weekday ask again after a while, since
        # arXiv may have announced late
        recent = time.time() - record["fetched_at"] < EMPTY_RETRY_SECONDS
        if today.weekday() >= 5 or recent or req.offline:
            return _cached_or_sample(req, store, _empty_reason(today))
    if req.offline:
        return _cached_or_sample(req, store, "Offline")
    try:
        parsed = net.fetch_rss(req.categories, timeout=req.timeout)
    except net.NetworkError as exc:
        return _cached_or_sample(req, store, str(exc))
    if not parsed.papers:
        store.save_day(req.feed_key, None, [], source="rss", fetched_for=today)
        return _cached_or_sample(req, store, _empty_reason(today))
    day = parsed.day or today
    store.save_day(req.feed_key, day, parsed.papers, source="rss", fetched_for=today)
    return Day(parsed.papers, day.isoformat(), day, "rss",
               notices=_skipped_notice(parsed, "RSS feed"))


def _empty_reason(today: date) -> str:
    return WEEKEND if today.weekday() >= 5 else HOLIDAY


def _past_day(req: LoadRequest, store: Store) -> Day:
    assert req.date is not None
    papers = store.day_papers(req.feed_key, req.date)
    if papers:
        approx = store.is_approximate(req.feed_key, req.date)
        return Day(papers, req.date.isoformat(), req.date, "cache", approximate=approx)
    if req.date.weekday() >= 5:
        notice = f"{req.date.isoformat()} is a {req.date:%A}: {WEEKEND}"
        return Day([], req.date.isoformat(), req.date, "api", notices=[notice])
    if req.offline:
        return _cached_or_sample(req, store, f"{req.date.isoformat()} is not cached and offline")
    query = net.submission_window_query(req.date, req.categories)
    try:
        found = net.api_search(query, req.max_results, timeout=req.timeout)
    except net.NetworkError as exc:
        return _cached_or_sample(req, store, str(exc))
    cats = set(req.categories)
    papers = [p if p.primary_category in cats else replace(p, announce_type="cross")
              for p in found]
    store.save_day(req.feed_key, req.date, papers, source="api",
                   fetched_for=f"api:{req.date.isoformat()}", approximate=True)
    notices = [f"{req.date.isoformat()} is approximated from arXiv API submission dates "
               "(the announcement list itself is not archived)."]
    if not found:
        notices.append(f"The arXiv API returned no papers for {req.date.isoformat()}.")
    elif len(found) >= req.max_results:
        notices.append(f"Only the first {req.max_results} papers (max_results).")
    return Day(papers, req.date.isoformat(), req.date, "api", approximate=True, notices=notices)


def _query(req: LoadRequest, store: Store) -> Day:
    assert req.query is not None
    label = f"query: {req.query}"
    if req.offline:
        return _cached_or_sample(req, store, "Offline: cannot search arXiv")
    try:
        papers: list[Paper] = net.api_search(req.query, req.max_results, timeout=req.timeout)
    except net.NetworkError as exc:
        return _cached_or_sample(req, store, str(exc))
    store.save_day(f"query:{req.query}", None, papers, source="query")
    notices = [] if papers else [f"No papers match {req.query!r}."]
    return Day(papers, label, None, "query", notices=notices)
