"""Why a scoring run stops early: a `Halt` reason plus detail, and the text users see.

Fatal halts end the run with `types.ScoringError` (configuration, authentication, an unreachable
server); the others stop sending but return a summary (budget, cancel, a dead server).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from paperterm.text.hygiene import clean_line


class Halt(Enum):
    """Why nothing more is sent."""

    NO_MODEL = "no_model"
    UNKNOWN_MODEL = "unknown_model"
    BAD_API_BASE = "bad_api_base"
    MISSING_KEY = "missing_key"
    UNPRICED_BUDGET = "unpriced_budget"
    AUTH = "auth"
    MODEL_NOT_FOUND = "model_not_found"
    QUOTA = "quota"
    UNREACHABLE = "unreachable"
    REJECTED = "rejected"
    BUDGET = "budget"
    CANCELLED = "cancelled"
    FAILURE_STREAK = "failure_streak"

    @property
    def fatal(self) -> bool:
        """True when the run ends with ScoringError rather than a summary."""
        return self not in (Halt.BUDGET, Halt.CANCELLED, Halt.FAILURE_STREAK)


# One template per reason; `detail` is always the provider's or our own explanation.
_TEXT: dict[Halt, str] = {
    Halt.NO_MODEL: "no model is set: set `model` (e.g. openai/gpt-4o-mini)",
    Halt.UNKNOWN_MODEL: "unknown model or provider '{model}': {detail}",
    Halt.BAD_API_BASE: "api_base {detail} is not a URL: give an http(s) address such as "
                       "http://localhost:11434 (--api-base or api_base in the config)",
    Halt.MISSING_KEY: "{detail} is not set: the API key for {model} is read from the environment",
    Halt.UNPRICED_BUDGET: "the price of {model} is unknown, so the budget of {budget} cannot be "
                          "enforced: {how}, or set budget = 0 to score without a budget",
    Halt.AUTH: "authentication failed for {model} (HTTP {status}): {hint} ({detail})",
    Halt.MODEL_NOT_FOUND: "model {model} not found{where}: {detail}",
    Halt.QUOTA: "quota exceeded for {model}: {detail}",
    Halt.UNREACHABLE: "cannot connect to {where}: {detail}",
    Halt.REJECTED: "the provider rejected the request for {model}: {detail}",
    Halt.BUDGET: "{budget_stop}{spent}",
    Halt.CANCELLED: "cancelled",
    Halt.FAILURE_STREAK: "{streak} batches in a row failed ({detail})",
}


class _Facts(dict[str, object]):
    """Template values; a fact not given (e.g. an optional `period`) reads as nothing."""

    def __missing__(self, key: str) -> str:
        return ""


@dataclass
class Stop:
    """One halt with its detail (already clean text) and the facts its message names."""

    halt: Halt
    detail: str = ""
    facts: dict[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The reason, on one clean line, as users read it."""
        return clean_line(_TEXT[self.halt].format_map(_Facts(detail=self.detail, **self.facts)))

    @property
    def paper_error(self) -> str:
        """The error of each paper this halt left unscored."""
        if self.halt is Halt.FAILURE_STREAK:
            return f"not sent: {self.text}"
        return self.text

    def stopped(self, left: int) -> str:
        """`RunSummary.stopped`: the reason and, for a soft halt, what it left undone."""
        if self.halt.fatal:
            return self.text
        papers = count(left, "paper")
        if self.halt is Halt.FAILURE_STREAK:
            return f"{self.text}: {papers} not sent"
        if self.halt is Halt.BUDGET:
            return f"{self.text}; {papers} not scored"
        return f"{self.text}: {papers} not scored"


def budget_stop(limit: float, spent: float, period: str = "") -> Stop:
    """The budget halt before a request whose reservation does not fit: "reached" only
    when nothing is left; otherwise it says that the next request could cross it. The
    final spending is added (`spent_by_then`) when the run ends."""
    if spent >= limit:
        what = f"budget of {money(limit)}{period} reached"
    else:
        what = f"stopped before a request that could exceed the budget of {money(limit)}{period}"
    return Stop(Halt.BUDGET, facts={"budget_stop": what})


def spent_by_then(stop: Stop, spent: float) -> None:
    """Name what the run spent in a budget halt's text."""
    if stop.halt is Halt.BUDGET:
        stop.facts["spent"] = f"; spent {money(spent)}"


def count(n: int, noun: str) -> str:
    """`1 paper`, `2 papers` (nouns with a plain plural)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def money(dollars: float) -> str:
    return f"${dollars:.2f}" if dollars >= 0.1 else f"${dollars:.4g}"
