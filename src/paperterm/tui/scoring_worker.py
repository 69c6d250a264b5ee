"""The body of the LLM scoring worker thread: runs the score-a-day service
(`services.scoring`), posting its events as the day screen's typed messages.

Runs in a Textual thread worker, after the list is on screen: only here are the scoring
engine and litellm imported.
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.message_pump import MessagePump
from textual.worker import Worker, get_current_worker

from paperterm.models import Paper, Topic
from paperterm.scoring.types import ScoringSettings
from paperterm.tui.messages import ScoresArrived, ScoringFailed, ScoringFinished, ScoringProgress

if TYPE_CHECKING:
    from paperterm.services.scoring import ScoringEvent
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
    from paperterm.services import scoring as service

    worker = get_current_worker()

    def post(event: service.ScoringEvent) -> None:
        message = _as_message(worker, event)
        with contextlib.suppress(RuntimeError):  # the app's event loop has closed
            target.post_message(message)

    service.score_day(papers, topic, settings, open_store=open_store, on_event=post, day=day,
                      whole_day=prefilter_day, cancel=cancel, fresh=fresh)


def _as_message(worker: Worker[Any], event: ScoringEvent) -> Message:
    """The service's event as the typed message the day screen handles."""
    from paperterm.services import scoring as service

    if isinstance(event, service.ScoresArrived):
        return ScoresArrived(worker, event.scores)
    if isinstance(event, service.ScoringProgress):
        return ScoringProgress(worker, event.summary)
    if isinstance(event, service.ScoringFinished):
        return ScoringFinished(worker, event.summary)
    return ScoringFailed(worker, event.error)
