"""The body of the LLM scoring worker thread: runs the scoring facade, reports by messages.

Runs in a Textual thread worker, after the list is on screen: only here are the scoring
engine and litellm imported.
"""

from __future__ import annotations

import contextlib
import copy
import threading
from typing import TYPE_CHECKING

from textual.message import Message
from textual.message_pump import MessagePump
from textual.worker import get_current_worker

from paperterm.models import Paper, Topic
from paperterm.scoring.types import RunSummary, Score, ScoringSettings
from paperterm.tui.messages import ScoresArrived, ScoringFailed, ScoringFinished, ScoringProgress

if TYPE_CHECKING:
    from paperterm.store import StoreFactory


def score_in_thread(
    target: MessagePump,
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
    from paperterm.scoring import ScoringError, run_scoring

    worker = get_current_worker()

    def post(message: Message) -> None:
        with contextlib.suppress(RuntimeError):  # the app's event loop has closed
            target.post_message(message)

    def on_scores(scores: list[Score]) -> None:
        post(ScoresArrived(worker, list(scores)))

    def on_progress(summary: RunSummary) -> None:
        post(ScoringProgress(worker, copy.copy(summary)))  # the engine keeps counting on

    held: list[Score] = []
    extras = None
    try:
        if prefilter_day is not None and settings.prefilter:
            papers, held, extras = _prefilter(papers, topic, settings, open_store,
                                              *prefilter_day)
            if held:
                on_scores(held)
        summary = run_scoring(papers, topic, settings, open_store=open_store,
                              on_scores=on_scores, on_progress=on_progress, cancel=cancel,
                              day=day, fresh=fresh)
        if held:
            from paperterm.scoring.prefilter import estimate_saved

            estimate_saved(summary, held, prefilter_day[1] if prefilter_day else papers)
        if extras:
            summary.notices.append(extras)
    except ScoringError as exc:
        post(ScoringFailed(worker, str(exc)))
        return
    except Exception as exc:  # never a traceback in the reader
        post(ScoringFailed(worker, f"scoring failed: {type(exc).__name__}: {exc}"))
        return
    post(ScoringFinished(worker, summary))


def _prefilter(papers: list[Paper], topic: Topic, settings: ScoringSettings,
               open_store: StoreFactory,
               day_key: str, day: list[Paper],
               ) -> tuple[list[Paper], list[Score], str | None]:
    """Which of `papers` (not yet scored) `--prefilter` sends, judged against the whole day,
    the local scores of those it holds back, and what it sent beyond the top part."""
    from paperterm.scoring.prefilter import extras_notice, prefilter_day
    from paperterm.store import open_or_unavailable

    # no cache: the split is made without stars and cached scores
    store = open_or_unavailable(open_store)
    try:
        split = prefilter_day(store, day_key, day, topic, settings.prefilter, settings.model)
    finally:
        store.close()
    todo = {p.id for p in papers}
    return ([p for p in split.send if p.id in todo],
            [s for s in split.held if s.paper_id in todo], extras_notice(split))
