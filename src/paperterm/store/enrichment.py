"""Enrichment cached per (paper, source): Hugging Face, Semantic Scholar, code links."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

from paperterm.store.db import Queries


class EnrichmentQueries(Queries):
    def enrichment(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """{id: {source: data}} for what is cached (sources that know nothing are left out)."""
        out: dict[str, dict[str, Any]] = {}
        for pid, source, data in self.select_in(
                "SELECT id, source, data FROM enrichment WHERE id IN ({marks}) "
                "AND data IS NOT NULL", (), list(ids)):
            try:
                value = json.loads(data)
            except ValueError:
                continue
            if isinstance(value, dict):
                out.setdefault(pid, {})[source] = value
        return out

    def enriched_since(self, source: str, ids: Iterable[str], since: float) -> set[str]:
        """The ids whose `source` was asked at or after `since` (found or not)."""
        return {r[0] for r in self.select_in(
            "SELECT id FROM enrichment WHERE source=? AND fetched_at>=? AND id IN ({marks})",
            (source, since), list(ids))}

    def put_enrichment(self, source: str, found: Mapping[str, dict[str, Any] | None]) -> None:
        """Record what `source` said about each id (None: it does not know the paper)."""
        now = time.time()
        with self.transaction() as c:
            c.executemany(
                "INSERT INTO enrichment (id, source, data, fetched_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id, source) DO UPDATE SET data=excluded.data, "
                "fetched_at=excluded.fetched_at",
                [(pid, source, None if d is None else json.dumps(d), now)
                 for pid, d in found.items()])
