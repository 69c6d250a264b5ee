"""The ranked list `paperterm score` prints: one row per paper, top first, fitted to the
terminal's width (titles cut with an ellipsis)."""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence

from paperterm.models import Paper
from paperterm.services.scoring import Score
from paperterm.text.hygiene import cut

MIN_TITLE = 20  # below this a title is useless: the row grows past the width instead


def _cell(value: int | None) -> str:
    return "·" if value is None else str(value)


def ranked_table(papers: Sequence[Paper], scores: Mapping[str, Score],
                 ranks: Mapping[str, int], *, width: int | None = None) -> str:
    """`papers` (already in rank order) as a table: rank, relevance, novelty, id, title."""
    width = width or shutil.get_terminal_size((100, 24)).columns
    novelty = any(scores[p.id].novelty is not None for p in papers if p.id in scores)
    id_w = max([len("id"), *(len(p.id) for p in papers)])
    rank_w = max(len("#"), *(len(str(ranks.get(p.id, ""))) for p in papers)) if papers else 1
    head = [f"{'#':>{rank_w}}", "rel"] + (["nov"] if novelty else []) + [f"{'id':<{id_w}}"]
    fixed = sum(len(h) + 2 for h in head)
    title_w = max(width - fixed, MIN_TITLE)
    lines = ["  ".join([*head, "title"])]
    for p in papers:
        sc = scores.get(p.id)
        rel = _cell(sc.relevance if sc else None)
        if sc is not None and sc.status == "unscored" and sc.relevance is not None:
            rel = f"~{rel}"  # the model did not reach it: its local value, as the reader
        cells = [f"{ranks.get(p.id, ''):>{rank_w}}", f"{rel:>3}"]
        if novelty:
            cells.append(f"{_cell(sc.novelty if sc else None):>3}")
        cells += [f"{p.id:<{id_w}}", cut(p.title, title_w)]
        lines.append("  ".join(cells))
    return "\n".join(lines) + "\n"
