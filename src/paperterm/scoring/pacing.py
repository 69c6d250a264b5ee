"""Request pacing: requests-per-minute spacing, and holding everyone back on a 429.

How long to wait (backoff, Retry-After) is decided in `policy`; this only waits.
"""

from __future__ import annotations

import asyncio
import time


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

