"""Authors followed from the reader (the config's `follow` lists are read from the config)."""

from __future__ import annotations

import time

from paperterm.store.db import Queries


class FollowQueries(Queries):
    def followed_authors(self) -> list[str]:
        """Followed names, oldest first."""
        return [r[0] for r in self.conn.execute(
            "SELECT name FROM followed_authors ORDER BY added_at, name")]

    def set_followed(self, name: str, key: str, followed: bool) -> None:
        """Follow (or stop following) `name`; `key` is its comparison form: one row per key."""
        if followed:
            self.conn.execute(
                "INSERT INTO followed_authors (key, name, added_at) VALUES (?, ?, ?) "
                "ON CONFLICT(key) DO NOTHING", (key, name, time.time()))
        else:
            self.conn.execute("DELETE FROM followed_authors WHERE key=?", (key,))
