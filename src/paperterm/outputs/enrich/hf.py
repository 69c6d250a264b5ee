"""Hugging Face daily papers (upvotes, the GitHub repository and its stars), read with
`huggingface_hub`'s HTTP session (its `HfApi.list_daily_papers` is not used: `PaperInfo`
drops the repository and stars, which the daily list nests under "paper"). A paper reaches
the daily page on the day it is announced or soon after, so the day and the next two (never
past today) are read. `PAPERTERM_HF_ENDPOINT` overrides the address (tests)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import date, timedelta
from typing import Any

from paperterm.io import httpio, limits
from paperterm.io.env import env
from paperterm.io.redact import redact_url
from paperterm.outputs.enrich.http import MAX_WAIT, EnrichError, retry_after
from paperterm.text.hygiene import clean_line

DEFAULT_ENDPOINT = "https://huggingface.co"
PAGE = 100
FOLLOWING_DAYS = 2
ATTEMPTS = 5
TIMEOUT = 30.0


def hf_endpoint() -> str:
    return (env("PAPERTERM_HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


def daily_dates(day: date, today: date) -> list[date]:
    return [day + timedelta(days=n) for n in range(FOLLOWING_DAYS + 1)
            if day + timedelta(days=n) <= today]


def paper_data(row: Any) -> tuple[str, dict[str, Any]] | None:
    """(arXiv id, what paperterm keeps) of one daily-papers row. The paper's own fields sit
    under "paper" (upvotes, githubRepo, githubStars); the row carries numComments."""
    if not isinstance(row, dict):
        return None
    paper = row.get("paper")
    if not isinstance(paper, dict):
        paper = {}

    def pick(key: str) -> Any:
        return paper.get(key) if paper.get(key) is not None else row.get(key)

    pid = str(pick("id") or "")
    if not pid:
        return None
    return pid, {"upvotes": _count(pick("upvotes")),
                 "comments": _count(row.get("numComments")),
                 "github": clean_line(pick("githubRepo") or ""),
                 "stars": _count(pick("githubStars"))}


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _page(endpoint: str, when: date, p: int,
          sleep: Callable[[float], None] | None) -> list[Any]:
    """One page of the daily papers, through huggingface_hub's HTTP session (its proxies,
    headers and error mapping): /api/daily_papers?date=...&limit=...&p=..."""
    from huggingface_hub.errors import HfHubHTTPError
    from huggingface_hub.utils import build_hf_headers, hf_raise_for_status

    from paperterm import __version__

    headers = build_hf_headers(token=False, library_name="paperterm",
                               library_version=__version__)
    params: dict[str, str | int] = {"date": when.isoformat(), "limit": PAGE, "p": p}
    for attempt in range(ATTEMPTS):
        try:
            r = httpio.within(lambda: _get_capped(f"{endpoint}/api/daily_papers", params,
                                                  headers), "Hugging Face")
            hf_raise_for_status(r)
            body = r.json()
            return body if isinstance(body, list) else []
        except HfHubHTTPError as exc:
            resp = getattr(exc, "response", None)
            status = getattr(resp, "status_code", None)
            if resp is not None and status in (429, 503) and attempt < ATTEMPTS - 1:
                wait = retry_after(resp.headers.get("Retry-After"), attempt)
                if wait <= MAX_WAIT:
                    (sleep or time.sleep)(wait)
                    continue
            why = "rate limited; try again later" if status == 429 else str(exc).split("\n")[0]
            raise EnrichError(f"Hugging Face: HTTP {status}: {why}") from None
        except ValueError:
            raise EnrichError("Hugging Face: the daily papers are not JSON") from None
        except (limits.InputTooSlow, limits.InputTooLarge) as exc:
            raise EnrichError(str(exc)) from None
        except Exception as exc:  # httpx transport errors, timeouts
            raise EnrichError(f"Hugging Face: cannot reach {redact_url(endpoint)}: "
                              f"{type(exc).__name__}: {exc}") from None
    raise EnrichError("Hugging Face: rate limited; try again later")


def _get_capped(url: str, params: dict[str, str | int], headers: dict[str, str]) -> Any:
    """GET `url` through huggingface_hub's session, its answer read up to
    `limits.MAX_DOWNLOAD` (a response of the session's own class holding what was read)."""
    from huggingface_hub import get_session

    chunks: list[bytes] = []
    total = 0
    with get_session().stream("GET", url, params=params, headers=headers,
                              timeout=TIMEOUT) as r:
        for chunk in r.iter_bytes():
            chunks.append(chunk)
            total += len(chunk)
            if total > limits.MAX_DOWNLOAD:
                raise limits.too_large("Hugging Face's answer", limits.MAX_DOWNLOAD)
        return type(r)(r.status_code, headers=r.headers, content=b"".join(chunks),
                       request=r.request)


def fetch_hf(ids: Iterable[str], dates: Iterable[date], *, endpoint: str | None = None,
             sleep: Callable[[float], None] | None = None) -> dict[str, dict[str, Any] | None]:
    """{arXiv id: data or None (not among the daily papers of those dates)} for `ids`."""
    base = (endpoint or hf_endpoint()).rstrip("/")
    wanted = set(ids)
    out: dict[str, dict[str, Any] | None] = dict.fromkeys(wanted)
    for when in dates:
        p = 0
        while True:
            page = _page(base, when, p, sleep)
            for row in page:
                got = paper_data(row)
                if got is not None and got[0] in wanted:
                    out[got[0]] = got[1]
            if len(page) < PAGE:
                break
            p += 1
    return out
