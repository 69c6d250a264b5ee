"""Data types of the scoring engine, shared by the CLI, the TUI and the engine itself."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from paperterm.scoring.halt import Halt

__all__ = ["Halt", "RunSummary", "Score", "ScoringError", "Status",
           "has_score", "status_counts"]

# "prefiltered": not sent to the model (`--prefilter`), its local score kept
Status = Literal["scored", "cached", "unscored", "queued", "prefiltered"]


def has_score(score: Score | None) -> bool:
    """A judgement to show and rank by: scored now or earlier (or locally, when the
    prefilter did not send it), with a relevance."""
    return score is not None and score.status in ("scored", "cached", "prefiltered") and (
        score.relevance is not None)


def status_counts(scores: Iterable[Score | None]) -> dict[str, int]:
    """How many are scored / cached / unscored (a missing or empty score is unscored), and
    "prefiltered" when the prefilter kept any from the model."""
    counts = {"scored": 0, "cached": 0, "unscored": 0}
    for score in scores:
        key = score.status if score is not None and has_score(score) else "unscored"
        counts[key] = counts.get(key, 0) + 1
    return counts


@dataclass
class Score:
    """The judgement of one paper against one topic."""

    paper_id: str
    version: int | None
    relevance: int | None
    novelty: int | None
    reason: str
    status: Status
    error: str | None = None
    fine: float | None = None  # the local scorer's score behind `relevance`: ranks its ties


@dataclass
class RunSummary:
    """What a scoring run did and cost."""

    model: str
    total: int = 0
    scored: int = 0
    cached: int = 0
    unscored: int = 0
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = 0.0  # None: the model's price is unknown
    unknown_ids: int = 0
    # what the requests behind this run's cached scores cost when they were made
    earlier_prompt_tokens: int = 0
    earlier_completion_tokens: int = 0
    earlier_cost: float | None = 0.0
    stopped: str | None = None  # why the run stopped early (budget, auth, ...)
    notices: list[str] = field(default_factory=list)
    halted: Halt | None = None  # why it stopped, for code to act on (`stopped` is the text)
    # --prefilter: papers not sent, and what sending them would have cost (an estimate)
    prefiltered: int = 0
    saved_tokens: int = 0
    saved_cost: float | None = None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def stop_line(self) -> str:
        """`stopped` as a line of a report ("" when the run was not stopped): a budget
        stop says itself that it stopped ("stopped before a request that could exceed...")."""
        if not self.stopped:
            return ""
        return self.stopped if self.halted is Halt.BUDGET else f"stopped: {self.stopped}"


class ScoringError(Exception):
    """A configuration or authentication failure that stops the run. The message is one
    line and never contains a key. `summary` (when set) is the run so far: scores already
    obtained were emitted and cached before this was raised. `halt` says why."""

    def __init__(self, message: str, summary: RunSummary | None = None,
                 halt: Halt | None = None) -> None:
        super().__init__(message)
        self.summary = summary
        self.halt = halt
