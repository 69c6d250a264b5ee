"""Paper embeddings, cached per paper and model: the day's papers are embedded once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from paperterm.store.db import Queries


class EmbeddingQueries(Queries):
    def embeddings(self, model: str, ids: Sequence[str]) -> dict[str, tuple[str, bytes]]:
        """Paper id -> (text fingerprint, float32 vector bytes) for those cached."""
        return {r[0]: (r[1], bytes(r[2])) for r in self.select_in(
            "SELECT id, text_fp, vector FROM paper_embeddings WHERE model=? AND id IN ({marks})",
            (model,), ids)}

    def save_embeddings(self, model: str, rows: Iterable[tuple[str, str, bytes]]) -> None:
        """Store (paper id, text fingerprint, vector bytes) rows, replacing older ones."""
        with self.transaction() as c:
            c.executemany(
                "INSERT OR REPLACE INTO paper_embeddings (id, model, text_fp, vector) "
                "VALUES (?, ?, ?, ?)", [(i, model, fp, v) for i, fp, v in rows])
