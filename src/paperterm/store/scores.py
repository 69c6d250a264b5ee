"""Cached LLM scores and the requests (tokens, dollars) that produced them.

Key: paper id + version (0 = unknown) + topic fingerprint + model + prompt version (the
scoring task's kind: another task stores its rows under its own). The scoring package owns
what these mean; this module only stores and finds them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from paperterm.store.db import Queries


@dataclass(frozen=True)
class ScoreRow:
    """One cached result: a paper version's judgement (or, for a task without scores, its
    text in `reason`) under one cache key."""

    paper_id: str
    version: int  # 0: unknown
    relevance: int | None
    novelty: int | None
    reason: str


class ScoreQueries(Queries):
    def score_rows(self, ids: Sequence[str], *, topic_fp: str, model: str,
                   prompt_version: str) -> list[ScoreRow]:
        """Stored rows of these paper ids under one key, any version: the caller checks."""
        return [ScoreRow(r[0], r[1], r[2], r[3], r[4]) for r in self.select_in(
            """SELECT id, version, relevance, novelty, reason FROM scores
               WHERE topic_fp=? AND model=? AND prompt_version=? AND id IN ({marks})""",
            (topic_fp, model, prompt_version), ids)]

    def models_scored(self, ids: Sequence[str], *, topic_fp: str,
                      prompt_version: str) -> list[str]:
        """The models with a stored relevance for any of these ids under this topic and
        prompt version, by name."""
        return sorted({r[0] for r in self.select_in(
            """SELECT DISTINCT model FROM scores WHERE topic_fp=? AND prompt_version=?
               AND relevance IS NOT NULL AND id IN ({marks})""",
            (topic_fp, prompt_version), ids)})

    def request_totals(self, ids: Sequence[str], *, topic_fp: str, model: str,
                       prompt_version: str) -> tuple[int, int, float | None]:
        """(prompt tokens, completion tokens, dollars) of the requests that produced the
        stored scores of these ids; dollars None when any of them had an unknown price."""
        requests = sorted({r[0] for r in self.select_in(
            """SELECT DISTINCT request_id FROM scores WHERE topic_fp=? AND model=?
               AND prompt_version=? AND request_id IS NOT NULL AND id IN ({marks})""",
            (topic_fp, model, prompt_version), ids)})
        prompt = completion = 0
        cost: float | None = 0.0
        for r in self.select_in(
                """SELECT prompt_tokens, completion_tokens, cost FROM score_requests
                   WHERE request_id IN ({marks})""", (), requests):
            prompt += r[0]
            completion += r[1]
            cost = None if cost is None or r[2] is None else cost + r[2]
        return prompt, completion, cost

    def claim(self, keys: Sequence[tuple[str, int]], *, topic_fp: str, model: str,
              prompt_version: str, owner: str, ttl: float,
              owner_gone: Callable[[str], bool] | None = None) -> set[str]:
        """Claim (paper id, version) keys for `owner` for `ttl` seconds; returns the ids
        now claimed by `owner`. Keys another owner holds unexpired are left to it, unless
        `owner_gone` says that owner no longer exists (a killed process)."""
        now = time.time()
        key = (topic_fp, model, prompt_version)
        with self.transaction() as c:
            held = {pid for pid, other in c.execute(
                """SELECT id, owner FROM score_claims WHERE topic_fp=? AND model=?
                   AND prompt_version=? AND owner<>? AND expires_at>?""",
                (*key, owner, now)) if owner_gone is None or not owner_gone(other)}
            mine = [(pid, v) for pid, v in keys if pid not in held]
            c.executemany(
                """INSERT OR REPLACE INTO score_claims (id, version, topic_fp, model,
                   prompt_version, owner, expires_at) VALUES (?,?,?,?,?,?,?)""",
                [(pid, v, *key, owner, now + ttl) for pid, v in mine])
        return {pid for pid, _ in mine}

    def release(self, ids: Sequence[str], *, topic_fp: str, model: str,
                prompt_version: str, owner: str) -> None:
        """Give up `owner`'s claims on these ids (all of them when `ids` is empty)."""
        with self.transaction() as c:
            if not ids:
                c.execute("DELETE FROM score_claims WHERE owner=? OR expires_at<?",
                          (owner, time.time()))
                return
            c.executemany(
                """DELETE FROM score_claims WHERE id=? AND topic_fp=? AND model=?
                   AND prompt_version=? AND owner=?""",
                [(pid, topic_fp, model, prompt_version, owner) for pid in ids])

    def spent_on(self, day: str) -> float:
        """Dollars of every scoring request paid for announcement `day` (any model, any
        topic; requests of unknown price count 0)."""
        row = self.conn.execute(
            "SELECT COALESCE(SUM(cost), 0) FROM score_requests WHERE day=?", (day,)).fetchone()
        return float(row[0] or 0.0)

    def save_scores(self, rows: Sequence[ScoreRow], *, topic_fp: str, model: str,
                    prompt_version: str, n_papers: int, prompt_tokens: int,
                    completion_tokens: int, cost: float | None, day: str | None = None) -> int:
        """Record one answered request (for `n_papers` papers) and the scores it gave, in
        one transaction; returns the request id."""
        now = time.time()
        with self.transaction() as c:
            cur = c.execute(
                """INSERT INTO score_requests (model, n_papers, prompt_tokens,
                   completion_tokens, cost, created_at, day) VALUES (?,?,?,?,?,?,?)""",
                (model, n_papers, prompt_tokens, completion_tokens, cost, now, day),
            )
            request_id = int(cur.lastrowid or 0)
            c.executemany(
                """INSERT OR REPLACE INTO scores (id, version, topic_fp, model, prompt_version,
                   relevance, novelty, reason, request_id, created_at)
                   VALUES (?,?,?,?,?,?,?,?,?,?)""",
                [(r.paper_id, r.version, topic_fp, model, prompt_version, r.relevance,
                  r.novelty, r.reason, request_id, now) for r in rows],
            )
        return request_id
