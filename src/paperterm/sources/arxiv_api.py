"""Searching the arXiv API (export.arxiv.org/api/query): one paced request per page of
results, through `sources.http.get` like the RSS feed (the shared pacer, retries while arXiv
is busy, a whole-request deadline, a capped answer, our User-Agent). Each page is an Atom
feed that `feeds.parse_feed` reads as it reads a saved one: an error entry or an HTML page
is an error, never "no papers".
"""

from __future__ import annotations

from datetime import date
from urllib.parse import urlencode

from paperterm.io.env import env
from paperterm.models import Paper
from paperterm.sources import http
from paperterm.sources.calendar import submission_window
from paperterm.sources.feeds import ApiErrorEntry, FeedError, dedupe, parse_feed

API_URL = "https://export.arxiv.org/api/query?{}"  # PAPERTERM_ARXIV_API_URL overrides it
PAGE_SIZE = 200  # papers per request
WHAT = "arXiv API"


def search(query: str, max_results: int, timeout: float = http.TIMEOUT) -> list[Paper]:
    """Up to `max_results` papers matching `query`, newest submissions first.

    One request per page of PAGE_SIZE papers, paced like every request to arXiv; each must
    finish within `timeout` seconds. A page arXiv is busy for is asked again (not the whole
    search); the search stops at the total arXiv reports, or at an empty page (keeping the
    pages before it). Raises http.NetworkError, with a one-line message, for an unreachable
    or failing arXiv, an error entry and an answer that is not an arXiv feed.
    """
    if max_results <= 0:
        return []
    base = env("PAPERTERM_ARXIV_API_URL") or API_URL
    page_size = min(max_results, PAGE_SIZE)
    papers: list[Paper] = []
    offset = 0
    while offset < max_results:
        url = base.format(urlencode({
            "search_query": query, "id_list": "", "sortBy": "submittedDate",
            "sortOrder": "descending", "start": str(offset), "max_results": str(page_size)}))
        data = http.get(url, WHAT, timeout)
        try:
            page = parse_feed(data)
        except ApiErrorEntry as exc:
            raise http.NetworkError(f"{WHAT}: {_one_line(str(exc))[:200]}") from None
        except FeedError as exc:
            why = _one_line(str(exc))[:160]
            raise http.NetworkError(f"{WHAT} sent an unreadable answer ({why})") from None
        if not page.papers and not page.skipped:
            break  # no (more) results; arXiv sometimes answers a later page with nothing
        papers += page.papers
        offset += len(page.papers) + len(page.skipped)
        if page.total is not None and offset >= page.total:
            break
    return dedupe(papers)[:max_results]


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def submission_window_query(day: date, categories: list[str]) -> str:
    """API query approximating the announcement of `day`: the submissions of its window
    (calendar.submission_window), from 19:00 UTC to 19:00 UTC."""
    start, end = submission_window(day)
    cats = " OR ".join(f"cat:{c}" for c in categories)
    return f"({cats}) AND submittedDate:[{start:%Y%m%d}1900 TO {end:%Y%m%d}1900]"
