"""Searching the arXiv API (export.arxiv.org/api/query) through the `arxiv` package.

Only the package's public API is used: `arxiv.Client` (page_size, delay_seconds, num_retries
and its public class attribute `query_url_format`), `Client.results`, `arxiv.Search`, the
attributes of `arxiv.Result` and the package's exception classes. sources.http adds what
arxiv.py does not do: the shared pacer, retries while arXiv is busy and a total deadline.
The results become Papers as feed entries do (feeds.make_paper: ids through arxiv_id, text
through hygiene).

User-Agent: these requests carry arxiv.py's own ("arxiv.py/<version>"), which the package sets
on every request with no public way to change it; the RSS feed (sources.http.get) carries ours.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date
from http import HTTPStatus
from http.client import HTTPException
from typing import TYPE_CHECKING, TypeVar

from paperterm.arxiv_id import find_arxiv_id
from paperterm.models import Paper
from paperterm.settings.env import env
from paperterm.sources import http
from paperterm.sources.calendar import submission_window
from paperterm.sources.feeds import (
    FeedError,
    api_error,
    authors_from_names,
    dedupe,
    make_paper,
)

if TYPE_CHECKING:
    import arxiv

API_URL = "https://export.arxiv.org/api/query?{}"  # PAPERTERM_ARXIV_API_URL overrides it
PAGE_SIZE = 200  # papers per request
WHAT = "arXiv API"

T = TypeVar("T")


def search(query: str, max_results: int, timeout: float = http.TIMEOUT) -> list[Paper]:
    """Up to `max_results` papers matching `query`, newest submissions first.

    One request per page of PAGE_SIZE papers. The search is paced like every request to
    arXiv, its pages are the pacer's interval apart, and it must finish within `timeout`
    seconds per page. While arXiv is busy (HTTP 429/503) it is tried again, resuming after
    the papers it already has. Raises http.NetworkError, with a one-line message.
    """
    import arxiv  # here, not at the top: it imports requests, which most commands never need

    if max_results <= 0:
        return []
    found: list[arxiv.Result] = []  # kept across tries: a retry resumes after them

    def one_try() -> None:
        client = arxiv.Client(page_size=min(max_results, PAGE_SIZE),
                              delay_seconds=http.pacer.interval,  # MIN_INTERVAL between pages
                              num_retries=0)  # retries are ours (http.polite)
        client.query_url_format = env("PAPERTERM_ARXIV_API_URL") or API_URL
        wanted = arxiv.Search(query=query, max_results=max_results,
                              sort_by=arxiv.SortCriterion.SubmittedDate)
        results = client.results(wanted, offset=len(found))
        pages = -(-(max_results - len(found)) // client.page_size)
        seconds = pages * timeout + (pages - 1) * client.delay_seconds
        got: list[arxiv.Result] = []
        try:
            http.finish_within(lambda stop: _drain(results, got, stop), seconds, WHAT)
        except arxiv.UnexpectedEmptyPageError:
            pass  # arXiv sometimes answers a later page with nothing: keep the pages before it
        except arxiv.HTTPError as exc:
            found.extend(got)  # the pages before the failing one
            if exc.status in (429, 503):
                # arxiv.HTTPError carries the status only, not the answer's headers: the
                # backoff cannot honour a Retry-After here (the RSS path does)
                raise http.Busy(exc.status) from None
            raise http.NetworkError(f"{WHAT}: arXiv answered HTTP {exc.status}"
                                    f"{_phrase(exc.status)}") from None
        except arxiv.ArxivError as exc:
            raise http.NetworkError(f"{WHAT}: {_one_line(exc.message)}") from None
        except ValueError as exc:  # arxiv.py's parser meeting e.g. an unreadable date
            raise _unreadable(exc) from None
        except OSError as exc:  # requests' errors are OSErrors
            raise _connection_error(exc) from None
        found.extend(got)

    http.polite(one_try, WHAT)
    for result in found:
        error = api_error(result.entry_id, result.summary)
        if error is not None:
            raise http.NetworkError(f"{WHAT}: arXiv answered with an error: {error}")
    try:
        papers = [_paper(result) for result in found]
    except FeedError as exc:
        raise _unreadable(exc) from None
    return dedupe(papers)[:max_results]


def _drain(results: Iterator[T], into: list[T], stop: threading.Event) -> None:
    """Collect `results` until they end or `stop` is set (after the deadline): the next
    page is only requested when the current one is used up, so none is requested then."""
    for result in results:
        into.append(result)
        if stop.is_set():
            return


def _paper(result: arxiv.Result) -> Paper:
    """A search result as a Paper, built as a feed entry is."""
    ids = (find_arxiv_id(text) for text in (result.entry_id, *(ln.href for ln in result.links)))
    found = next((i for i in ids if i is not None), None)
    if found is None:
        raise FeedError(f"no arXiv id in {_one_line(result.entry_id)[:60]!r}")
    return make_paper(
        found.id,
        found.version,
        title=result.title,
        authors=authors_from_names([author.name for author in result.authors]),
        abstract=result.summary,
        categories=tuple(result.categories),
        primary=result.primary_category or None,
        announce="new",
        doi=result.doi,
        journal=result.journal_ref,
        comment=result.comment,
        published=result.published.date().isoformat() if result.published else None,
    )


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _phrase(status: int) -> str:
    try:
        return f" {HTTPStatus(status).phrase}"
    except ValueError:
        return ""


def _unreadable(exc: Exception) -> http.NetworkError:
    return http.NetworkError(f"{WHAT} sent an unreadable answer ({_one_line(str(exc))[:120]})")


def _connection_error(exc: OSError) -> http.NetworkError:
    """A requests error as one line: a broken answer, or the socket's own reason."""
    chain = _chain(exc)
    broken = next((e for e in chain if isinstance(e, HTTPException)), None)
    if broken is not None:
        return http.NetworkError(f"{WHAT}: broken answer from arXiv ({type(broken).__name__})")
    reason = next((e.strerror for e in chain if isinstance(e, OSError) and e.strerror),
                  type(exc).__name__)
    return http.NetworkError(f"{WHAT}: arXiv is unreachable ({_one_line(reason)})")


def _chain(exc: BaseException) -> list[BaseException]:
    """`exc` and the exceptions it wraps: causes, contexts and exception arguments (requests
    wraps urllib3's errors, which wrap the socket's)."""
    seen: list[BaseException] = []
    todo: list[object] = [exc]
    while todo and len(seen) < 50:
        e = todo.pop(0)
        if not isinstance(e, BaseException) or any(e is s for s in seen):
            continue
        seen.append(e)
        todo += [e.__cause__, e.__context__, getattr(e, "reason", None), *e.args]
    return seen


def submission_window_query(day: date, categories: list[str]) -> str:
    """API query approximating the announcement of `day`: the submissions of its window
    (calendar.submission_window), from 19:00 UTC to 19:00 UTC."""
    start, end = submission_window(day)
    cats = " OR ".join(f"cat:{c}" for c in categories)
    return f"({cats}) AND submittedDate:[{start:%Y%m%d}1900 TO {end:%Y%m%d}1900]"
