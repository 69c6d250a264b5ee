"""The bodies of the scoring worker threads: the LLM run (the score-a-day service,
`services.scoring`) and the local rankings, each posting messages tagged with its
worker to the screen that started it.

They run in Textual thread workers, after the list is on screen: only here are the scoring
engine and litellm imported. Each opens its own store (one per thread).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic
from paperterm.settings import ScoringSettings
from paperterm.tui.messages import LocalScores, ServiceEvent, UnsureFound
from paperterm.tui.workers import Target, current_job, post

if TYPE_CHECKING:
    from paperterm.services.ranking import LocalRanking
    from paperterm.services.storage import StoreFactory


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
    """Score `papers` and post every event of the service to `target` as a `ServiceEvent`
    of this worker.

    Never raises: any failure becomes a `ScoringFailed` event (no traceback in the reader).
    `cancel` is polled by the engine; once set, the run stops at its next step. `day` is the
    announcement day the spend counts towards (budget_period = "day"). With
    `prefilter_day` (the day's key and all its papers) and `settings.prefilter`, only the
    papers `--prefilter` sends are scored; the others arrive at once with local scores.
    `fresh` forces a rescore (cached scores are not used).
    """
    from paperterm.services import scoring as service

    worker = current_job()

    def send(event: service.ScoringEvent) -> None:
        post(target, ServiceEvent(worker, event))

    service.score_day(papers, topic, settings, open_store=open_store, on_event=send, day=day,
                      whole_day=prefilter_day, cancel=cancel, fresh=fresh)


# -- local rankings (where each runs: `services.ranking.LocalRanking`) -------------------


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


def check_ranking_in_thread(target: Target, papers: list[Paper], topic: Topic,
                            open_store: StoreFactory, label: str) -> None:
    """The day's cached blend if it is current (taught what the user taught it now), else
    `stale`, posted to `target` as `LocalScores` of this worker. Reading what the user
    taught it grows with the marks (a year of papers read): never before the first paint."""
    from paperterm.services.ranking import current_blend

    scores = current_blend(open_store, papers, topic, label)
    post(target, LocalScores(current_job(), topic, scores, stale=scores is None))


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
