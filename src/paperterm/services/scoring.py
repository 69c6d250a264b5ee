"""Score a day, once for the CLI and the reader: the prefilter's split, the LLM run (cached
scores first), the estimate of what the prefilter saved; or, without a model, the local
ranking. Progress is reported as events; the CLI draws them as its progress line, the
reader's worker posts them as its typed messages.

Never raises for a failed run: a `ScoringFailed` event carries the error (and the
exception, for a caller that maps it to an exit code).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic
from paperterm.scoring.types import RunSummary, Score
from paperterm.settings import ScoringSettings

if TYPE_CHECKING:
    from paperterm.store import StoreFactory


@dataclass(frozen=True)
class ScoresArrived:
    """A batch of scores: new, cached, failed, or local ones the prefilter held back."""

    scores: list[Score]


@dataclass(frozen=True)
class ScoringProgress:
    """The run's running totals (a copy: the engine keeps counting on)."""

    summary: RunSummary


@dataclass(frozen=True)
class ScoringFinished:
    """The run ended (possibly early: `summary.stopped` says why)."""

    summary: RunSummary


@dataclass(frozen=True)
class ScoringFailed:
    """The run failed as a whole; `error` is the one line to show."""

    error: str
    exception: BaseException


ScoringEvent = ScoresArrived | ScoringProgress | ScoringFinished | ScoringFailed
OnEvent = Callable[[ScoringEvent], None]


def score_day(papers: Sequence[Paper], topic: Topic, settings: ScoringSettings, *,
              open_store: StoreFactory, on_event: OnEvent, day: str | None = None,
              whole_day: tuple[str, Sequence[Paper]] | None = None,
              cancel: threading.Event | None = None, fresh: bool = False,
              ) -> RunSummary | None:
    """Score `papers` for `topic`, reporting every outcome to `on_event`; the summary, or
    None when the run failed (a `ScoringFailed` event said why).

    `whole_day` (the day's key and all its papers): with `settings.prefilter`, only the
    papers `--prefilter` sends of that day are scored (judged against the whole day); the
    others arrive at once with their local scores, and what not sending them saved is
    estimated. Without a model (`settings.use_llm` false) the day's key names the cache of
    the local ranking. `day` is the announcement day the spend counts towards; `cancel`
    stops the run at its next step; `fresh` asks the model again for every paper."""
    try:
        if not settings.use_llm:
            summary = _rank_locally(papers, topic, open_store, whole_day, on_event)
        else:
            summary = _run(papers, topic, settings, open_store, on_event, day, whole_day,
                           cancel, fresh)
    except Exception as exc:  # never a traceback in the reader; the CLI decides
        from paperterm.scoring.types import ScoringError

        error = str(exc) if isinstance(exc, ScoringError) else (
            f"scoring failed: {type(exc).__name__}: {exc}")
        on_event(ScoringFailed(error, exc))
        return None
    on_event(ScoringFinished(summary))
    return summary


def one_per_paper(papers: Sequence[Paper], scores: dict[str, Score]) -> list[Score]:
    """One score per paper (same order): a paper the run did not report is unscored."""
    return [scores.get(p.id) or Score(p.id, p.version, None, None, "", "unscored",
                                      "no result from the scoring run") for p in papers]


def _rank_locally(papers: Sequence[Paper], topic: Topic, open_store: StoreFactory,
                  whole_day: tuple[str, Sequence[Paper]] | None,
                  on_event: OnEvent) -> RunSummary:
    """Keywords, closeness to the topic and what the user taught it (the local ranking)."""
    from paperterm.scoring.local import rank_locally
    from paperterm.store import open_or_unavailable

    # no cache: ranked without stars and cached scores
    store = open_or_unavailable(open_store)
    try:
        key = whole_day[0] if whole_day is not None else ""
        scores = rank_locally(store, papers, topic, day=key) or []
    finally:
        store.close()
    if scores:
        on_event(ScoresArrived(list(scores)))
    return RunSummary(model="local", total=len(papers), scored=len(scores))


def _run(papers: Sequence[Paper], topic: Topic, settings: ScoringSettings,
         open_store: StoreFactory,
         on_event: OnEvent, day: str | None, whole_day: tuple[str, Sequence[Paper]] | None,
         cancel: threading.Event | None, fresh: bool) -> RunSummary:
    from paperterm.scoring import run_scoring

    todo, extras, auto = list(papers), None, None
    held: list[Score] = []
    if whole_day is not None and settings.prefilter:
        todo, held, extras, auto = _prefilter(papers, topic, settings, open_store, *whole_day)
        if held:
            on_event(ScoresArrived(held))
    summary = run_scoring(
        todo, topic, settings, open_store=open_store,
        on_scores=lambda scores: on_event(ScoresArrived(list(scores))),
        on_progress=lambda s: on_event(ScoringProgress(copy.copy(s))),
        cancel=cancel, day=day, fresh=fresh)
    if held:
        from paperterm.scoring.prefilter import estimate_saved

        estimate_saved(summary, held, whole_day[1] if whole_day else papers)
    if auto:
        summary.notices.append(auto)
    if extras:
        summary.notices.append(extras)
    return summary


def _prefilter(papers: Sequence[Paper], topic: Topic, settings: ScoringSettings,
               open_store: StoreFactory, day_key: str, day: Sequence[Paper],
               ) -> tuple[list[Paper], list[Score], str | None, str | None]:
    """Which of `papers` `--prefilter` sends, judged against the whole day, the local
    scores of those it holds back, what it sent beyond the top part, and how much it sent
    and is expected to hold."""
    from paperterm.scoring.prefilter import extras_notice, prefilter_day
    from paperterm.store import open_or_unavailable

    # no cache: split without stars and cached scores
    store = open_or_unavailable(open_store)
    try:
        split = prefilter_day(store, day_key, day, topic, settings.prefilter, settings.model)
    finally:
        store.close()
    todo = {p.id for p in papers}
    return ([p for p in split.send if p.id in todo],
            [s for s in split.held if s.paper_id in todo], extras_notice(split),
            split.recall_line)
