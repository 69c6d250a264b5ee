"""Polite HTTP to arXiv: one request at a time, paced, with a total deadline, retries while
arXiv is busy (honouring Retry-After), and a User-Agent that says who we are.

`get` does all of it for a plain GET (the RSS feed, each page of an arXiv API search); the
request itself is `httpio.request`'s (a whole-request deadline, a capped answer).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from paperterm import __version__
from paperterm.io import limits

USER_AGENT = f"paperterm/{__version__} (terminal arXiv reader; https://pypi.org/project/paperterm)"
TIMEOUT = limits.ARXIV_DEADLINE
MIN_INTERVAL = 3.0  # arXiv asks for at least 3 s between API requests
RETRIES = 3

T = TypeVar("T")


class NetworkError(Exception):
    """arXiv could not be reached or answered with an error; the message is for the user."""


class Pacer:
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


pacer = Pacer(MIN_INTERVAL)  # shared by every request to arXiv (RSS and API)


def backoff_seconds(attempt: int, retry_after: str | None) -> float:
    """How long to wait before retry number `attempt` (0-based) after a 'busy' answer."""
    if retry_after and retry_after.strip().isdigit():
        return min(float(retry_after), 60.0)
    return min(2.0 ** (attempt + 1), 30.0) + random.uniform(0, 1)


class Busy(Exception):
    """arXiv asked us to come back later (HTTP 429 or 503); raised by an exchange that
    `polite` should retry."""

    def __init__(self, status: int, retry_after: str | None = None) -> None:
        super().__init__(status)
        self.status, self.retry_after = status, retry_after


def polite(exchange: Callable[[], T], what: str, retries: int = RETRIES) -> T:
    """Run `exchange` (one request to arXiv, or one search) through the shared pacer; while
    it raises Busy, wait (backoff_seconds) and run it again, at most `retries` more times.

    `what` names the source in the message of the NetworkError raised when arXiv stays busy.
    """
    for attempt in range(retries + 1):
        try:
            return pacer.run(exchange)
        except Busy as exc:
            if attempt < retries:
                time.sleep(backoff_seconds(attempt, exc.retry_after))
                continue
            raise NetworkError(f"{what}: arXiv answered HTTP {exc.status} (busy)") from None
    raise AssertionError("unreachable")  # pragma: no cover


def too_slow(what: str, seconds: float) -> NetworkError:
    """The error for an answer that did not complete within `seconds`."""
    return NetworkError(f"{what}: arXiv did not finish answering within {seconds:g} s")


def get(url: str, what: str, timeout: float = TIMEOUT, retries: int = RETRIES) -> bytes:
    """GET `url` politely; `what` names the source in error messages ("RSS feed").

    Each attempt must finish within `timeout` seconds in total; a busy arXiv is asked again
    at most `retries` times. Raises NetworkError, with a one-line message for the user, for
    every failure.
    """
    return polite(lambda: _get_once(url, what, timeout), what, retries)


def _get_once(url: str, what: str, timeout: float) -> bytes:
    """One GET (httpio: a whole-request deadline, a capped answer), its failures as
    NetworkError (or Busy)."""
    import http.client  # here, not at the top: a start from the cache needs no HTTP

    from paperterm.io import httpio, limits

    try:
        return httpio.request(url, what=what, headers={"User-Agent": USER_AGENT},
                              deadline=timeout).body
    except limits.InputTooSlow:
        raise too_slow(what, timeout) from None
    except limits.InputTooLarge as exc:
        raise NetworkError(str(exc)) from None
    except httpio.HttpFailure as exc:
        answer = exc.answer
        if answer.status in (429, 503):
            raise Busy(answer.status, answer.header("Retry-After")) from None
        raise NetworkError(f"{what}: arXiv answered HTTP {answer.status} {answer.reason}"
                           ) from None
    except OSError as exc:
        raise NetworkError(f"{what}: arXiv is unreachable ({httpio.one_line(exc)})") from None
    except http.client.HTTPException as exc:  # garbage or a truncated answer
        raise NetworkError(f"{what}: broken answer from arXiv ({type(exc).__name__})") from None
