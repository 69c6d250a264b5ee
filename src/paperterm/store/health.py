"""What `paperterm doctor` asks of the database: is it intact, and what does it hold."""

from __future__ import annotations

from typing import NamedTuple

from paperterm.store.db import Queries


class Health(NamedTuple):
    check: str  # SQLite's quick_check: "ok", or the first problem found
    papers: int
    days: int
    schema_version: int


class HealthQueries(Queries):
    def health(self) -> Health:
        c = self.conn
        check = str(c.execute("PRAGMA quick_check(1)").fetchone()[0])
        papers = c.execute("SELECT count(DISTINCT id) FROM papers").fetchone()[0]
        days = c.execute("SELECT count(DISTINCT day) FROM announcements").fetchone()[0]
        version = c.execute("PRAGMA user_version").fetchone()[0]
        return Health(check, int(papers), int(days), int(version))
