"""The reader's writes to the store (star, seen, saved) that survive a locked database.

Plain Python, no Textual. A write is tried at once with a short busy wait (the reader must
not freeze); if another program holds the database's lock, it is kept and tried again on
each `retry()` (the app calls it from a timer), in order, until it succeeds or `ATTEMPTS`
retries have failed: then it is dropped and its description returned, so the user is told.
Any other database error fails the write at once, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from paperterm.services.storage import Store, is_busy

Op = Callable[[Store], None]


@dataclass
class _Pending:
    what: str  # "star 2602.20191", for the notice if it is given up
    op: Op
    tries: int = 0


class StoreWrites:
    ATTEMPTS = 30  # retries (one a second from the app's timer) before giving up
    def __init__(self, busy_wait: float = 0.2) -> None:
        self.pending: list[_Pending] = []
        self.busy_wait = busy_wait  # seconds a write waits for a lock before it is queued

    def run(self, store: Store, what: str, op: Op) -> str | None:
        """Write now, or queue the write behind a lock. Returns an error message when the
        write failed for another reason (nothing is queued then)."""
        if self.pending:  # keep the order: a later star must not overtake an earlier one
            self.pending.append(_Pending(what, op))
            return None
        return self._attempt(store, _Pending(what, op))

    def retry(self, store: Store) -> list[str]:
        """Try the queued writes again; the messages of those given up or failed."""
        failed: list[str] = []
        while self.pending:
            item = self.pending.pop(0)
            item.tries += 1
            error = self._attempt(store, item, front=True)
            if error is not None:
                failed.append(error)
            elif self.pending and self.pending[0] is item:  # still locked: later
                if item.tries >= self.ATTEMPTS:
                    self.pending.pop(0)
                    failed.append(f"could not save {item.what}: the database stayed locked "
                                  "by another program")
                    continue
                break
        return failed

    def _attempt(self, store: Store, item: _Pending, front: bool = False) -> str | None:
        try:
            store.set_busy_timeout(self.busy_wait)
            item.op(store)
        except Exception as exc:
            if is_busy(exc):
                if front:
                    self.pending.insert(0, item)
                else:
                    self.pending.append(item)
                return None
            return f"could not save {item.what}: {' '.join(str(exc).split())}"
        return None

    def clear(self) -> list[str]:
        """Forget the queued writes (the reader is closing); what they were."""
        lost, self.pending = [p.what for p in self.pending], []
        return lost
