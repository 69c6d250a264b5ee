"""Announcement days in the cache: which days of a feed are cached or known to be empty, the
nearest cached day, and the papers announced over a range of days. Every query reads an
index over (feed, day) or (day), so its cost follows the days asked for, not the cache size.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import date

from paperterm.models import Paper
from paperterm.store.db import Queries
from paperterm.store.papers import _row_paper, feeds_sql


class DayQueries(Queries):
    def cached_days(self, feed: str, start: date, end: date) -> set[date]:
        """The days in [start, end] with at least one announcement of this feed (the sample's
        day among its categories', `feeds_of`)."""
        where, keys = feeds_sql(feed)
        rows = self.conn.execute(
            f"SELECT DISTINCT day FROM announcements WHERE {where} AND day BETWEEN ? AND ?",
            (*keys, start.isoformat(), end.isoformat()))
        return {date.fromisoformat(r[0]) for r in rows}

    def empty_days(self, feed: str, start: date, end: date) -> set[date]:
        """Days in [start, end] arXiv was asked about and announced nothing for this feed
        (holidays): an API answer without papers, or an empty RSS feed fetched that day."""
        rows = self.conn.execute(
            """SELECT CASE WHEN fetched_for LIKE 'api:%' THEN substr(fetched_for, 5)
                           ELSE fetched_for END AS d FROM fetches
               WHERE feed = ? AND ((fetched_for BETWEEN ? AND ? AND day IS NULL)
                     OR fetched_for BETWEEN ? AND ?)""",
            (feed, start.isoformat(), end.isoformat(), f"api:{start.isoformat()}",
             f"api:{end.isoformat()}")).fetchall()
        asked = {date.fromisoformat(r[0]) for r in rows}
        return asked - self.cached_days(feed, start, end)

    def nearest_cached_day(self, feed: str, day: date, step: int) -> date | None:
        """The closest cached day of this feed strictly before (step < 0) or after `day`."""
        where, keys = feeds_sql(feed)
        sql = (f"SELECT max(day) FROM announcements WHERE {where} AND day < ?" if step < 0
               else f"SELECT min(day) FROM announcements WHERE {where} AND day > ?")
        value = self.conn.execute(sql, (*keys, day.isoformat())).fetchone()[0]
        return date.fromisoformat(value) if value else None

    def announced_since(self, since: date, until: date | None = None,
                        ) -> list[tuple[Paper, str]]:
        """Papers first announced on a day in [since, until] (any feed), with that day,
        newest day first: the latest cached version of each."""
        until_sql = "AND day <= ?" if until else ""
        args = [since.isoformat(), *([until.isoformat()] if until else [])]
        rows = self.conn.execute(
            f"""SELECT p.*, a.day AS day,
                       (SELECT announce_type FROM announcements b
                        WHERE b.id = a.id AND b.day = a.day LIMIT 1) AS announce_type
                FROM (SELECT id, min(day) AS day FROM announcements
                      INDEXED BY announcements_by_day
                      WHERE day >= ? {until_sql} GROUP BY id) a
                JOIN papers p ON p.id = a.id
                     AND p.version = (SELECT max(version) FROM papers WHERE id = a.id)
                WHERE NOT EXISTS (SELECT 1 FROM announcements c
                                  WHERE c.id = a.id AND c.day < a.day)
                ORDER BY a.day DESC, p.id""", args).fetchall()
        return [(_row_paper(r), r["day"]) for r in rows]

    def announced_before(self, ids: Iterable[str], day: date) -> dict[str, str]:
        """For each of `ids` announced on a day before `day` (in any feed; searches are no
        announcements), the first such day (ISO)."""
        rows = self.select_in(
            """SELECT id, min(day) FROM announcements INDEXED BY announcements_by_id
               WHERE day < ? AND feed NOT LIKE 'query:%' AND id IN ({marks}) GROUP BY id""",
            (day.isoformat(),), list(ids))
        return {r[0]: r[1] for r in rows}

    def titles_held_elsewhere(self, holders: Mapping[str, str]) -> set[str]:
        """Of `holders` (a title lower-cased as SQLite's lower() does -> the id holding it),
        the titles a cached paper under another id holds too: one query over the
        papers_by_title index, returning only those few (a day's titles are nearly all
        its own)."""
        rows = self.conn.execute(
            """SELECT DISTINCT json_each.key FROM json_each(?)
               JOIN papers AS p INDEXED BY papers_by_title ON lower(p.title) = json_each.key
               WHERE p.id != json_each.value""", (json.dumps(dict(holders)),))
        return {r[0] for r in rows}

    def same_titles(self, titles: Iterable[str]) -> list[tuple[str, str, str]]:
        """(id, title, authors JSON) of cached papers whose title is one of `titles` up to
        ASCII case (SQLite's lower(), over the papers_by_title index)."""
        rows = self.select_in(
            "SELECT DISTINCT id, title, authors FROM papers WHERE lower(title) IN ({marks})",
            (), sorted({ascii_lower(t) for t in titles}))
        return [(r[0], r[1], r[2]) for r in rows]


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """`text` lower-cased as SQLite's lower() does (ASCII letters only)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)
