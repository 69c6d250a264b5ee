"""The local ranking, offline: keywords (`keywords`, BM25 through `occurrences`), closeness
to the topic (`semantic` embeddings), a built-in topic's prior (`prior`), what the user
taught it (`learned`), blended (`blend`), followed authors boosted (`follow`), cached per
day (`cache`).

One entry point, `rank_locally`. Importing this package does not import numpy: a cached
ranking is read at the reader's first paint; the blend is loaded only to compute one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic
from paperterm.scoring.local import cache, keywords
from paperterm.scoring.types import Score

if TYPE_CHECKING:
    from paperterm.store import Store

__all__ = ["rank_locally"]


def rank_locally(store: Store, papers: Sequence[Paper], topic: Topic, *,
                 day: str | None = None, keywords_only: bool = False,
                 compute: bool = True) -> list[Score] | None:
    """The local scores of `papers` for `topic` (one per paper, same order; relevance 1-10
    with its fine score, status "scored").

    `store`: where the ranking and the embeddings are cached and what the user taught it is
    read; an empty stand-in (`Store.unavailable`) ranks without a cache.
    `day`: the day's key: the ranking is cached for it (and read from the cache when there).
    None: papers of any days (a search, the starred list): nothing cached, every value
    measured against the fixed reference, as the blend's always are.
    `keywords_only`: the keyword scores (no embedding model is loaded); else the blend of
    keywords, closeness and what the user taught it, or the keyword scores without the
    embedding model. `compute` False: only what is cached (None when it is not)."""
    if day is None:
        return _any_day(store, papers, topic, keywords_only)
    if keywords_only:
        return _keywords(store, day, papers, topic, compute)
    examples = cache.training_examples(store, topic)
    version = cache.blend_version(examples)
    scores = cache.cached(store, day, papers, topic, version)
    if scores is not None or not compute:
        return scores
    from paperterm.scoring.local.blend import blended

    scores = blended(store, papers, topic, examples)
    if scores is None:  # no embedding model: the keyword scores (cached per day)
        return _keywords(store, day, papers, topic, compute)
    cache.save(store, day, papers, topic, version, scores)
    return scores


def _keywords(store: Store, day: str, papers: Sequence[Paper], topic: Topic,
              compute: bool) -> list[Score] | None:
    scores = cache.cached(store, day, papers, topic, keywords.SCORER_VERSION)
    if scores is not None or not compute:
        return scores
    scores = keywords.local_scores(papers, topic)
    cache.save(store, day, papers, topic, keywords.SCORER_VERSION, scores)
    return scores


def _any_day(store: Store, papers: Sequence[Paper], topic: Topic,
             keywords_only: bool) -> list[Score]:
    """The blend of papers of any days (read from their days' cached rankings when every one
    is there); keywords alone (or without the embedding model) the keyword scores, with how
    common a word is measured on the reference day."""
    if not papers:
        return []
    if not keywords_only:
        examples = cache.training_examples(store, topic)
        known = cache.cached_by_paper(store, papers, topic, cache.blend_version(examples))
        if len(known) == len(papers):  # each ranked with its day: no embedding model loaded
            return [known[p.id] for p in papers]
        from paperterm.scoring.local.blend import blended

        scores = blended(store, papers, topic, examples)
        if scores is not None:
            return scores
    from paperterm.scoring.local.blend import reference_papers
    from paperterm.scoring.local.follow import boost_followed

    found = keywords.scores_and_exclusions(papers, topic, reference_papers())
    return boost_followed([s for s, _ in found], papers, topic)
