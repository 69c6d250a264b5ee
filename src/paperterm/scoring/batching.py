"""Cutting papers into batches: `batch_size` a request, fewer where the model's context
window (config `[models."<model>"] context`) would not hold them; a batch and a request in
flight as the engine keeps them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from paperterm.models import Paper

CONTEXT_SHARE = 0.9  # of the context window a request may fill (token counts are estimates)


def batches(papers: Sequence[Paper], size: int, *, context: int | None = None,
            base_tokens: int = 0, paper_tokens: Callable[[Paper], int] | None = None,
            reply_tokens: int = 0) -> list[list[Paper]]:
    """Consecutive batches of at most `size` papers; with `context`, each also fits:
    `base_tokens` (the instructions) + each paper's `paper_tokens` + `reply_tokens` a
    paper for its expected reply. A paper too long on its own still gets its batch."""
    size = max(1, size)
    if not context or paper_tokens is None:
        return [list(papers[i : i + size]) for i in range(0, len(papers), size)]
    out: list[list[Paper]] = []
    chunk: list[Paper] = []
    used = base_tokens
    for paper in papers:
        cost = paper_tokens(paper) + reply_tokens
        if chunk and (len(chunk) >= size or used + cost > context * CONTEXT_SHARE):
            out.append(chunk)
            chunk, used = [], base_tokens
        chunk.append(paper)
        used += cost
    if chunk:
        out.append(chunk)
    return out


@dataclass
class Unusable:
    """A fresh batch whose reply was unusable as a whole, asked again in parts: it failed as
    a whole (one more for the failure streak) only if none of its parts scores."""

    parts_left: int
    reason: str
    scored: bool = False


FAIL_STREAK = 3  # fresh batches failing as a whole in a row (no success between): the rest
# is not sent (the server is down or useless)


class Streak:
    """Fresh batches in a row that failed as a whole: any reply that scores ends the row; a
    part of a batch whose reply was unusable counts for it once the last part is back."""

    def __init__(self) -> None:
        self.failed = 0

    def scored(self, batch: Batch) -> None:
        self.failed = 0
        if batch.part_of is not None:
            batch.part_of.scored = True
            batch.part_of.parts_left -= 1

    def failure(self, batch: Batch) -> bool:
        """A request that gave nothing for its whole batch; True when the run must stop."""
        whole = batch.part_of
        if whole is not None:
            whole.parts_left -= 1
            if whole.parts_left > 0 or whole.scored:
                return False
        elif not batch.fresh:  # a re-ask says something about its papers, not the server
            return False
        self.failed += 1
        return self.failed >= FAIL_STREAK


@dataclass
class Batch:
    papers: list[Paper]
    round: int = 0  # how far through the engine's MAX_ROUNDS (unusable as a whole: the last)
    asked: int = 0  # replies about these papers that came back without their results
    part_of: Unusable | None = None  # a part of a fresh batch whose reply was unusable

    @property
    def fresh(self) -> bool:
        """Never asked about before (the halves of a batch the server refused are not)."""
        return self.asked == 0


@dataclass
class Flight:
    """A request in flight: its batch, the dollars reserved for it, its reply ceiling,
    and its prompt tokens as litellm counts them (0: not counted, no budget)."""

    batch: Batch
    reserved: float
    max_tokens: int | None
    counted: int = 0
