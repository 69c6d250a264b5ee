"""What the scoring worker tells the day screen, as typed messages.

Every message carries the `Worker` that sent it: the screen acts only on messages from the
run it is waiting for, so a cancelled or replaced run (a topic switch, a rescore) can never
paint its late scores over the current ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from textual.worker import Worker

    from paperterm.scoring.types import RunSummary, Score


class ScoringMessage(Message):
    """Base of the scoring worker's messages."""

    def __init__(self, worker: Worker[Any]) -> None:
        super().__init__()
        self.worker = worker


class ScoresArrived(ScoringMessage):
    """A batch of scores (new, cached or failed ones)."""

    def __init__(self, worker: Worker[Any], scores: list[Score]) -> None:
        super().__init__(worker)
        self.scores = scores


class ScoringProgress(ScoringMessage):
    """The run's running totals: papers done, tokens, cost."""

    def __init__(self, worker: Worker[Any], summary: RunSummary) -> None:
        super().__init__(worker)
        self.summary = summary


class ScoringFinished(ScoringMessage):
    """The run ended (possibly early: `summary.stopped` says why)."""

    def __init__(self, worker: Worker[Any], summary: RunSummary) -> None:
        super().__init__(worker)
        self.summary = summary


class ScoringFailed(ScoringMessage):
    """The run failed as a whole; `error` is the one-line notice to show."""

    def __init__(self, worker: Worker[Any], error: str) -> None:
        super().__init__(worker)
        self.error = error
