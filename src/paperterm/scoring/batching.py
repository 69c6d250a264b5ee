"""Cutting papers into batches: `batch_size` a request, fewer where the model's context
window (config `[models."<model>"] context`) would not hold them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
