"""The unsure queue (issue 30 §3): the papers of a day the learned model is least sure about,
where a star or a "not interested" teaches it most (uncertainty sampling: the learned
model's probability closest to its decision boundary, 0.5 with its balanced classes).

Without a learned model yet (no positive mark for the topic, or no embedding model) the
queue is the ranking's borderline band: the papers ranked around the day's cut (the top
tenth, at least `CUT_MIN` papers), nearest the cut first, alternating just above and just
below it.

One call, `unsure_papers`; it loads the embedding model (call it off the UI thread, as the
reader's ranking process does)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, NamedTuple

from paperterm.models import Paper, Topic

if TYPE_CHECKING:
    import numpy as np

    from paperterm.store import Store

QUEUE_SIZE = 20  # cards in one queue
CUT_MIN = 10  # the borderline band sits around rank max(CUT_MIN, a tenth of the day)
LEARNED = "learned"
BORDERLINE = "borderline"


class UnsureQueue(NamedTuple):
    ids: list[str]  # least sure first
    how: str  # LEARNED (the learned model's uncertainty) or BORDERLINE (the ranking's band)


def unsure_papers(store: Store, papers: Sequence[Paper], topic: Topic,
                  ranked: Sequence[str], *, exclude: Collection[str] = (),
                  size: int = QUEUE_SIZE) -> UnsureQueue:
    """Up to `size` of `papers` (none of `exclude`: papers already starred, saved or turned
    down), least sure first. `ranked`: the day's paper ids in the ranking's order (best
    first), for the borderline band."""
    open_ = [p for p in papers if p.id not in exclude]
    probability = learned_probability(store, open_, topic)
    if probability is not None:
        order = sorted(range(len(open_)), key=lambda i: (abs(float(probability[i]) - 0.5), i))
        return UnsureQueue([open_[i].id for i in order[:size]], LEARNED)
    return UnsureQueue(borderline(ranked, exclude, size), BORDERLINE)


def borderline(ranked: Sequence[str], exclude: Collection[str] = (),
               size: int = QUEUE_SIZE) -> list[str]:
    """The ranking's borderline band: the ids around the cut (rank max(CUT_MIN, n/10)),
    nearest it first (just below, just above, ...)."""
    cut = max(CUT_MIN, len(ranked) // 10)
    by_distance = sorted(range(len(ranked)), key=lambda i: (abs(i + 0.5 - cut), i))
    return [ranked[i] for i in by_distance if ranked[i] not in exclude][:size]


def learned_probability(store: Store, papers: Sequence[Paper],
                        topic: Topic) -> np.ndarray | None:
    """The topic's learned model's probability per paper (a numpy array), or None without
    a model (no positive mark for the topic yet, or no embedding model)."""
    from paperterm.scoring.local import cache

    examples = cache.training_examples(store, topic)
    if not papers or not any(e.positive for e in examples):
        return None
    from paperterm.scoring.local.blend import _trained, background
    from paperterm.scoring.local.semantic import paper_embeddings

    vectors = paper_embeddings(store, papers)
    if vectors is None:
        return None
    model = _trained(store, examples, background(store))
    return None if model is None else model.probability(vectors)
