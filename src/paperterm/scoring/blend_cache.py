"""The learned local ranking's cache key and cache, without numpy: the reader asks it at
first paint, before anything heavy is imported."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic
from paperterm.scoring import local
from paperterm.scoring.follow import local_key
from paperterm.scoring.types import Score

if TYPE_CHECKING:
    from paperterm.store import Example, Store

BLEND_VERSION = "blend-1"  # bump when the blend would change: old cache rows go unused
EMBEDDING_MODEL = "wordllama-l2_supercat-256"  # semantic.MODEL_KEY (kept equal by a test)


def examples_fingerprint(examples: Sequence[Example]) -> str:
    """Which examples a model would be trained on."""
    digest = hashlib.sha256()
    for e in sorted(examples, key=lambda e: e.id):
        digest.update(f"{e.id}:{e.kind}\n".encode())
    return digest.hexdigest()[:12]


def scorer_version(examples: Sequence[Example]) -> str:
    return (f"{BLEND_VERSION}/{local.SCORER_VERSION}/{EMBEDDING_MODEL}/"
            f"{examples_fingerprint(examples)}")


def training_examples(store: Store | None, topic: Topic) -> list[Example]:
    """What the user taught the ranking for `topic` (none without a readable store)."""
    if store is None:
        return []
    with contextlib.suppress(Exception):
        return store.marks.training_examples(topic.name)
    return []


def cached_blend(store: Store | None, day_key: str, papers: Sequence[Paper], topic: Topic,
                 examples: Sequence[Example]) -> list[Score] | None:
    """The cached blended scores for this day, topic, scorer and examples, or None."""
    if store is None:
        return None
    rows = None
    with contextlib.suppress(Exception):
        rows = store.scores.local_scores(day_key, local_key(topic), scorer_version(examples),
                                         local.papers_fingerprint(papers))
    if rows is None:
        return None
    return [Score(i, v, r, None, why, "scored", fine=f) for i, v, r, why, f in rows]


def save_blend(store: Store | None, day_key: str, papers: Sequence[Paper], topic: Topic,
               examples: Sequence[Example], scores: Sequence[Score]) -> None:
    if store is None:
        return
    with contextlib.suppress(Exception):  # not cached: computed again next time
        store.scores.save_local_scores(day_key, local_key(topic), scorer_version(examples),
                                       local.papers_fingerprint(papers),
                                       [(s.paper_id, s.version, s.relevance or 1, s.reason,
                                         s.fine or 0.0) for s in scores])
