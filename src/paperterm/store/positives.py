"""Papers the user already keeps elsewhere (a Zotero library, a .bib file), recorded by
`paperterm learn` as positives for the ranking that learns."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from paperterm.store.db import Queries


@dataclass(frozen=True)
class Positive:
    id: str  # arXiv id without version
    title: str = ""
    abstract: str = ""


class PositiveQueries(Queries):
    def replace_positives(self, source: str, positives: Iterable[Positive]) -> tuple[int, int]:
        """Make `positives` the whole set recorded from `source` (a library or file read in
        full: what left it leaves the set). Returns (now recorded, newly added)."""
        rows = {p.id: p for p in positives}
        now = time.time()
        with self.transaction() as c:
            before = {r[0] for r in c.execute("SELECT id FROM positives WHERE source=?",
                                              (source,))}
            c.execute("DELETE FROM positives WHERE source=?", (source,))
            c.executemany(
                "INSERT INTO positives (id, source, title, abstract, added_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [(p.id, source, p.title, p.abstract, now) for p in rows.values()])
        return len(rows), len(rows.keys() - before)

    def positives(self, source: str | None = None) -> list[Positive]:
        """Every recorded positive (one per id, whatever the source), or one source's."""
        sql = "SELECT id, max(title), max(abstract) FROM positives"
        args: tuple[str, ...] = ()
        if source is not None:
            sql += " WHERE source=?"
            args = (source,)
        rows = self.conn.execute(sql + " GROUP BY id ORDER BY id", args).fetchall()
        return [Positive(r[0], r[1], r[2]) for r in rows]

    def liked_ids(self) -> list[str]:
        """Papers starred or saved to a .bib file in the reader, most recently saved first."""
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM user_state WHERE starred = 1 OR saved_at IS NOT NULL "
            "ORDER BY coalesce(saved_at, 0) DESC, id")]
