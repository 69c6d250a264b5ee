"""Running the engine: `score_papers` (async), `run_scoring` (sync) and `run_task` for any
Task. This is what `paperterm.scoring` exports lazily; importing it does not import litellm.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TypeVar

from paperterm.models import Paper, Topic
from paperterm.scoring.engine import Cancel, Engine, ProgressCallback
from paperterm.scoring.provider import aclose_llm_clients
from paperterm.scoring.task import FreshScoringTask, ScoringTask, Task
from paperterm.scoring.types import RunSummary, Score
from paperterm.settings import ScoringSettings
from paperterm.store import StoreFactory

R = TypeVar("R")
ScoresCallback = Callable[[list[Score]], None]


def _unique(papers: Sequence[Paper]) -> list[Paper]:
    seen: dict[str, Paper] = {}
    for p in papers:
        seen.setdefault(p.id, p)
    return list(seen.values())


async def run_task(
    task: Task[R],
    papers: Sequence[Paper],
    settings: ScoringSettings,
    *,
    open_store: StoreFactory,
    on_results: Callable[[list[R]], None] | None = None,
    on_progress: ProgressCallback | None = None,
    cancel: Cancel | None = None,
    day: str | None = None,
) -> RunSummary:
    """Run `task` over the distinct papers: cached results first, then the rest. Every
    paper ends with exactly one result passed to `on_results`. `day` is the announcement
    day the requests are paid for (budget_period = "day"; default: today)."""
    store = open_store()
    try:
        engine = Engine(task, _unique(papers), settings, store.scores, on_results=on_results,
                        on_progress=on_progress, cancel=cancel, day=day)
        return await engine.run()
    finally:
        store.close()


async def score_papers(
    papers: Sequence[Paper],
    topic: Topic,
    settings: ScoringSettings,
    *,
    open_store: StoreFactory,
    on_scores: ScoresCallback | None = None,
    on_progress: ProgressCallback | None = None,
    cancel: Cancel | None = None,
    day: str | None = None,
    fresh: bool = False,
) -> RunSummary:
    """Score papers with the configured model: cached scores first, then the rest (`fresh`:
    a forced rescore, every paper asked again).

    Every (distinct) paper ends with exactly one Score passed to `on_scores`: "cached",
    "scored" or "unscored" (with `error`). Raises ScoringError for failures that stop the
    run (authentication, unknown model, unreachable api_base, unknown price with a budget).
    """
    task = (FreshScoringTask if fresh else ScoringTask)(topic, settings.include_authors)
    return await run_task(task, papers, settings, open_store=open_store, on_results=on_scores,
                          on_progress=on_progress, cancel=cancel, day=day)


def run_scoring(
    papers: Sequence[Paper],
    topic: Topic,
    settings: ScoringSettings,
    *,
    open_store: StoreFactory,
    on_scores: ScoresCallback | None = None,
    on_progress: ProgressCallback | None = None,
    cancel: Cancel | None = None,
    day: str | None = None,
    fresh: bool = False,
) -> RunSummary:
    """Synchronous wrapper (for a worker thread or the headless CLI). Pass a
    threading.Event as `cancel` to stop it from another thread."""

    async def main() -> RunSummary:
        try:
            return await score_papers(papers, topic, settings, open_store=open_store,
                                      on_scores=on_scores, on_progress=on_progress,
                                      cancel=cancel, day=day, fresh=fresh)
        finally:
            await aclose_llm_clients()

    return asyncio.run(main())
