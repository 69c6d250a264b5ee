"""How well a ranking puts a set of picks on top: the measures the benchmarks, the prefilter's
calibration and `paperterm eval` share.

`ranked` is a ranking of paper ids, best first; `picks` the ids judged relevant (binary
relevance). Picks missing from the ranking count as not found.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

__all__ = ["ndcg_at", "picks_within", "precision_at"]


def picks_within(ranked: Sequence[str], picks: Collection[str], n: int) -> int:
    """How many of `picks` are among the first `n` of `ranked`."""
    wanted = set(picks)
    return sum(1 for pid in ranked[:max(n, 0)] if pid in wanted)


def precision_at(ranked: Sequence[str], picks: Collection[str], k: int) -> float:
    """The share of the first `k` places that hold a pick (a ranking shorter than `k`
    counts its missing places as misses); 0.0 for k <= 0."""
    if k <= 0:
        return 0.0
    return picks_within(ranked, picks, k) / k


def ndcg_at(ranked: Sequence[str], picks: Collection[str], k: int) -> float:
    """Normalised discounted cumulative gain of the first `k` places: a pick at place r
    (1-based) gains 1/log2(r + 1), divided by the gain of the ideal ranking (all picks
    first). 0.0 when there are no picks or k <= 0."""
    wanted = set(picks)
    if not wanted or k <= 0:
        return 0.0
    gain = sum(1 / math.log2(r + 2) for r, pid in enumerate(ranked[:k]) if pid in wanted)
    ideal = sum(1 / math.log2(r + 2) for r in range(min(k, len(wanted))))
    return gain / ideal
