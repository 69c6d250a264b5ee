"""The bodies of the scoring worker threads: the LLM run (the scoring facade) and the local
rankings, each reporting by messages tagged with its worker.

They run in Textual thread workers, after the list is on screen: only here are the scoring
engine and litellm imported. Each opens its own store (one per thread).
"""

from __future__ import annotations

import copy
import threading
from pathlib import Path
from typing import Any

from paperterm.models import Paper, Topic
from paperterm.scoring.types import RunSummary, Score, ScoringSettings
from paperterm.tui.messages import (
    LocalScores,
    ScoresArrived,
    ScoringFailed,
    ScoringFinished,
    ScoringMessage,
    ScoringProgress,
)
from paperterm.tui.workers import Target, current_job, post


def score_in_thread(
    target: Target,
    papers: list[Paper],
    topic: Topic,
    settings: ScoringSettings,
    db_path: Path,
    cancel: threading.Event,
    day: str | None = None,
    prefilter_day: tuple[str, list[Paper]] | None = None,
    fresh: bool = False,
) -> None:
    """Score `papers` and post every outcome to `target`, tagged with this worker.

    Never raises: any failure becomes a `ScoringFailed` message (no traceback in the reader).
    `cancel` is polled by the engine; once set, the run stops at its next step. `day` is the
    announcement day the spend counts towards (budget_period = "day"). With
    `prefilter_day` (the day's key and all its papers) and `settings.prefilter`, only the
    papers `--prefilter` sends are scored; the others arrive at once with local scores.
    `fresh` forces a rescore (cached scores are not used).
    """
    from paperterm.scoring import ScoringError, run_scoring

    worker = current_job()

    def send(message: ScoringMessage) -> None:
        post(target, message)

    def on_scores(scores: list[Score]) -> None:
        send(ScoresArrived(worker, list(scores)))

    def on_progress(summary: RunSummary) -> None:
        send(ScoringProgress(worker, copy.copy(summary)))  # the engine keeps counting on

    held: list[Score] = []
    extras = None
    try:
        if prefilter_day is not None and settings.prefilter:
            papers, held, extras = _prefilter(papers, topic, settings, db_path,
                                              *prefilter_day)
            if held:
                on_scores(held)
        summary = run_scoring(papers, topic, settings, db_path=db_path,
                              on_scores=on_scores, on_progress=on_progress, cancel=cancel,
                              day=day, fresh=fresh)
        if held:
            from paperterm.scoring.prefilter import estimate_saved

            estimate_saved(summary, held, prefilter_day[1] if prefilter_day else papers)
        if extras:
            summary.notices.append(extras)
    except ScoringError as exc:
        send(ScoringFailed(worker, str(exc)))
        return
    except Exception as exc:  # never a traceback in the reader
        send(ScoringFailed(worker, f"scoring failed: {type(exc).__name__}: {exc}"))
        return
    send(ScoringFinished(worker, summary))


def _prefilter(papers: list[Paper], topic: Topic, settings: ScoringSettings, db_path: Path,
               day_key: str, day: list[Paper],
               ) -> tuple[list[Paper], list[Score], str | None]:
    """Which of `papers` (not yet scored) `--prefilter` sends, judged against the whole day,
    the local scores of those it holds back, and what it sent beyond the top part."""
    from paperterm.scoring.prefilter import extras_notice, prefilter_day
    from paperterm.store import Store

    try:
        store: Store | None = Store.open(db_path)
    except Exception:  # no cache: the split is made without stars and cached scores
        store = None
    try:
        split = prefilter_day(store, day_key, day, topic, settings.prefilter, settings.model)
    finally:
        if store is not None:
            store.close()
    todo = {p.id for p in papers}
    return ([p for p in split.send if p.id in todo],
            [s for s in split.held if s.paper_id in todo], extras_notice(split))


# -- local rankings ---------------------------------------------------------------------


def _open_store(db_path: Path) -> Any:
    from paperterm.store import Store

    try:
        return Store.open(db_path)
    except Exception:  # no cache this time; the scores still come
        return None


def rank_in_thread(target: Target, papers: list[Paper], topic: Topic, db_path: Path,
                   label: str, keywords_first: bool) -> None:
    """The learned local ranking (keyword scores first, with `keywords_first`), posted to
    `target` as `LocalScores` of this worker."""
    from paperterm.scoring import cached_local_scores
    from paperterm.scoring.blend import learned_local_scores

    job = current_job()
    store = _open_store(db_path)
    try:
        if keywords_first:
            keywords = cached_local_scores(store, label, papers, topic)
            post(target, LocalScores(job, topic, keywords))
        scores = learned_local_scores(store, label, papers, topic)
    finally:
        if store is not None:
            store.close()
    post(target, LocalScores(job, topic, scores))


def provisional_in_thread(target: Target, papers: list[Paper], topic: Topic, db_path: Path,
                          label: str) -> None:
    """Keyword scores to lay under the papers the model did not score."""
    from paperterm.scoring import cached_local_scores

    job = current_job()
    store = _open_store(db_path)
    try:
        scores = cached_local_scores(store, label, papers, topic)
    finally:
        if store is not None:
            store.close()
    post(target, LocalScores(job, topic, scores, provisional=True))
