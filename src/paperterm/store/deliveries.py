"""Which digests were delivered where: a day already sent is not sent again."""

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
