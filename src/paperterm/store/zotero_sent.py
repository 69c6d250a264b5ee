"""Which papers went to which Zotero library, so that sending again adds no duplicates."""

from __future__ import annotations

import time
from collections.abc import Sequence

from paperterm.store.db import Queries


class ZoteroSentQueries(Queries):
    def sent_to_zotero(self, target: str, ids: Sequence[str]) -> set[str]:
        """Those of `ids` (bare arXiv ids) already sent to `target`."""
        return {r[0] for r in self.select_in(
            "SELECT id FROM zotero_sent WHERE target=? AND id IN ({marks})", (target,), ids)}

    def record_zotero_sent(self, target: str, ids: Sequence[str]) -> None:
        now = time.time()
        with self.transaction() as c:
            c.executemany("INSERT OR REPLACE INTO zotero_sent (id, target, sent_at) "
                          "VALUES (?, ?, ?)", [(i, target, now) for i in ids])
