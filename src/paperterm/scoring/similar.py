"""Similar papers: the full-text candidates of the store (`store.library.similar`), re-ranked by the
semantic scorer's embeddings when the store has them cached for the paper and candidates.

Only vectors already in the cache are used (no model is loaded here, so `m` stays fast);
papers without one keep their full-text order, after those with one.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperterm.store import SearchHit, Store

Vectors = Callable[[Sequence[str]], Mapping[str, Sequence[float]]]


def cached_vectors(store: Store) -> Vectors:
    """id -> vector for the ids whose embedding the store holds (the semantic scorer's
    cache; no model is loaded, so numpy and wordllama stay out of this path)."""
    from paperterm.scoring.local.cache import EMBEDDING_MODEL

    def vectors(ids: Sequence[str]) -> dict[str, Sequence[float]]:
        return {i: array("f", bytes(blob))
                for i, (_fp, blob) in store.scores.embeddings(EMBEDDING_MODEL, list(ids)).items()}

    return vectors


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def rerank(hits: list[SearchHit], mine: Sequence[float] | None,
           vectors: Mapping[str, Sequence[float]]) -> list[SearchHit]:
    """`hits` ordered by cosine similarity to `mine`; hits without a vector keep their
    order, after the others."""
    if mine is None:
        return hits
    with_vec = [h for h in hits if h.paper.id in vectors]
    rest = [h for h in hits if h.paper.id not in vectors]
    with_vec.sort(key=lambda h: -cosine(mine, vectors[h.paper.id]))
    return with_vec + rest


def similar_papers(store: Store, paper_id: str, *, limit: int = 20,
                   topic_fp: str | None = None) -> list[SearchHit]:
    """The cached papers most like this one, best first."""
    hits = store.library.similar(paper_id, limit=limit, topic_fp=topic_fp)
    vectors_of = cached_vectors(store)
    if not hits:
        return hits
    try:
        vectors = vectors_of([paper_id, *(h.paper.id for h in hits)])
    except Exception:  # a cache that cannot answer: the full-text order stands
        return hits
    return rerank(hits, vectors.get(paper_id), vectors)
