"""The local scorer's results, cached per day, topic criteria and scorer version: a second
start of the same day ranks from one row instead of re-scoring every paper."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from paperterm.store.db import Queries

Row = tuple[str, int | None, int, str, float]  # id, version, relevance, reason, fine score
# the keyword ranking, the current learned one, and the two before (a star taken back)
KEEP_PER_DAY_TOPIC = 4


class LocalScoreQueries(Queries):
    def local_scores(self, day_key: str, topic_fp: str, scorer_version: str,
                     papers_fp: str, *, newest_of: bool = False) -> list[Row] | None:
        """The cached scores, or None when absent or made for another set of papers.
        `newest_of`: the version is a prefix, and the newest such ranking of these papers
        wins (the day's list before its latest marks)."""
        where, version = _matching(scorer_version, newest_of)
        row = self.conn.execute(
            f"SELECT scores FROM local_scores WHERE day_key=? AND topic_fp=? AND {where} "
            "AND papers_fp=? ORDER BY created_at DESC, rowid DESC LIMIT 1",
            (day_key, topic_fp, version, papers_fp)).fetchone()
        if row is None:
            return None
        try:
            return [(str(i), None if v is None else int(v), int(r), str(why), float(f))
                    for i, v, r, why, f in json.loads(row["scores"])]
        except (ValueError, TypeError):
            return None

    def scores_in_days(self, day_keys: Sequence[str], topic_fp: str,
                       scorer_version: str, *, newest_of: bool = False) -> dict[str, Row]:
        """Paper id -> its score in any cached ranking of these days for this topic criteria
        and scorer version (whatever set of papers each was made for). `newest_of`: the
        version is a prefix, and the newest ranking a paper is in wins (the one its day list
        shows until the day is ranked again)."""
        out: dict[str, Row] = {}
        where, version = _matching(scorer_version, newest_of)
        for row in self.select_in(
                f"SELECT scores FROM local_scores WHERE topic_fp=? AND {where} "
                "AND day_key IN ({marks}) ORDER BY created_at", (topic_fp, version),
                list(day_keys)):
            try:
                for i, v, r, why, f in json.loads(row["scores"]):
                    out[str(i)] = (str(i), None if v is None else int(v), int(r), str(why),
                                   float(f))
            except (ValueError, TypeError):
                continue
        return out

    def save_local_scores(self, day_key: str, topic_fp: str, scorer_version: str,
                          papers_fp: str, scores: list[Row]) -> None:
        """Cache `scores`, keeping only the newest KEEP_PER_DAY_TOPIC rankings of this day and
        topic (each star makes a new learned ranking: a row of every paper's score each)."""
        with self.transaction() as c:
            c.execute(
                "INSERT OR REPLACE INTO local_scores (day_key, topic_fp, scorer_version, "
                "papers_fp, scores, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (day_key, topic_fp, scorer_version, papers_fp,
                 json.dumps(scores, ensure_ascii=False, separators=(",", ":")), time.time()))
            c.execute(
                "DELETE FROM local_scores WHERE day_key=? AND topic_fp=? AND rowid NOT IN "
                "(SELECT rowid FROM local_scores WHERE day_key=? AND topic_fp=? "
                "ORDER BY created_at DESC, rowid DESC LIMIT ?)",
                (day_key, topic_fp, day_key, topic_fp, KEEP_PER_DAY_TOPIC))


def _matching(scorer_version: str, prefix: bool) -> tuple[str, str]:
    """The WHERE term and its parameter for a scorer version, or for every version that
    starts with it."""
    if not prefix:
        return "scorer_version=?", scorer_version
    escaped = scorer_version.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return "scorer_version LIKE ? ESCAPE '\\'", escaped + "%"
