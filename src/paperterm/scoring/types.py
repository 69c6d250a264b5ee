"""Data types of the scoring engine, shared by the CLI, the TUI and the engine itself."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from paperterm.config import Config

Status = Literal["scored", "cached", "unscored", "queued"]


def has_score(score: Score | None) -> bool:
    """A judgement to show and rank by: scored now or earlier, with a relevance."""
    return score is not None and score.status in ("scored", "cached") and (
        score.relevance is not None)


def status_counts(scores: Iterable[Score | None]) -> dict[str, int]:
    """How many are scored / cached / unscored (a missing or empty score is unscored)."""
    counts = {"scored": 0, "cached": 0, "unscored": 0}
    for score in scores:
        counts[score.status if score is not None and has_score(score) else "unscored"] += 1
    return counts


@dataclass
class ScoringSettings:
    """Every scoring knob: a config key and a CLI flag of the same name."""

    # the defaults are the config file's: one place says what a default run does
    model: str = Config.model
    api_base: str = Config.api_base
    scorer: str = Config.scorer  # auto | llm | local
    batch_size: int = Config.batch_size
    concurrency: int = Config.concurrency
    rpm: float = Config.rpm
    timeout: float = Config.timeout
    budget: float = Config.budget  # dollars; 0 = no budget
    include_authors: bool = Config.include_authors

    @classmethod
    def from_config(cls, config: Config, **overrides: Any) -> ScoringSettings:
        values = {f.name: getattr(config, f.name) for f in fields(cls)}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    @property
    def use_llm(self) -> bool:
        """True when an LLM will be asked (scorer llm, or auto with a model set)."""
        if self.scorer == "local":
            return False
        return bool(self.model)


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

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens
