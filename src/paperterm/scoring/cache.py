"""Results in the SQLite cache, as the engine sees them (the SQL is in `store.scores`).

Key: paper id + version (0 = unknown) + the task's key (topic fingerprint, kind) + model;
the scoring task's kind is PROMPT_VERSION. Only real results are stored; papers given up on
are not, so the next run retries them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from paperterm.models import Paper, Topic
from paperterm.scoring.task import ScoringTask, Task
from paperterm.scoring.types import Score
from paperterm.settings import ScoringSettings
from paperterm.store import ScoreCache, ScoreRow

R = TypeVar("R")


def cached_results(cache: ScoreCache, task: Task[R], papers: Sequence[Paper],
                   model: str) -> dict[str, R]:
    """Paper id -> cached result, for every paper with a usable row for this version."""
    if not model or not papers:
        return {}
    by_id = {p.id: p for p in papers}
    key = task.key
    out: dict[str, R] = {}
    for row in cache.score_rows(list(by_id), topic_fp=key.topic_fp, model=model,
                                prompt_version=key.kind):
        paper = by_id[row.paper_id]
        if row.version != (paper.version or 0):
            continue
        result = task.from_row(paper, row)
        if result is not None:
            out[paper.id] = result
    return out


def earlier_totals(cache: ScoreCache, task: Task[R], papers: Sequence[Paper],
                   model: str) -> tuple[int, int, float | None]:
    """(prompt tokens, completion tokens, dollars) of the requests that produced the cached
    results of these papers; dollars None when any of those requests had an unknown price."""
    key = task.key
    return cache.request_totals([p.id for p in papers], topic_fp=key.topic_fp, model=model,
                                prompt_version=key.kind)


def save_answer(cache: ScoreCache, task: Task[R], *, model: str, n_papers: int,
                prompt_tokens: int, completion_tokens: int, cost: float | None,
                rows: Sequence[ScoreRow], day: str | None = None) -> int:
    """Record one answered request (paid for announcement `day`) and the results it gave,
    in one transaction."""
    key = task.key
    return cache.save_scores(rows, topic_fp=key.topic_fp, model=model,
                             prompt_version=key.kind, n_papers=n_papers,
                             prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                             cost=cost, day=day)


# -- the scoring task's cache, as the TUI and the CLI use it ---------------------------------


def cached_scores(
    cache: ScoreCache, papers: Sequence[Paper], topic: Topic, settings: ScoringSettings
) -> dict[str, Score]:
    """Paper id -> Score(status="cached") for every paper already scored with this key."""
    return cached_results(cache, ScoringTask(topic), papers, settings.model)


def earlier_cost(
    cache: ScoreCache, papers: Sequence[Paper], topic: Topic, settings: ScoringSettings
) -> tuple[int, int, float | None]:
    """`earlier_totals` of the scoring task."""
    return earlier_totals(cache, ScoringTask(topic), papers, settings.model)
