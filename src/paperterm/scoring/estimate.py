"""How long a reply will be: a conservative start, then what this run's replies showed.

The expected completion per paper starts well above what a plain model writes (reasoning
models bill their thinking as completion tokens, often hundreds per paper) and follows the
largest per-paper completion seen in the run's replies, with headroom. It sets each
request's `max_tokens` (unless the config sets one) and, through it, what the budget
reserves for a request in flight: the most that request can cost.
"""

from __future__ import annotations

import math

START_PER_PAPER = 150  # tokens of completion per paper before any reply was seen
HEADROOM = 1.5  # max_tokens = expected reply x HEADROOM + OVERHEAD
OVERHEAD = 100
FLOOR_PER_PAPER = 45  # never expect less than a plain reply entry


class CompletionEstimate:
    """Expected completion tokens per paper, learned from the replies of one run."""

    def __init__(self, start: int = START_PER_PAPER) -> None:
        self.per_paper = float(start)
        self.seen = False

    def observe(self, completion_tokens: int, n_papers: int) -> None:
        """A reply about `n_papers` papers used `completion_tokens`."""
        if n_papers <= 0 or completion_tokens <= 0:
            return
        observed = completion_tokens / n_papers
        # the first reply replaces the guess; later ones only raise it (stay conservative)
        self.per_paper = observed if not self.seen else max(self.per_paper, observed)
        self.per_paper = max(self.per_paper, FLOOR_PER_PAPER)
        self.seen = True

    def expected(self, n_papers: int) -> int:
        return math.ceil(self.per_paper * n_papers)

    def max_tokens(self, n_papers: int) -> int:
        """A ceiling for one request's reply: the expected size with headroom."""
        return math.ceil(self.expected(n_papers) * HEADROOM) + OVERHEAD


PROMPT_MARGIN = 1.3  # prompt tokens reserved per token litellm counts, before any reply
LEARNED_MARGIN = 1.05  # over the provider's observed ratio, once replies report usage


class PromptRatio:
    """How many prompt tokens the provider bills per token litellm's tokenizer counts.

    Providers tokenize differently (30% more is common): the budget reserves a margin
    over litellm's count until the run's replies say what the provider really counts,
    then the largest ratio seen, with a little headroom. Never below 1."""

    def __init__(self) -> None:
        self.observed = 0.0  # the largest billed/counted ratio seen (0: none yet)

    def observe(self, billed: int, counted: int) -> None:
        if billed > 0 and counted > 0:
            self.observed = max(self.observed, billed / counted)

    @property
    def factor(self) -> float:
        if not self.observed:
            return PROMPT_MARGIN
        return max(1.0, self.observed * LEARNED_MARGIN)

    def reserve(self, counted: int) -> int:
        """Prompt tokens to reserve for a request litellm counts at `counted`."""
        return math.ceil(counted * self.factor)
