"""Today's announcement from rss.arxiv.org: one request for all categories."""

from __future__ import annotations

from paperterm.io.env import env
from paperterm.io.redact import redact_url
from paperterm.sources import http
from paperterm.sources.feeds import FeedError, ParsedFeed, parse_feed

RSS_URL = "https://rss.arxiv.org/rss/{cats}"  # PAPERTERM_RSS_URL overrides it ({cats} kept)


def feed_url(categories: list[str]) -> str:
    """The RSS address of today's announcement for `categories`."""
    base = env("PAPERTERM_RSS_URL") or RSS_URL
    return base.format(cats="+".join(categories))


def fetch_rss(categories: list[str], timeout: float = http.TIMEOUT,
              retries: int = http.RETRIES) -> ParsedFeed:
    """Today's announcement for all categories in one request (a busy arXiv asked again at
    most `retries` times); raises http.NetworkError."""
    url = feed_url(categories)
    data = http.get(url, "RSS feed", timeout, retries)
    try:
        return parse_feed(data)
    except FeedError as exc:
        raise http.NetworkError(f"RSS feed from {redact_url(url)} is unreadable: {exc}"
                                ) from None
