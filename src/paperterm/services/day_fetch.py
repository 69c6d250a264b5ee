"""The reader's fetch of a day in the background, one at a time: `DayFetches` owns the
session's `pending` request and knows which fetch's outcome still counts.

The first day that needs the network, `R`, a topic switch to other categories and `[` /
`]`, `D`, `W` all start their fetch here (`begin`) and hand it each outcome (`settle`); the
rules live once. An outcome counts only from the fetch under way: one given up for another
day (`abandon`) or arriving after the reader began to quit (`cancel`) is dropped. A job is
whatever `start` returns (the reader's daemon thread), compared by identity: no generation
counters. No Textual here: tested on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperterm.day.session import HeldSession
    from paperterm.sources.loader import LoadRequest

Start = Callable[["LoadRequest"], object]  # starts fetching a request; returns the job


class DayFetches:
    """The fetch under way for a reader's session (`held`, replaced through it only)."""

    def __init__(self, held: HeldSession) -> None:
        self._held = held
        self._job: object | None = None  # the fetch whose outcome counts
        self._req: LoadRequest | None = None  # what it fetches
        self._kept = False  # a topic switch waits for it: another day does not replace it
        self._closed = False  # the reader quits: nothing starts, no outcome counts

    @property
    def pending(self) -> LoadRequest | None:
        """The request being fetched (the session's `pending`), None when none is."""
        return self._held.session.pending

    @property
    def busy(self) -> bool:
        """Whether a day is being fetched (a second one waits until it is in)."""
        return self.pending is not None

    @property
    def kept(self) -> bool:
        """Whether the fetch under way is kept: `abandon` does not give it up."""
        return self._job is not None and self._kept

    def begin(self, req: LoadRequest, start: Start, *, keep: bool = False) -> bool:
        """Fetch `req` with `start(req)`, the session's pending request from now on (it may
        already be: what start-up left pending). False, and nothing starts, while another
        fetch is pending or once the reader quits. `keep`: `abandon` leaves this one be."""
        pending = self.pending
        if self._closed or self._job is not None or (pending is not None and pending is not req):
            return False
        if pending is not req:
            self._held.update(pending=req)
        self._job, self._req, self._kept = start(req), req, keep
        return True

    def abandon(self) -> bool:
        """Stop waiting for the fetch under way (the user went to another day): its outcome
        is dropped when it comes, and nothing is pending. False while it is kept."""
        if self.kept:
            return False
        self._forget()
        if self.pending is not None:
            self._held.update(pending=None)
        return True

    def settle(self, job: object) -> LoadRequest | None:
        """`job` has its outcome (a day or why not): the request it fetched if that outcome
        counts, the fetch then over (nothing pending). None: drop it (an abandoned or
        replaced fetch, another job's event, or the reader quits); nothing changes."""
        if self._closed or job is None or job is not self._job:
            return None
        req = self._req
        self._forget()
        if self.pending is not None:
            self._held.update(pending=None)
        return req

    def cancel(self) -> None:
        """The reader quits: no outcome counts from now on, and no fetch starts (a thread
        under way, a daemon, ends by its deadline)."""
        self._closed = True
        self._forget()

    def _forget(self) -> None:
        self._job, self._req, self._kept = None, None, False
