"""Request pacing: requests-per-minute spacing, Retry-After, exponential backoff with jitter."""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from typing import Any

BACKOFF_BASE = 0.5  # seconds before the first retry
BACKOFF_CAP = 20.0
MAX_RETRY_AFTER = 90.0  # a server asking for longer than this is treated as a failure


class Pacer:
    """Spaces request starts to honour an rpm limit, and holds every sender back while the
    server has asked us to wait (a 429's Retry-After applies to all requests, not one)."""

    def __init__(self, rpm: float = 0.0) -> None:
        self.interval = 60.0 / rpm if rpm and rpm > 0 else 0.0
        self._next_slot = 0.0
        self._hold_until = 0.0

    def hold(self, seconds: float) -> None:
        """No request may start for `seconds` from now."""
        self._hold_until = max(self._hold_until, time.monotonic() + seconds)

    async def wait_turn(self) -> None:
        while True:
            now = time.monotonic()
            if now < self._hold_until:
                await asyncio.sleep(self._hold_until - now)
                continue
            slot = max(now, self._next_slot)
            self._next_slot = slot + self.interval  # reserved: later senders queue behind
            if slot > now:
                await asyncio.sleep(slot - now)
                if time.monotonic() < self._hold_until:
                    continue  # a Retry-After arrived while we waited
            return


def backoff_delay(attempt: int, base: float = BACKOFF_BASE, cap: float = BACKOFF_CAP) -> float:
    """Exponential backoff with jitter for retry number `attempt` (0-based): half fixed,
    half random, so concurrent retries spread out."""
    ceiling = min(cap, base * (2**attempt))
    return ceiling / 2 + random.uniform(0, ceiling / 2)


def _header(headers: Any, name: str) -> str | None:
    if headers is None:
        return None
    try:
        value = headers.get(name)
    except Exception:
        return None
    return str(value) if value is not None else None


def _response_headers(exc: BaseException) -> list[Any]:
    found = []
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is not None:
        found.append(headers)
    response = getattr(exc, "response", None)
    if response is not None:
        found.append(getattr(response, "headers", None))
    found.append(getattr(exc, "headers", None))
    return [h for h in found if h is not None]


def retry_after_seconds(exc: BaseException) -> float | None:
    """What the server's Retry-After (or retry-after-ms) header asks for, in seconds."""
    for headers in _response_headers(exc):
        ms = _header(headers, "retry-after-ms")
        if ms is not None:
            try:
                return max(0.0, float(ms) / 1000.0)
            except ValueError:
                pass
        value = _header(headers, "retry-after")
        if value is None:
            continue
        try:
            return max(0.0, float(value))
        except ValueError:
            pass
        parsed = email.utils.parsedate_tz(value)
        if parsed is not None:
            return max(0.0, email.utils.mktime_tz(parsed) - time.time())
    return None
