"""A small JSON-over-HTTP helper for the enrichment sources: timeouts, a User-Agent, and
429/503 answered by waiting as long as `Retry-After` says (within reason), then retrying."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable
from typing import Any

from paperterm import __version__
from paperterm.io import httpio, limits
from paperterm.io.redact import redact_url

MAX_WAIT = 120.0  # the longest Retry-After honoured; longer: give up for this run
ATTEMPTS = 5


class EnrichError(Exception):
    """A source could not be asked; the message is one line for the user."""


def retry_after(text: str | None, attempt: int) -> float:
    """Seconds to wait before the next attempt: the server's `Retry-After` (seconds) when it
    gives a sane one, else an exponential backoff (1, 2, 4, ... s)."""
    try:
        seconds = float(text) if text is not None else None
    except ValueError:
        seconds = None
    if seconds is None or seconds != seconds or seconds < 0:  # absent, a date, nan, negative
        return float(2 ** attempt)
    return seconds


def request_json(method: str, url: str, *, name: str, payload: Any = None,
                 headers: dict[str, str] | None = None,
                 sleep: Callable[[float], None] | None = None) -> Any:
    """The JSON answer of one request, waiting out rate limits; EnrichError otherwise."""
    head = {"User-Agent": f"paperterm/{__version__}", "Accept": "application/json",
            **(headers or {})}
    data = None
    if payload is not None:
        data = json.dumps(payload).encode("utf-8")
        head["Content-Type"] = "application/json"
    for attempt in range(ATTEMPTS):
        try:
            raw = httpio.request(url, what=name, method=method, data=data, headers=head).body
            break
        except httpio.HttpFailure as exc:
            answer = exc.answer
            if answer.status in (429, 503) and attempt < ATTEMPTS - 1:
                wait = retry_after(answer.header("Retry-After"), attempt)
                if wait <= MAX_WAIT:
                    (sleep or time.sleep)(wait)
                    continue
            detail = " ".join(answer.body[:300].decode("utf-8", "replace").split())[:160]
            why = "rate limited; try again later" if answer.status == 429 else detail
            raise EnrichError(f"{name}: HTTP {answer.status}: {why}") from None
        except (limits.InputTooSlow, limits.InputTooLarge) as exc:
            raise EnrichError(str(exc)) from None
        except (OSError, http.client.HTTPException) as exc:
            raise EnrichError(f"{name}: cannot reach {redact_url(url.split('?')[0])}: "
                              f"{httpio.one_line(exc)}") from None
    else:
        raise AssertionError("unreachable")  # pragma: no cover
    try:
        return json.loads(raw)
    except ValueError:
        raise EnrichError(f"{name}: the answer is not JSON") from None
