"""Papers, announcement days and the fetch log."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from datetime import date
from operator import itemgetter

from paperterm.models import Paper
from paperterm.store.db import Queries
from paperterm.store.fts import reindex
from paperterm.text.hygiene import clean_paper

SAMPLE_FEED = "sample"  # the feed key the bundled sample day is cached under
# the categories the bundled sample day lists: every lookup of that feed's days finds the
# sample's day too (`--date`, `[`/`]`, the latest cached day), as the library lists it
SAMPLE_OF = "cs.AI+cs.LG"


def feeds_of(feed: str) -> tuple[str, ...]:
    """The feed keys a lookup of `feed`'s days reads: the sample's with its categories'."""
    return (feed, SAMPLE_FEED) if feed == SAMPLE_OF else (feed,)


def feeds_sql(feed: str) -> tuple[str, tuple[str, ...]]:
    """`feed IN (...)` over `feeds_of(feed)`, and its arguments."""
    keys = feeds_of(feed)
    return f"feed IN ({','.join('?' * len(keys))})", keys


class PaperQueries(Queries):
    def save_day(
        self,
        feed: str,
        day: date | None,
        papers: Sequence[Paper],
        *,
        source: str,
        fetched_for: date | str | None = None,
        approximate: bool = False,
    ) -> None:
        """Store papers and (when day is known) their announcement, in one transaction.

        Every text field is cleaned on the way in (hygiene.clean_paper), whoever made the papers.
        """
        now = time.time()
        papers = [clean_paper(p) for p in papers]
        rows = [_paper_row(p, now) for p in papers]
        with self.transaction() as c:
            unchanged = {(r[0], r[1], r[2], r[3], r[4]) for r in self.select_in(
                """SELECT id, version, title, authors, abstract FROM papers
                   WHERE id IN ({marks})""", (), [p.id for p in papers])}
            c.executemany(
                """INSERT INTO papers (id, version, title, authors, abstract, categories,
                   primary_category, doi, journal_ref, comment, published, first_seen)
                   VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
                   ON CONFLICT(id, version) DO UPDATE SET
                     title=excluded.title, authors=excluded.authors, abstract=excluded.abstract,
                     categories=excluded.categories, primary_category=excluded.primary_category,
                     doi=coalesce(excluded.doi, papers.doi),
                     journal_ref=coalesce(excluded.journal_ref, papers.journal_ref),
                     comment=coalesce(excluded.comment, papers.comment),
                     published=coalesce(excluded.published, papers.published)""",
                rows,
            )
            # the full-text index: only papers that are new or whose text changed
            reindex(c, [r[0] for r in rows if r[:5] not in unchanged])
            if day is not None:
                iso = day.isoformat()
                c.execute("DELETE FROM announcements WHERE feed=? AND day=?", (feed, iso))
                c.executemany(
                    "INSERT OR IGNORE INTO announcements VALUES (?,?,?,?,?,?)",
                    [
                        (feed, iso, i, p.id, p.version or 0, p.announce_type)
                        for i, p in enumerate(papers)
                    ],
                )
            if fetched_for is not None:
                c.execute(
                    "INSERT OR REPLACE INTO fetches VALUES (?,?,?,?,?,?)",
                    (
                        feed,
                        fetched_for if isinstance(fetched_for, str) else fetched_for.isoformat(),
                        day.isoformat() if day else None,
                        source,
                        int(approximate),
                        now,
                    ),
                )

    def fetch_record(self, feed: str, fetched_for: date) -> sqlite3.Row | None:
        return self.conn.execute(
            "SELECT * FROM fetches WHERE feed=? AND fetched_for=?", (feed, fetched_for.isoformat())
        ).fetchone()

    def day_papers(self, feed: str, day: date) -> list[Paper]:
        """The papers of `feed`'s day, in announcement order; for the sample's categories,
        the sample's day when only it is cached (`is_sample_day`)."""
        papers = self._day_papers(feed, day)
        if not papers and feed == SAMPLE_OF:
            papers = self._day_papers(SAMPLE_FEED, day)
        return papers

    def is_sample_day(self, feed: str, day: date) -> bool:
        """Whether `feed`'s day is the bundled sample's alone (no announcement of the feed
        itself is cached for it)."""
        if feed != SAMPLE_OF:
            return False
        found = {r[0] for r in self.conn.execute(
            "SELECT DISTINCT feed FROM announcements WHERE feed IN (?,?) AND day=?",
            (SAMPLE_OF, SAMPLE_FEED, day.isoformat()))}
        return found == {SAMPLE_FEED}

    def _day_papers(self, feed: str, day: date) -> list[Paper]:
        cursor = self.conn.cursor()
        cursor.row_factory = None  # plain tuples: a day is read on every start
        rows = cursor.execute(
            """SELECT p.id, p.version, p.title, p.authors, p.abstract, p.categories,
                      p.primary_category, a.announce_type, p.doi, p.journal_ref, p.comment,
                      p.published, a.position
               FROM announcements a JOIN papers p ON p.id=a.id AND p.version=a.version
               WHERE a.feed=? AND a.day=?""",
            (feed, day.isoformat()),
        ).fetchall()
        # in announcement order, sorted here: SQLite's ORDER BY sorted whole rows, abstracts
        # and all (a third of the time to read a day of 5,000 papers)
        rows.sort(key=itemgetter(12))
        lists = _json_lists([x for r in rows for x in (r[3], r[5])])
        return [Paper.restored(id=i, version=v or None, title=t, authors=tuple(lists[2 * n]),
                               abstract=ab, categories=tuple(lists[2 * n + 1]),
                               primary_category=pc, announce_type=at, doi=doi, journal_ref=jr,
                               comment=c, published=pub)
                for n, (i, v, t, _au, ab, _cats, pc, at, doi, jr, c, pub, _pos)
                in enumerate(rows)]

    def latest_day(self, feed: str, before: date | None = None) -> date | None:
        where, keys = feeds_sql(feed)
        sql = f"SELECT max(day) FROM announcements WHERE {where}"
        args: list[str] = list(keys)
        if before is not None:
            sql += " AND day<=?"
            args.append(before.isoformat())
        value = self.conn.execute(sql, args).fetchone()[0]
        return date.fromisoformat(value) if value else None

    def is_approximate(self, feed: str, day: date) -> bool:
        row = self.conn.execute(
            "SELECT approximate FROM fetches WHERE feed=? AND day=? ORDER BY fetched_at DESC",
            (feed, day.isoformat()),
        ).fetchone()
        return bool(row and row[0])

    def earlier_versions(self, papers: Sequence[Paper]) -> dict[str, Paper]:
        """For each paper with a known version, the highest cached version below it (the
        one the user kept before a revision), by id; papers with none are left out (a first
        version has none: only later ones are looked up, a day's few replacements), and so
        are papers of which a higher version is cached (a stale copy revises nothing)."""
        wanted = {p.id: p.version for p in papers if p.version and p.version > 1}
        highest: dict[str, int] = {}  # the versions first (whole rows only for those needed)
        newer: set[str] = set()  # a higher version is known: this copy is stale, no revision
        for pid, version in self.select_in(
                "SELECT id, version FROM papers WHERE id IN ({marks})", (), list(wanted)):
            if version > (wanted[pid] or 0):
                newer.add(pid)
            elif version < (wanted[pid] or 0) and version > highest.get(pid, 0):
                highest[pid] = version
        for pid in newer:
            highest.pop(pid, None)
        rows = self.select_in(
            """SELECT *, 'new' AS announce_type FROM papers WHERE id IN ({marks})""",
            (), list(highest))
        return {r["id"]: _row_paper(r) for r in rows if r["version"] == highest[r["id"]]}

    def paper_count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM papers").fetchone()[0]


def _json_lists(texts: list[str]) -> list[list]:
    """Decode many small JSON arrays at once (one parse instead of thousands)."""
    try:
        out = json.loads("[" + ",".join(texts) + "]")
        if len(out) == len(texts):
            return out
    except ValueError:
        pass
    return [json.loads(t) for t in texts]  # a damaged row: fail on it as one parse would


def _paper_row(p: Paper, now: float) -> tuple:
    return (
        p.id,
        p.version or 0,
        p.title,
        json.dumps(list(p.authors), ensure_ascii=False),
        p.abstract,
        json.dumps(list(p.categories)),
        p.primary_category,
        p.doi,
        p.journal_ref,
        p.comment,
        p.published,
        now,
    )


def _row_paper(r: sqlite3.Row) -> Paper:
    return Paper(
        id=r["id"],
        version=r["version"] or None,
        title=r["title"],
        authors=tuple(json.loads(r["authors"])),
        abstract=r["abstract"],
        categories=tuple(json.loads(r["categories"])),
        primary_category=r["primary_category"],
        announce_type=r["announce_type"],
        doi=r["doi"],
        journal_ref=r["journal_ref"],
        comment=r["comment"],
        published=r["published"],
    )
