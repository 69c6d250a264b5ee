"""Papers the user already keeps elsewhere (a Zotero library, a .bib file), recorded by
`paperterm learn --topic T` as positives for the ranking of topic T."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import NamedTuple

from paperterm.store.db import Queries


class Positive(NamedTuple):
    id: str  # arXiv id without version
    title: str = ""
    abstract: str = ""


class PositiveQueries(Queries):
    def replace_positives(self, source: str, positives: Iterable[Positive], topic: str,
                          ) -> tuple[int, int]:
        """Make `positives` the whole set recorded from `source` for `topic` (a library or file
        read in full: what left it leaves the set). Returns (now recorded, newly added)."""
        rows = {p.id: p for p in positives}
        now = time.time()
        with self.transaction() as c:
            before = {r[0] for r in c.execute(
                "SELECT id FROM positives WHERE source=? AND topic=?", (source, topic))}
            c.execute("DELETE FROM positives WHERE source=? AND topic=?", (source, topic))
            c.executemany(
                "INSERT INTO positives (id, source, topic, title, abstract, added_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(p.id, source, topic, p.title, p.abstract, now) for p in rows.values()])
        return len(rows), len(rows.keys() - before)

    def positives(self, source: str | None = None, *, topic: str | None = None,
                  ) -> list[Positive]:
        """Every recorded positive (one per id, whatever the source), or one source's, or
        one topic's."""
        where, args = [], []
        if source is not None:
            where.append("source=?")
            args.append(source)
        if topic is not None:
            where.append("topic=?")
            args.append(topic)
        sql = "SELECT id, max(title), max(abstract) FROM positives"
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = self.conn.execute(sql + " GROUP BY id ORDER BY id", args).fetchall()
        return [Positive(r[0], r[1], r[2]) for r in rows]

    def liked_ids(self, topic: str) -> list[str]:
        """Papers starred or saved one by one in the reader under `topic`, most recently saved
        first."""
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM user_state WHERE (starred = 1 AND star_topic = ?) "
            "OR (saved_at IS NOT NULL AND saved_topic = ?) "
            "ORDER BY coalesce(saved_at, 0) DESC, id", (topic, topic))]
