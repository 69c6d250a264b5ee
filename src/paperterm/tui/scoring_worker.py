"""The bodies of the scoring worker threads: the LLM run (the score-a-day service,
`services.scoring`) and the local rankings, each posting typed messages tagged with its
worker to the screen that started it.

They run in Textual thread workers, after the list is on screen: only here are the scoring
engine and litellm imported. Each opens its own store (one per thread).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from paperterm.models import Paper, Topic
from paperterm.scoring.types import Score
from paperterm.settings import ScoringSettings
from paperterm.tui.messages import (
    LocalScores,
    ScoresArrived,
    ScoringFailed,
    ScoringFinished,
    ScoringMessage,
    ScoringProgress,
    UnsureFound,
)
from paperterm.tui.workers import Job, Target, current_job, post

if TYPE_CHECKING:
    from paperterm.scoring.local.unsure import UnsureQueue
    from paperterm.scoring.ranking_process import RankingProcess
    from paperterm.services.scoring import ScoringEvent
    from paperterm.store import StoreFactory


def score_in_thread(
    target: Target,
    papers: list[Paper],
    topic: Topic,
    settings: ScoringSettings,
    open_store: StoreFactory,
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
    from paperterm.services import scoring as service

    worker = current_job()

    def send(event: service.ScoringEvent) -> None:
        post(target, _as_message(worker, event))

    service.score_day(papers, topic, settings, open_store=open_store, on_event=send, day=day,
                      whole_day=prefilter_day, cancel=cancel, fresh=fresh)


def _as_message(worker: Job, event: ScoringEvent) -> ScoringMessage:
    """The service's event as the typed message the day screen handles."""
    from paperterm.services import scoring as service

    if isinstance(event, service.ScoresArrived):
        return ScoresArrived(worker, event.scores)
    if isinstance(event, service.ScoringProgress):
        return ScoringProgress(worker, event.summary)
    if isinstance(event, service.ScoringFinished):
        return ScoringFinished(worker, event.summary)
    return ScoringFailed(worker, event.error)


# -- local rankings ---------------------------------------------------------------------


class LocalRanking(NamedTuple):
    """Where a local ranking runs: `process` (the reader's ranking process, over the database
    at `db_path`), else, or when that process fails, in the worker thread over a store from
    `open_store`."""

    process: RankingProcess | None
    db_path: Path
    open_store: StoreFactory

    def rank(self, papers: list[Paper], topic: Topic, label: str,
             keywords_only: bool) -> tuple[list[Score] | None, str]:
        """The scores, and a notice when the ranking process failed (ranked here instead)."""
        from paperterm.scoring.ranking_process import RankingProcessFailed

        notice = ""
        if self.process is not None and self.process.usable:
            try:
                return self.process.rank(self.db_path, papers, topic, day=label,
                                         keywords_only=keywords_only), ""
            except RankingProcessFailed as exc:
                if self.process.closed:  # the reader is closing: nothing more to rank
                    return None, ""
                notice = (f"Local ranking: {exc}; ranking in the reader instead (keys may "
                          "lag meanwhile).")
        return self._in_thread(papers, topic, label, keywords_only), notice

    def unsure(self, papers: list[Paper], topic: Topic, label: str, ranked: list[str],
               exclude: frozenset[str]) -> tuple[UnsureQueue, str]:
        """The unsure queue (scoring.local.unsure), and a notice when the ranking process
        failed (found here instead)."""
        from paperterm.scoring.local.unsure import unsure_papers
        from paperterm.scoring.ranking_process import RankingProcessFailed
        from paperterm.store import open_or_unavailable

        notice = ""
        if self.process is not None and self.process.usable:
            try:
                return self.process.unsure(self.db_path, papers, topic, day=label,
                                           ranked=ranked, exclude=exclude), ""
            except RankingProcessFailed as exc:
                notice = f"Unsure queue: {exc}; worked out in the reader instead."
        store = open_or_unavailable(self.open_store)
        try:
            return unsure_papers(store, papers, topic, ranked, exclude=exclude), notice
        finally:
            store.close()

    def _in_thread(self, papers: list[Paper], topic: Topic, label: str,
                   keywords_only: bool) -> list[Score] | None:
        from paperterm.scoring.local import rank_locally
        from paperterm.store import open_or_unavailable

        store = open_or_unavailable(self.open_store)  # none: no cache, the scores still come
        try:
            return rank_locally(store, papers, topic, day=label, keywords_only=keywords_only)
        finally:
            store.close()


def rank_in_thread(target: Target, papers: list[Paper], topic: Topic, where: LocalRanking,
                   label: str, keywords_first: bool) -> None:
    """The learned local ranking (keyword scores first, with `keywords_first`), posted to
    `target` as `LocalScores` of this worker."""
    job = current_job()
    if keywords_first:
        keywords, notice = where.rank(papers, topic, label, keywords_only=True)
        post(target, LocalScores(job, topic, keywords, notice=notice))
    scores, notice = where.rank(papers, topic, label, keywords_only=False)
    post(target, LocalScores(job, topic, scores, notice=notice))


def unsure_in_thread(target: Target, papers: list[Paper], topic: Topic, where: LocalRanking,
                     label: str, ranked: list[str], exclude: frozenset[str]) -> None:
    """The papers the learned model is least sure about, posted to `target` as
    `UnsureFound` of this worker."""
    queue, notice = where.unsure(papers, topic, label, ranked, exclude)
    post(target, UnsureFound(current_job(), topic, queue.ids, queue.how, notice))


def provisional_in_thread(target: Target, papers: list[Paper], topic: Topic,
                          where: LocalRanking, label: str, *, keywords_first: bool) -> None:
    """The local values to lay under the papers the model did not score: the day's blend
    (`day.scores.stand_in_ranking` makes the same call), the keyword scores first with
    `keywords_first`."""
    if keywords_first:
        keywords, notice = where.rank(papers, topic, label, keywords_only=True)
        post(target, LocalScores(current_job(), topic, keywords, provisional=True,
                                 notice=notice))
    scores, notice = where.rank(papers, topic, label, keywords_only=False)
    post(target, LocalScores(current_job(), topic, scores, provisional=True, notice=notice))
