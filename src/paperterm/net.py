"""Talking to arXiv politely: timeouts, one connection, pacing, retries, a clear User-Agent."""

from __future__ import annotations

import http.client
import os
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from typing import TypeVar

from paperterm import __version__
from paperterm.feeds import FeedError, ParsedFeed, parse_feed
from paperterm.models import Paper

USER_AGENT = f"paperterm/{__version__} (terminal arXiv reader; https://pypi.org/project/paperterm)"
RSS_URL = "https://rss.arxiv.org/rss/{cats}"
API_URL = "https://export.arxiv.org/api/query?{}"
TIMEOUT = 20.0
MIN_INTERVAL = 3.0  # arXiv asks for at least 3 s between API requests
RETRIES = 3

T = TypeVar("T")


class NetworkError(Exception):
    """arXiv could not be reached or answered with an error; the message is for the user."""


class _Pacer:
    """At most one request at a time, at least `interval` seconds apart."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._lock = threading.Lock()
        self._last = 0.0

    def run(self, fn: Callable[[], T]) -> T:
        with self._lock:
            wait = self._last + self.interval - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                return fn()
            finally:
                self._last = time.monotonic()


_pacer = _Pacer(MIN_INTERVAL)


def _backoff(attempt: int, retry_after: str | None) -> float:
    if retry_after and retry_after.strip().isdigit():
        return min(float(retry_after), 60.0)
    return min(2.0 ** (attempt + 1), 30.0) + random.uniform(0, 1)


class _Busy(Exception):
    """arXiv asked us to come back later (HTTP 429 or 503)."""

    def __init__(self, status: int, retry_after: str | None = None) -> None:
        super().__init__(status)
        self.status, self.retry_after = status, retry_after


def _with_retries(fn: Callable[[], T], what: str) -> T:
    """Run fn paced, retrying with backoff while arXiv answers 'busy'; fn translates every
    other failure into a NetworkError itself (or raises a network OSError)."""
    for attempt in range(RETRIES + 1):
        try:
            return _pacer.run(fn)
        except _Busy as exc:
            if attempt < RETRIES:
                time.sleep(_backoff(attempt, exc.retry_after))
                continue
            raise NetworkError(f"{what}: arXiv answered HTTP {exc.status} (busy)") from None
        except urllib.error.HTTPError as exc:
            raise NetworkError(f"{what}: arXiv answered HTTP {exc.code} {exc.reason}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            reason = " ".join(str(getattr(exc, "reason", exc)).split())  # one line
            raise NetworkError(f"{what}: arXiv is unreachable ({reason})") from None
        except http.client.HTTPException as exc:  # garbage or a truncated answer
            raise NetworkError(f"{what}: broken answer from arXiv ({type(exc).__name__})") from None
    raise AssertionError("unreachable")  # pragma: no cover


def _get(url: str, timeout: float) -> bytes:
    """GET url; the whole exchange must finish within `timeout` seconds.

    The socket timeout alone bounds each read, not the total: a server that trickles a
    byte now and then would otherwise keep us waiting forever.
    """
    deadline = time.monotonic() + timeout
    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    chunks: list[bytes] = []
    try:
        resp = urllib.request.urlopen(req, timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code in (429, 503):
            raise _Busy(exc.code, exc.headers.get("Retry-After")) from None
        raise
    with resp:
        while chunk := resp.read1(65536):  # read() would wait for all 64 KiB
            chunks.append(chunk)
            if time.monotonic() > deadline:
                raise TimeoutError(f"no complete answer within {timeout:g} s")
    return b"".join(chunks)


def fetch_rss(categories: list[str], timeout: float = TIMEOUT) -> ParsedFeed:
    """Today's announcement for all categories in one request."""
    base = os.environ.get("PAPERTERM_RSS_URL", RSS_URL)
    url = base.format(cats="+".join(categories))
    data = _with_retries(lambda: _get(url, timeout), "RSS feed")
    try:
        return parse_feed(data)
    except FeedError as exc:
        raise NetworkError(f"RSS feed from {url} is unreadable: {exc}") from None


def api_search(query: str, max_results: int, timeout: float = TIMEOUT) -> list[Paper]:
    """An arXiv API search through the `arxiv` package, wrapped with timeout and retries."""
    import arxiv
    import requests

    class _Session(requests.Session):
        def request(self, method, url, **kwargs):  # type: ignore[no-untyped-def, override]
            kwargs.setdefault("timeout", timeout)
            headers = dict(kwargs.pop("headers", None) or {})
            headers["user-agent"] = USER_AGENT
            return super().request(method, url, headers=headers, **kwargs)

    client = arxiv.Client(page_size=min(max_results, 200), delay_seconds=0, num_retries=0)
    client.query_url_format = os.environ.get("PAPERTERM_ARXIV_API_URL", API_URL)
    client._session = _Session()
    search = arxiv.Search(query=query, max_results=max_results,
                          sort_by=arxiv.SortCriterion.SubmittedDate)

    pages = -(-max_results // client.page_size)

    def run() -> list[Paper]:
        try:
            return _within(lambda: [_from_result(r) for r in client.results(search)],
                           timeout * pages + min(5.0, timeout))
        except arxiv.HTTPError as exc:
            if exc.status in (429, 503):
                raise _Busy(exc.status) from None
            raise NetworkError(f"arXiv API answered HTTP {exc.status}") from None
        except arxiv.UnexpectedEmptyPageError:
            return []
        except requests.RequestException as exc:
            raise NetworkError(f"arXiv API is unreachable ({type(exc).__name__})") from None
        except ValueError as exc:  # e.g. an entry with an unreadable date
            msg = " ".join(str(exc).split())[:120]
            raise NetworkError(f"arXiv API sent an unreadable answer ({msg})") from None

    return _with_retries(run, "arXiv API")


def _within(fn: Callable[[], T], seconds: float) -> T:
    """Run fn with a total deadline. `requests` only bounds each read, so a server that
    trickles bytes could stall a search for ever; a daemon thread cannot block exit."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="arxiv-api", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise NetworkError(f"arXiv API did not finish answering within {seconds:.0f} s")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def _from_result(r: object) -> Paper:
    from paperterm.feeds import _ID, _clean

    m = _ID.search(r.entry_id)  # type: ignore[attr-defined]
    pid = m.group("id") if m else r.get_short_id()  # type: ignore[attr-defined]
    version = int(m.group("v")) if m and m.group("v") else None
    cats = tuple(r.categories)  # type: ignore[attr-defined]
    primary = r.primary_category or (cats[0] if cats else "")  # type: ignore[attr-defined]
    return Paper(
        id=pid,
        version=version,
        title=_clean(r.title),  # type: ignore[attr-defined]
        authors=tuple(_clean(a.name) for a in r.authors),  # type: ignore[attr-defined]
        abstract=_clean(r.summary),  # type: ignore[attr-defined]
        categories=(primary, *(c for c in cats if c != primary)),
        primary_category=primary,
        announce_type="new",
        doi=r.doi or None,  # type: ignore[attr-defined]
        journal_ref=r.journal_ref or None,  # type: ignore[attr-defined]
        comment=r.comment or None,  # type: ignore[attr-defined]
        published=r.published.date().isoformat() if r.published else None,  # type: ignore
    )


EASTERN = timezone(timedelta(hours=-5))


def eastern_today() -> date:
    """arXiv's calendar day (US Eastern; standard time is close enough for day boundaries)."""
    override = os.environ.get("PAPERTERM_TODAY")
    if override:
        return date.fromisoformat(override)
    try:
        from zoneinfo import ZoneInfo

        return datetime.now(ZoneInfo("America/New_York")).date()
    except Exception:
        return datetime.now(EASTERN).date()


def submission_window_query(day: date, categories: list[str]) -> str:
    """API query approximating the announcement of `day`: submissions in the previous window.

    arXiv announces on day D the papers submitted between 14:00 US Eastern of the previous
    two business days. We approximate with [prev business day - 1 at 19:00 UTC, prev day 19:00 UTC).
    """
    end = day - timedelta(days=1)
    while end.weekday() >= 5:
        end -= timedelta(days=1)
    start = end - timedelta(days=1)
    while start.weekday() >= 5:
        start -= timedelta(days=1)
    cats = " OR ".join(f"cat:{c}" for c in categories)
    return f"({cats}) AND submittedDate:[{start:%Y%m%d}1900 TO {end:%Y%m%d}1900]"
