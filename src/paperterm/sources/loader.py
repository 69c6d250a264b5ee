"""Decide where the day's papers come from: file, cache, arXiv RSS/API, or the bundled sample."""

from __future__ import annotations

import datetime
import importlib
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperterm.models import Day, Paper
from paperterm.sources import calendar, daynav, http
from paperterm.sources.calendar import WEEKEND
from paperterm.store import Store, StoreFactory
from paperterm.store.papers import SAMPLE_FEED  # the feed key the sample day is cached under

if TYPE_CHECKING:
    from paperterm.sources.feeds import ParsedFeed


class _OnFirstUse:
    """A module imported when first used: a start on a cached day reads no file and no
    network, and the reader paints sooner without the feed parser (lxml) and HTTP stack."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)


arxiv_api = _OnFirstUse("paperterm.sources.arxiv_api")
rss = _OnFirstUse("paperterm.sources.rss")


SAMPLE_CATEGORIES = frozenset({"cs.AI", "cs.LG"})  # what the bundled sample day lists

def parse_feed(data: bytes) -> ParsedFeed:
    from paperterm.sources.feeds import parse_feed as parse

    return parse(data)


SAMPLE_NAME = "sample-2026-02-25.xml"


class LoadError(Exception):
    """The user asked for something that cannot be loaded (e.g. a broken --feed file)."""


class NotFetched(LoadError):
    """A day navigation step could not fetch its day and no cached day lies further in its
    direction: the reader stays where it is; the message says why."""


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
    since: datetime.date | None = None  # `date` is the field above here
    timeout: float = http.TIMEOUT
    refresh: bool = False  # fetch today's feed again even if it was fetched today
    # a step of day navigation ([ -1, ] 1): when the asked day cannot be fetched, the nearest
    # cached day further that way stands in (NotFetched when there is none)
    step: int = 0

    @property
    def feed_key(self) -> str:
        return "+".join(sorted(self.categories))


def sample_bytes() -> bytes:
    return (Path(__file__).resolve().parent.parent / "data" / SAMPLE_NAME).read_bytes()


def loads_without_network(req: LoadRequest, store: Store) -> bool:
    """Whether `load_day(req, store)` can answer from files and the cache alone (the reader
    then opens on the day at once; otherwise it loads in the background)."""
    if req.feed is not None or req.sample or req.offline:
        return True
    if req.query:
        return False
    if req.since:
        return not daynav.missing_days(store.papers, req.feed_key, req.since,
                                       calendar.eastern_today())
    if req.date:
        return (bool(store.papers.day_papers(req.feed_key, req.date))
                or calendar.is_weekend(req.date))
    today = calendar.eastern_today()
    record = store.papers.fetch_record(req.feed_key, today)
    if record is None or req.refresh:
        return False
    if record["day"]:
        return not calendar.cached_day_is_stale(today, date.fromisoformat(record["day"]),
                                                record["fetched_at"])
    return calendar.empty_answer_is_final(today, record["fetched_at"])


def cached_while_fetching(req: LoadRequest, store: Store) -> Day | None:
    """What shows at once while today's announcement is fetched (a new fetch is due, or
    `--refresh`): the day fetched earlier today, else the most recent cached day, said so,
    else (nothing cached: a first start) the bundled sample day, said so. None for a request
    of a file, the sample, a search, a date or a range (the reader shows the loading
    screen)."""
    if req.feed is not None or req.sample or req.query or req.date or req.since:
        return None
    record = store.papers.fetch_record(req.feed_key, calendar.eastern_today())
    if record is not None and record["day"]:
        return load_day(replace(req, offline=True, refresh=False), store)
    latest = _latest_fetched(req, store)
    if latest is None:  # nothing cached: the bundled sample day, said so (issue 32, item 11)
        sample = _sample(store, None)
        sample.notices[:] = _for_other_categories(req, [
            f"showing the bundled sample day, {sample.label}, while today's announcement "
            "loads"])
        return _filtered(sample, req.announce_types, store)
    return _filtered(Day(
        store.papers.day_papers(req.feed_key, latest), latest.isoformat(), latest, "cache",
        approximate=store.papers.is_approximate(req.feed_key, latest),
        notices=[f"showing the most recent cached day, {latest.isoformat()}, while today's "
                 "announcement loads"]), req.announce_types, store)


def loading_label(req: LoadRequest) -> str:
    """What the reader says while `req` loads in the background."""
    if req.query:
        return f"searching arXiv for {req.query!r}…"
    what = "+".join(req.categories)
    when = f" for {req.date.isoformat()}" if req.date else ""
    return f"loading {what}{when} from arXiv…"


def load_day(req: LoadRequest, store: Store) -> Day:
    """Load what the request asks for; never raises for network trouble (falls back instead)."""
    if req.feed is not None:
        day = _from_file(req.feed, store)
    elif req.sample:
        day = _sample(store)
    elif req.query:
        day = _query(req, store)
    elif req.since:
        day = _since(req, store)
    elif req.date:
        day = _past_day(req, store)
    else:
        day = _today(req, store)
    return _filtered(_as_sample(day, req, store), req.announce_types, store)


def _as_sample(day: Day, req: LoadRequest, store: Store) -> Day:
    """A cached day that is the bundled sample's (`is_sample_day`: found among the sample's
    categories' days, by `--date`, `[`/`]` or as the latest) is shown as the sample: the
    header's "sample" flag, and one line saying so."""
    if day.source != "cache" or day.day is None or not store.papers.is_sample_day(
            req.feed_key, day.day):
        return day
    cats = " and ".join(sorted(SAMPLE_CATEGORIES, reverse=True))
    line = f"{day.label} is the bundled sample day ({cats}), not an announcement fetched."
    return replace(day, source="sample", notices=[*day.notices, line])


def _filtered(day: Day, announce_types: list[str], store: Store) -> Day:
    """The day without the announcement types the config hides, except the revisions of
    papers the user kept (a replacement of a starred paper always shows)."""
    if day.source == "query":
        return day
    from paperterm.sources.revisions import revisions

    other = [p for p in day.papers if p.announce_type not in announce_types]
    revised = revisions(store, other) if other else {}
    kept = [p for p in day.papers if p.announce_type in announce_types or p.id in revised]
    hidden = len(day.papers) - len(kept)
    if hidden:
        day.notices.append(
            f"{hidden} announcement(s) of other types hidden (config announce_types = "
            f"{announce_types})."
        )
    return replace(day, papers=kept)


def _parse_file(path: Path) -> ParsedFeed:
    from paperterm.io import limits
    from paperterm.sources.feeds import FeedError

    try:
        data = limits.read_path(path, str(path), limits.MAX_FEED_FILE)
    except (limits.InputTooLarge, limits.InputTooSlow) as exc:
        raise LoadError(str(exc)) from None
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


def load_day_at(req: LoadRequest, open_store: StoreFactory) -> Day:
    """`load_day` with a store of its own from `open_store` (for a worker thread: SQLite
    connections stay in the thread that opened them)."""
    store = open_store()
    try:
        return load_day(req, store)
    finally:
        store.close()


def _from_file(path: Path, store: Store) -> Day:
    parsed = _parse_file(path)
    # a day saved from rss.arxiv.org is the same announcement a live fetch would cache: file it
    # under the same key, so `--date` and the weekend fallback find it later
    key = "+".join(sorted(parsed.categories)) if parsed.categories else f"file:{path.name}"
    store.papers.save_day(key, parsed.day, parsed.papers, source="feed")
    label = parsed.day.isoformat() if parsed.day else path.name
    notices = _skipped_notice(parsed, str(path))
    if not parsed.papers:
        notices.append(f"{path}: the feed has no papers (weekend or holiday edition?).")
    return Day(parsed.papers, label, parsed.day, "feed", notices=notices)


def _sample(store: Store, why: str | None = None, aside: str = "") -> Day:
    """The bundled sample day; a fallback (`why`) says so, what is shown first (a header
    line cut at 80 columns keeps it), then why (`aside`: said after what is shown); `--sample`
    asked for it: no notice (the header still marks it "sample")."""
    parsed = parse_feed(sample_bytes())
    if not _sample_filed(store, parsed.day, parsed.papers):  # (for `--date`, once: a read
        store.papers.save_day(SAMPLE_FEED, parsed.day, parsed.papers, source="sample")  # writes
    label = parsed.day.isoformat() if parsed.day else "sample"
    shown = f"Showing the bundled sample day ({label}), not today's papers{aside}"
    notices = [_because(shown, why)] if why else []
    return Day(parsed.papers, label, parsed.day, "sample", notices=notices)


def _because(shown: str, why: str) -> str:
    """"`shown`: `why`." (the outcome first, its cause after: "Showing the bundled sample
    day (…), not today's papers: arXiv is unreachable (…)."), `why` starting lower-case
    unless it starts with an acronym ("RSS feed")."""
    why = why.strip().rstrip(".")
    if len(why) > 1 and why[0].isupper() and not why[1].isupper():
        why = why[0].lower() + why[1:]
    return f"{shown}: {why}."


def _sample_filed(store: Store, day: date | None, papers: list[Paper]) -> bool:
    """Whether the sample day is in the cache as bundled (then nothing is written: a command
    that only reads, `eval` falling back to the sample, needs no room on the disk), or the
    store was opened only to read."""
    if store.read_only:
        return True
    if day is None:
        return False
    from paperterm.text.hygiene import clean_paper

    def key(ps: list[Paper]) -> list[tuple[object, ...]]:
        return [(p.id, p.version, p.title, p.abstract, p.announce_type) for p in ps]

    return key(store.papers.day_papers(SAMPLE_FEED, day)) == key(
        [clean_paper(p) for p in papers])


def _latest_fetched(req: LoadRequest, store: Store) -> date | None:
    """The most recent cached day of `req`'s feed that is not the bundled sample's alone (the
    sample's day is found among its categories' days: it is the sample, never "the most
    recent cached day")."""
    latest = store.papers.latest_day(req.feed_key)
    if latest is not None and store.papers.is_sample_day(req.feed_key, latest):
        # a day fetched before it, if any (`before` is inclusive)
        latest = store.papers.latest_day(req.feed_key, before=latest - datetime.timedelta(1))
    return latest


def _cached_or_sample(req: LoadRequest, store: Store, why: str) -> Day:
    latest = _latest_fetched(req, store)
    if latest is not None:
        papers = store.papers.day_papers(req.feed_key, latest)
        return Day(papers, latest.isoformat(), latest, "cache",
                   approximate=store.papers.is_approximate(req.feed_key, latest),
                   notices=[_because("Showing the most recent cached day, "
                                     f"{latest.isoformat()}, not today's papers", why)])
    return _sample(store, why, _other_categories(req))


def _other_categories(req: LoadRequest) -> str:
    """What the sample day shown for `req` says after itself, for other categories than
    the sample's (cs.LG and cs.AI): never shown as if it were the categories asked for."""
    if not req.categories or set(req.categories) == set(SAMPLE_CATEGORIES):
        return ""
    return (f" (the sample is {' and '.join(sorted(SAMPLE_CATEGORIES, reverse=True))}"
            f", not {'+'.join(req.categories)})")


def _for_other_categories(req: LoadRequest, notices: list[str]) -> list[str]:
    """`notices` of the sample day shown for `req`, saying so for other categories."""
    aside = _other_categories(req)
    return [f"{n.rstrip('.')}{aside}." if aside else n for n in notices]


def _today(req: LoadRequest, store: Store) -> Day:
    today = calendar.eastern_today()
    record = (None if req.refresh and not req.offline
              else store.papers.fetch_record(req.feed_key, today))
    if record is not None:  # fetched earlier today: no network, unless an older day is stale
        if record["day"]:
            d = date.fromisoformat(record["day"])
            if req.offline or not calendar.cached_day_is_stale(today, d, record["fetched_at"]):
                return Day(store.papers.day_papers(req.feed_key, d), d.isoformat(), d, "cache",
                           notices=_which(d, today))
        # an empty feed: final for a while (calendar.empty_answer_is_final)
        elif calendar.empty_answer_is_final(today, record["fetched_at"]) or req.offline:
            return _no_announcement(req, store, today)
    if req.offline:
        return _cached_or_sample(req, store, "Offline")
    try:
        parsed = rss.fetch_rss(req.categories, timeout=req.timeout)
    except http.NetworkError as exc:
        if req.step:
            return _step_past(req, store, today, str(exc))
        # a re-fetch (or --refresh) failed: a copy of today's announcement fetched earlier
        # today is today's announcement, not a day instead of it (issue 31, item 16)
        known = record or store.papers.fetch_record(req.feed_key, today)
        if known is not None and known["day"]:
            d = date.fromisoformat(known["day"])
            cached = Day(store.papers.day_papers(req.feed_key, d), d.isoformat(), d, "cache",
                         notices=[f"{exc}: showing the cached {d.isoformat()}",
                                  *_which(d, today)])
            if record is not None or not calendar.cached_day_is_stale(
                    today, d, known["fetched_at"]):
                return cached
            return _not_today(cached, str(exc))
        return _not_today(_cached_or_sample(req, store, str(exc)), str(exc))
    if not parsed.papers:
        store.papers.save_day(req.feed_key, None, [], source="rss", fetched_for=today)
        return _no_announcement(req, store, today)
    day = calendar.announced_day(parsed.day, today)
    store.papers.save_day(req.feed_key, day, parsed.papers, source="rss", fetched_for=today)
    return Day(parsed.papers, day.isoformat(), day, "rss",
               notices=[*_skipped_notice(parsed, "RSS feed"), *_which(day, today)])


def _no_announcement(req: LoadRequest, store: Store, today: date) -> Day:
    """Today's feed is empty: the latest cached day (or the sample), marked as not today's."""
    why = calendar.no_announcement_reason(today)
    return replace(_cached_or_sample(req, store, why),
                   no_announcement=f"no announcement on {today.isoformat()}: {why}")


def _not_today(day: Day, why: str) -> Day:
    """Today's announcement could not be fetched (`why`): `day` (the most recent cached day,
    or the sample) stands in, marked as not the day asked for (a digest says so, exit 5)."""
    shown = "the bundled sample day" if day.source == "sample" else "the most recent cached day"
    return replace(day, instead=f"today's announcement could not be loaded "
                                f"({why.rstrip('.')}); this is {shown}, {day.label}")


def _nearest_instead(req: LoadRequest, store: Store, why: str) -> Day:
    """`--date` could not be loaded (`why`): the cached day nearest it (the earlier one on a
    tie), else the bundled sample day, marked as not the day asked for."""
    assert req.date is not None
    asked, why = f"--date {req.date.isoformat()}", why.rstrip(".")
    found = daynav.closest_cached(store.papers, req.feed_key, req.date, calendar.eastern_today())
    if found is None:
        sample = _sample(store, why)
        return replace(sample, instead=f"{asked} could not be loaded ({why}); this is the "
                                       f"bundled sample day, {sample.label}")
    shown = f"the nearest cached day, {found.isoformat()}"
    return Day(store.papers.day_papers(req.feed_key, found), found.isoformat(), found, "cache",
               approximate=store.papers.is_approximate(req.feed_key, found),
               notices=[_because(f"Showing {shown}", why)],
               instead=f"{asked} could not be loaded ({why}); this is {shown}")


def _step_past(req: LoadRequest, store: Store, asked: date, why: str) -> Day:
    """A day navigation step to `asked` failed (`why`): the nearest cached day further in the
    step's direction, said so; NotFetched when there is none (the reader stays)."""
    where = "before" if req.step < 0 else "after"
    found = daynav.nearest_cached(store.papers, req.feed_key, asked, req.step,
                                  calendar.eastern_today())
    why = why.rstrip(".")
    if found is None:
        raise NotFetched(f"{asked.isoformat()} could not be loaded ({why}); no cached day "
                         f"{where} it")
    return Day(store.papers.day_papers(req.feed_key, found), found.isoformat(), found, "cache",
               approximate=store.papers.is_approximate(req.feed_key, found),
               # the day shown first: the notice stands in the header's place for a while,
               # and a narrow screen cuts its end (issue 32, low)
               notices=[f"Showing {found.isoformat()}, the nearest cached day {where} "
                        f"{asked.isoformat()}, which could not be loaded ({why})"])


def _which(day: date, today: date) -> list[str]:
    notice = calendar.which_announcement(day, today)
    return [notice] if notice else []


def _past_day(req: LoadRequest, store: Store) -> Day:
    assert req.date is not None
    papers = store.papers.day_papers(req.feed_key, req.date)
    if papers:
        approx = store.papers.is_approximate(req.feed_key, req.date)
        return Day(papers, req.date.isoformat(), req.date, "cache", approximate=approx)
    if calendar.is_weekend(req.date):
        notice = f"{req.date.isoformat()} is a {req.date:%A}: {WEEKEND}"
        return Day([], req.date.isoformat(), req.date, "api", notices=[notice])
    if req.offline:
        return _nearest_instead(req, store, f"{req.date.isoformat()} is not cached and offline")
    query = arxiv_api.submission_window_query(req.date, req.categories)
    try:
        found = arxiv_api.search(query, req.max_results, timeout=req.timeout)
    except http.NetworkError as exc:
        if req.step:
            return _step_past(req, store, req.date, str(exc))
        return _nearest_instead(req, store, str(exc))
    cats = set(req.categories)
    papers = [p if p.primary_category in cats else replace(p, announce_type="cross")
              for p in found]
    store.papers.save_day(req.feed_key, req.date, papers, source="api",
                          fetched_for=f"api:{req.date.isoformat()}", approximate=True)
    notices = [f"{req.date.isoformat()} is approximated from arXiv API submission dates "
               "(the announcement list itself is not archived)."]
    if not found:
        notices.append(f"The arXiv API returned no papers for {req.date.isoformat()}.")
    elif len(found) >= req.max_results:
        notices.append(f"Only the first {req.max_results} papers (max_results).")
    return Day(papers, req.date.isoformat(), req.date, "api", approximate=True, notices=notices)


def _query(req: LoadRequest, store: Store) -> Day:
    """arXiv's answer to `--query`; offline, or when arXiv fails, the cached papers that match
    it (ranked), said so."""
    assert req.query is not None
    if req.offline:  # search what is cached instead, ranked, offline
        return _cached_matches(req, store, "Offline")
    try:
        papers: list[Paper] = arxiv_api.search(req.query, req.max_results, timeout=req.timeout)
    except http.NetworkError as exc:
        why = str(exc).rstrip(".")
        day = _cached_matches(req, store, why)
        return replace(day, instead=f"--query {req.query!r} could not be loaded from arXiv "
                                    f"({why}); these are the cached papers that match it")
    store.papers.save_day(f"query:{req.query}", None, papers, source="query")
    notices = [] if papers else [f"No papers match {req.query!r}."]
    return Day(papers, f"query: {req.query}", None, "query", notices=notices)


def _cached_matches(req: LoadRequest, store: Store, why: str) -> Day:
    """The cached papers matching `req.query`, ranked; `why` says why not arXiv's."""
    assert req.query is not None
    found = [h.paper for h in store.library.search(req.query, limit=req.max_results)]
    return Day(found, f"query: {req.query}", None, "query", notices=[
        f"{why}: {len(found)} cached paper(s) match {req.query!r} (the cache was searched, "
        "not arXiv)."])


def _since(req: LoadRequest, store: Store) -> Day:
    """Every paper announced on or after `req.since`, newest day first, with its day; the
    most recent missing days are fetched first (unless offline)."""
    assert req.since is not None
    notices = _fill_days(req, store)
    found = store.papers.announced_since(req.since)
    days = sorted({d for _, d in found})
    if not found:  # nothing to show: say where the papers are instead
        latest = store.papers.latest_day(req.feed_key)
        where = (f"; the most recent cached day is {latest.isoformat()} (open it with "
                 f"--date {latest.isoformat()}, or D in the reader)" if latest else "")
        notices.append(f"{daynav.NOTHING_SINCE} {req.since.isoformat()}{where}.")
    label = f"since {req.since.isoformat()} ({len(days)} days)"
    return Day([p for p, _ in found], label, None, "cache", notices=notices,
               paper_days={p.id: d for p, d in found})


def _fill_days(req: LoadRequest, store: Store) -> list[str]:
    """Fetch the missing weekdays since `req.since` (at most MAX_FILL, the newest)."""
    assert req.since is not None
    today = calendar.eastern_today()
    missing = daynav.missing_days(store.papers, req.feed_key, req.since, today)
    if not missing:
        return []
    shown = ", ".join(d.isoformat() for d in missing[:3]) + (" …" if len(missing) > 3 else "")
    if req.offline:
        return [f"Offline: {len(missing)} day(s) since {req.since.isoformat()} are not "
                f"cached ({shown})."]
    notices = []
    for d in reversed(missing[-daynav.MAX_FILL:]):
        one = replace(req, since=None, date=None if d == today else d)
        got = _today(one, store) if d == today else _past_day(one, store)
        if d in daynav.missing_days(store.papers, req.feed_key, d, d):  # fell back: network down
            why = got.notices[0] if got.notices else "no answer"
            # the day it fell back to is not what this view shows: only why it failed
            why = why.split(": showing ", 1)[0].rstrip(".")
            notices.append(f"could not fetch {d.isoformat()}: {why}.")
            break
    if len(missing) > daynav.MAX_FILL:
        notices.append(f"{len(missing) - daynav.MAX_FILL} older day(s) are not cached: open "
                       "them with --date (or [ in the reader) to fetch them.")
    return notices
