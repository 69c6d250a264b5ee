"""Which digests were delivered where: a day already sent is not sent again, a revision
of a kept paper already told about is not told again."""

from __future__ import annotations

import time

from paperterm.store.db import Queries


class DeliveryQueries(Queries):
    def delivered(self, day: str, topic: str, channel: str) -> float | None:
        """When the digest of `day` for `topic` went out through `channel`, else None."""
        row = self.conn.execute(
            "SELECT sent_at FROM deliveries WHERE day=? AND topic=? AND channel=?",
            (day, topic, channel)).fetchone()
        return row[0] if row else None

    def record_delivery(self, day: str, topic: str, channel: str, target: str) -> None:
        self.conn.execute(
            """INSERT INTO deliveries (day, topic, channel, target, sent_at)
               VALUES (?, ?, ?, ?, ?)
               ON CONFLICT(day, topic, channel) DO UPDATE
               SET target=excluded.target, sent_at=excluded.sent_at""",
            (day, topic, channel, target, time.time()))

    def revisions_sent(self, revisions: list[tuple[str, int]], channel: str,
                       ) -> set[tuple[str, int]]:
        """Which (id, version) of `revisions` went out through `channel` already."""
        wanted = set(revisions)
        rows = self.select_in("SELECT id, version FROM revisions_sent WHERE channel=? "
                              "AND id IN ({marks})", (channel,), sorted({i for i, _ in wanted}))
        return {(r[0], r[1]) for r in rows} & wanted

    def record_revisions(self, revisions: list[tuple[str, int]], channel: str) -> None:
        """Record the (id, version) revisions told through `channel`."""
        self.conn.executemany("INSERT OR IGNORE INTO revisions_sent VALUES (?, ?, ?, ?)",
                              [(i, v, channel, time.time()) for i, v in revisions])
