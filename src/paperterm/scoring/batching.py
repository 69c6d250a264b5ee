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
class Batch:
    papers: list[Paper]
    round: int = 0  # how far through the engine's MAX_ROUNDS (unusable as a whole: the last)
    asked: int = 0  # replies about these papers that came back without their results

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
