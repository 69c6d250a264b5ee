"""The library across days: any cached paper by id, starred and tagged papers of every day,
full-text search and similar papers over everything cached."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import date
from typing import NamedTuple

from paperterm.models import Paper
from paperterm.store.db import Queries
from paperterm.store.fts import (
    HIT_CLOSE,
    HIT_OPEN,
    WEIGHTS,
    Query,
    SearchFailed,
    index_error,
    parse,
)
from paperterm.store.notes import normal_tag
from paperterm.store.papers import _row_paper

# the latest cached version of each paper, and the day it was first announced (else the day
# it was first cached, for papers found by a query)
_LATEST = "p.version = (SELECT max(version) FROM papers WHERE id = p.id)"
_DAY = ("coalesce((SELECT min(a.day) FROM announcements a WHERE a.id = p.id), "
        "date(p.first_seen, 'unixepoch', 'localtime'))")
# how the paper was announced on that first day (new, cross, ...): the local ranking's cues
# count it, so a paper found in the library scores as on its day ('new' for query results)
_ANNOUNCED = ("coalesce((SELECT a.announce_type FROM announcements a WHERE a.id = p.id "
              "ORDER BY a.day, a.feed LIMIT 1), 'new') AS announce_type")


RANKED = 10_000  # matches ranked at most per search (the newest): bounds a keystroke's cost


class SearchHit(NamedTuple):
    """One search result. `snippet` marks matches with fts.HIT_OPEN / HIT_CLOSE."""

    paper: Paper
    day: str
    snippet: str
    rank: float
    relevance: int | None = None


class Selection(NamedTuple):
    """Which cached papers: the filters every library query shares."""

    starred: bool = False
    tag: str | None = None
    day: date | None = None  # announced (or first cached) on this day
    since: date | None = None  # ... on or after this day
    starred_since: date | None = None  # starred on or after this (local) day

    def where(self) -> tuple[str, list[object]]:
        sql: list[str] = []
        args: list[object] = []
        if self.starred:
            sql.append("p.id IN (SELECT id FROM user_state WHERE starred = 1)")
        if self.starred_since:
            import datetime as dt

            sql.append("p.id IN (SELECT id FROM user_state WHERE starred = 1 "
                       "AND starred_at >= ?)")
            # (no star is older than the epoch: a day before it, 0001-01-01 too, is the epoch)
            day = max(self.starred_since, dt.date(1970, 1, 2))
            args.append(dt.datetime.combine(day, dt.time()).timestamp())
        if self.tag:
            sql.append("p.id IN (SELECT id FROM tags WHERE tag = ?)")
            args.append(normal_tag(self.tag))
        if self.day:
            sql.append(f"{_DAY} = ?")
            args.append(self.day.isoformat())
        if self.since:
            sql.append(f"{_DAY} >= ?")
            args.append(self.since.isoformat())
        return " AND ".join(sql) or "1", args


EVERY = Selection()  # every cached paper


class LibraryQueries(Queries):
    def cached_papers(self, ids: Iterable[str]) -> dict[str, Paper]:
        """The latest cached version of each of these ids that is in the cache."""
        return {r["id"]: _row_paper(r) for r in self.select_in(
            f"""SELECT p.*, {_ANNOUNCED} FROM papers p
                WHERE {_LATEST} AND p.id IN ({{marks}})""", (), list(ids))}

    def paper_days(self, ids: Iterable[str]) -> dict[str, str]:
        return {r[0]: r[1] for r in self.select_in(
            f"SELECT p.id, {_DAY} FROM papers p WHERE {_LATEST} AND p.id IN ({{marks}})",
            (), list(ids))}

    def announced(self, ids: Iterable[str]) -> dict[str, tuple[str, str]]:
        """The feed and day (ISO) each of these papers was first announced on, where known."""
        return {r[0]: (r[1], r[2]) for r in self.select_in(
            "SELECT id, feed, min(day) FROM announcements WHERE id IN ({marks}) GROUP BY id",
            (), list(ids))}

    def library_papers(self, sel: Selection) -> list[tuple[Paper, str]]:
        """Cached papers matching `sel` with their day, newest day first."""
        where, args = sel.where()
        rows = self.conn.execute(
            f"""SELECT p.*, {_ANNOUNCED}, {_DAY} AS day FROM papers p
                WHERE {_LATEST} AND {where} ORDER BY day DESC, p.id""", args).fetchall()
        return [(_row_paper(r), r["day"]) for r in rows]

    def search(self, query: str, *, limit: int = 50, sel: Selection = EVERY,
               topic_fp: str | None = None, exclude: Sequence[str] = ()) -> list[SearchHit]:
        """Cached papers matching `query` (see fts.parse), best first: those matching every
        term, then, when they are fewer than `limit`, the near misses: papers matching most
        of the terms (at least half), those matching more first."""
        parsed = parse(query)
        if parsed is None:
            return []
        try:
            return self._search(parsed, limit, sel, topic_fp, exclude)
        except sqlite3.OperationalError as exc:
            if not index_error(exc):
                raise
            raise SearchFailed(f"the search index could not run this query ({exc})") from None

    def _search(self, parsed: Query, limit: int, sel: Selection, topic_fp: str | None,
                exclude: Sequence[str]) -> list[SearchHit]:
        parsed = self._widened(parsed)
        hits = self._match(parsed.all_terms, limit, sel, topic_fp, exclude,
                           count=_in_title(parsed))
        if len(hits) >= limit or len(parsed.terms) < 2:
            return hits
        # terms no paper holds (a word half typed) are left out: the papers holding every
        # other term hold the most there are, and come first, found as cheaply as a match
        held = Query(tuple(t for t in parsed.terms if self._anywhere(t)), parsed.excluded)
        if len(held.terms) < parsed.near_miss_min:
            return hits
        if len(held.terms) < len(parsed.terms):
            seen = [*exclude, *(h.paper.id for h in hits)]
            hits += self._match(held.all_terms, limit - len(hits), sel, topic_fp, seen)
        if len(hits) < limit and len(held.terms) > 1:
            seen = [*exclude, *(h.paper.id for h in hits)]
            hits += self._match(held.any_term, limit - len(hits), sel, topic_fp, seen,
                                count=held, at_least=parsed.near_miss_min)
        return hits

    def _widened(self, parsed: Query) -> Query:
        """Each word matching its indexed forms: family, spelling, typo (`wordmatch`)."""
        from paperterm.store.wordmatch import Vocabulary, widen

        vocabulary = getattr(self.db, "_vocabulary", None)
        if vocabulary is None or vocabulary.conn is not self.conn:
            vocabulary = Vocabulary(self.conn)
            self.db._vocabulary = vocabulary  # type: ignore[attr-defined]
        return Query(tuple(widen(t, vocabulary) for t in parsed.terms),
                     tuple(widen(t, vocabulary) for t in parsed.excluded))

    def _anywhere(self, term: str) -> bool:
        """Whether any cached paper holds this FTS5 term."""
        return self.conn.execute("SELECT 1 FROM paper_fts WHERE paper_fts MATCH ? LIMIT 1",
                                 (term,)).fetchone() is not None

    def _match(self, expr: str, limit: int, sel: Selection, topic_fp: str | None,
               exclude: Sequence[str], count: Query | None = None,
               at_least: int = 0) -> list[SearchHit]:
        """Rank in the index alone (bm25 over the matches, at most the RANKED newest), then
        read papers, days, scores and snippets for the best `limit` only. With `count`: the
        matches holding at least `at_least` of its terms, those holding more first."""
        # starred/tag/excluded: small sets of ids, each read once through its index; a day
        # filter needs each paper's first day: checked per match, among the ranked ones
        sets: list[tuple[str, str]] = []  # (IN or NOT IN, ids)
        args: list[object] = []
        if sel.starred:
            sets.append(("IN", "SELECT id FROM user_state WHERE starred = 1"))
        if sel.tag:
            sets.append(("IN", "SELECT id FROM tags WHERE tag = ?"))
            args.append(normal_tag(sel.tag))
        if exclude:
            sets.append(("NOT IN", ",".join("?" * len(exclude))))
            args.extend(exclude)
        # unary +: a check on each match, not one full-text lookup per id of the set
        only = "".join(f"AND +paper_fts.rowid {op} (SELECT doc FROM fts_docs WHERE id IN ({ids})) "
                       for op, ids in sets)
        when, when_args = Selection(day=sel.day, since=sel.since).where()
        per_match = "" if when == "1" else f"""AND EXISTS (SELECT 1 FROM fts_docs d
            JOIN papers p ON p.id = d.id AND {_LATEST}
            WHERE d.doc = paper_fts.rowid AND {when})"""
        score = ("(SELECT relevance FROM scores s WHERE s.id = p.id AND s.topic_fp = ? "
                 "AND s.relevance IS NOT NULL ORDER BY s.created_at DESC LIMIT 1)"
                 if topic_fp else "NULL")
        weights = ", ".join(str(w) for w in WEIGHTS)
        # an index error is raised (the command says it), never swallowed into "no results"
        floor = self._newest_matches_floor(expr, only, args)
        terms = list(count.terms) if count is not None else []
        # per term: whether the match holds it (one index lookup per term, newest only)
        held = " + ".join(["(+paper_fts.rowid IN (SELECT rowid FROM paper_fts "
                           "WHERE paper_fts MATCH ? AND rowid >= ?))"] * len(terms)) or "0"
        held_args = [x for t in terms for x in (t, floor)]
        rows = self.conn.execute(f"""
            WITH top AS MATERIALIZED (
                SELECT paper_fts.rowid AS doc, bm25(paper_fts, {weights}) AS rank,
                       {held} AS held
                FROM paper_fts WHERE paper_fts MATCH ? AND paper_fts.rowid >= ? {only}
                {per_match} AND held >= ? ORDER BY held DESC, rank LIMIT ?)
            SELECT p.*, {_ANNOUNCED}, {_DAY} AS day, {score} AS relevance,
                   top.doc AS doc, top.rank AS rank
            FROM top JOIN fts_docs d ON d.doc = top.doc
            JOIN papers p ON p.id = d.id AND {_LATEST} ORDER BY top.held DESC, top.rank""",
            [*held_args, expr, floor, *args, *when_args, at_least, limit,
             *([topic_fp] if topic_fp else [])]).fetchall()
        snips = self._snippets(expr, floor, [r["doc"] for r in rows])
        return [SearchHit(_row_paper(r), r["day"], snips.get(r["doc"], ""), r["rank"],
                          r["relevance"]) for r in rows]

    def _snippets(self, expr: str, floor: int, docs: list[int]) -> dict[int, str]:
        """The abstract snippet, matches marked, of these index rows."""
        return {r[0]: r[1] for r in self.select_in(
            f"""SELECT rowid, snippet(paper_fts, 1, '{HIT_OPEN}', '{HIT_CLOSE}', '…', 28)
                FROM paper_fts WHERE paper_fts MATCH ? AND rowid >= ?
                AND rowid IN ({{marks}})""", (expr, floor), docs)}

    def _newest_matches_floor(self, expr: str, only: str, args: Sequence[object]) -> int:
        """The lowest index row ranked: 0 (all of them), or, when more than RANKED papers
        match, that of the RANKED-th newest match, so a query matching half of a large cache
        still answers within a keystroke (it ranks the newest RANKED matches, and a --since
        filter keeps those of them first announced since that day)."""
        row = self.conn.execute(
            f"""SELECT paper_fts.rowid FROM paper_fts WHERE paper_fts MATCH ? {only}
                ORDER BY paper_fts.rowid DESC LIMIT 1 OFFSET ?""",
            [expr, *args, RANKED - 1]).fetchone()
        return row[0] if row else 0


def _in_title(parsed: Query) -> Query | None:
    """The query's terms each limited to the title: the full matches holding more of them
    there (the query's words close together) come first. None for one term, or a term
    already limited to a field."""
    if len(parsed.terms) < 2 or any(re.match(r"\w+ : ", t) for t in parsed.terms):
        return None
    return Query(tuple(f"title : ({t})" for t in parsed.terms))
