"""Claims in the store, so that two processes scoring the same papers do not both pay.

Before a batch is sent its papers are claimed (for a time well past the request's
deadline; a claim whose process is gone from this machine counts as ended at once, so a
killed run never blocks the next). Papers another process
holds are not sent: the engine waits for that process's results in the cache and only asks
about papers whose claim ended without a result. A store that cannot record claims never
stops scoring: everything is then treated as ours.
"""

from __future__ import annotations

import contextlib
import os
import socket
import uuid
from collections.abc import Sequence
from typing import Any

from paperterm.models import Paper
from paperterm.store import ScoreCache

WAIT_POLL = 0.5  # seconds between looks at the cache for another process's results
HOST = socket.gethostname()


def owner_name() -> str:
    """A claim's owner: this machine, this process, and a nonce (two runs in one process)."""
    return f"{HOST}:{os.getpid()}-{uuid.uuid4().hex[:12]}"


def owner_gone(owner: str) -> bool:
    """True when `owner` was a process of this machine that no longer runs. Another
    machine's claims (a shared database) are never judged: they run to their expiry."""
    host, _, rest = owner.rpartition(":")
    pid = rest.split("-", 1)[0]
    if host != HOST or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, but not ours to signal
        return False
    return False


class Claims:
    def __init__(self, cache: ScoreCache, key: Any, model: str, ttl: float) -> None:
        self.cache, self.model, self.ttl = cache, model, ttl
        self.topic_fp, self.kind = key.topic_fp, key.kind
        self.owner = owner_name()

    def take(self, papers: Sequence[Paper]) -> tuple[list[Paper], list[Paper]]:
        """(papers now ours, papers another process is asking about)."""
        try:
            mine = self.cache.claim([(p.id, p.version or 0) for p in papers],
                                           topic_fp=self.topic_fp, model=self.model,
                                           prompt_version=self.kind, owner=self.owner, ttl=self.ttl,
                                           owner_gone=owner_gone)
        except Exception:  # locked or read-only store: never a reason not to score
            return list(papers), []
        return [p for p in papers if p.id in mine], [p for p in papers if p.id not in mine]

    def release(self, papers: Sequence[Paper] | None = None) -> None:
        """Give up our claims on `papers` (None: on every paper)."""
        if papers is not None and not papers:
            return
        with contextlib.suppress(Exception):  # else they expire on their own
            self.cache.release([p.id for p in papers or ()], topic_fp=self.topic_fp,
                                      model=self.model, prompt_version=self.kind, owner=self.owner)
