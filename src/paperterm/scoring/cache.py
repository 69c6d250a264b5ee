"""Scores in the SQLite cache (tables `score_requests` and `scores` of the Store).

Key: paper id + version (0 = unknown) + topic fingerprint + model + PROMPT_VERSION.
Only real scores are stored; unscored papers are not, so the next run retries them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from paperterm.models import Paper, Topic
from paperterm.scoring.prompt import PROMPT_VERSION
from paperterm.scoring.types import Score, ScoringSettings
from paperterm.store import Store

_CHUNK = 500


@dataclass
class NewScore:
    paper: Paper
    relevance: int
    novelty: int | None
    reason: str


def cached_scores(
    store: Store, papers: Sequence[Paper], topic: Topic, settings: ScoringSettings
) -> dict[str, Score]:
    """Paper id -> Score(status="cached") for every paper already scored with this key."""
    if not settings.model or not papers:
        return {}
    versions = {p.id: p.version or 0 for p in papers}
    ids = list(versions)
    out: dict[str, Score] = {}
    fp = topic.fingerprint
    for i in range(0, len(ids), _CHUNK):
        chunk = ids[i : i + _CHUNK]
        marks = ",".join("?" * len(chunk))
        rows = store.conn.execute(
            f"""SELECT id, version, relevance, novelty, reason FROM scores
                WHERE topic_fp=? AND model=? AND prompt_version=? AND id IN ({marks})""",
            (fp, settings.model, PROMPT_VERSION, *chunk),
        ).fetchall()
        for r in rows:
            if r["version"] != versions[r["id"]] or r["relevance"] is None:
                continue
            out[r["id"]] = Score(
                paper_id=r["id"],
                version=r["version"] or None,
                relevance=r["relevance"],
                novelty=r["novelty"],
                reason=r["reason"],
                status="cached",
            )
    return out


def earlier_cost(
    store: Store, papers: Sequence[Paper], topic: Topic, settings: ScoringSettings
) -> tuple[int, int, float | None]:
    """(prompt tokens, completion tokens, dollars) of the requests that produced the cached
    scores of these papers; dollars None when any of those requests had an unknown price."""
    ids = [p.id for p in papers]
    requests: set[int] = set()
    for i in range(0, len(ids), _CHUNK):
        chunk = ids[i : i + _CHUNK]
        marks = ",".join("?" * len(chunk))
        requests.update(r[0] for r in store.conn.execute(
            f"""SELECT DISTINCT request_id FROM scores WHERE topic_fp=? AND model=?
                AND prompt_version=? AND request_id IS NOT NULL AND id IN ({marks})""",
            (topic.fingerprint, settings.model, PROMPT_VERSION, *chunk),
        ))
    prompt = completion = 0
    cost: float | None = 0.0
    ordered = sorted(requests)
    for i in range(0, len(ordered), _CHUNK):
        chunk = ordered[i : i + _CHUNK]
        marks = ",".join("?" * len(chunk))
        for r in store.conn.execute(
            f"""SELECT prompt_tokens, completion_tokens, cost FROM score_requests
                WHERE request_id IN ({marks})""", chunk):
            prompt += r[0]
            completion += r[1]
            cost = None if cost is None or r[2] is None else cost + r[2]
    return prompt, completion, cost


def save_request(
    store: Store,
    *,
    model: str,
    topic: Topic,
    n_papers: int,
    prompt_tokens: int,
    completion_tokens: int,
    cost: float | None,
    scores: Sequence[NewScore],
) -> int:
    """Record one answered request and the scores it gave, in one transaction."""
    now = time.time()
    c = store.conn
    c.execute("BEGIN IMMEDIATE")
    try:
        cur = c.execute(
            """INSERT INTO score_requests (model, n_papers, prompt_tokens, completion_tokens,
               cost, created_at) VALUES (?,?,?,?,?,?)""",
            (model, n_papers, prompt_tokens, completion_tokens, cost, now),
        )
        request_id = int(cur.lastrowid or 0)
        c.executemany(
            """INSERT OR REPLACE INTO scores (id, version, topic_fp, model, prompt_version,
               relevance, novelty, reason, request_id, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)""",
            [
                (
                    s.paper.id,
                    s.paper.version or 0,
                    topic.fingerprint,
                    model,
                    PROMPT_VERSION,
                    s.relevance,
                    s.novelty,
                    s.reason,
                    request_id,
                    now,
                )
                for s in scores
            ],
        )
        c.execute("COMMIT")
    except BaseException:
        c.execute("ROLLBACK")
        raise
    return request_id
