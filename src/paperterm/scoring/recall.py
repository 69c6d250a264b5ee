"""How much of what matters the prefilter's top part is expected to hold (issue 20, item 3).

A recall curve maps a share of the day (the local ranking's top part) to the share of the
day's picks within it. The package ships one measured on the development days against a
judge (data/prefilter-recall.json, written by benchmarks/calibrate_prefilter.py); once the
user has MIN_OWN_POSITIVES papers starred or saved under a topic on days in the cache, the
curve is theirs: where their own positives fell in the local ranking of their day.
`--prefilter auto` sends the smallest top part whose expected recall reaches TARGET.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.models import Topic

if TYPE_CHECKING:
    from paperterm.store import Store

CURVE_FILE = Path(__file__).resolve().parents[1] / "data" / "prefilter-recall.json"
STEPS = tuple(round(0.05 * k, 2) for k in range(1, 21))  # 5%, 10%, ... 100% of the day
TARGET = 0.9  # `--prefilter auto`: the expected share of the picks to keep
MIN_OWN_POSITIVES = 30  # the user's own curve replaces the shipped one from this many
MAX_OWN_DAYS = 30  # the most recent days with positives that are ranked for it

Curve = tuple[tuple[float, float], ...]  # (share of the day, share of picks within), rising


@dataclass(frozen=True)
class Choice:
    """What `--prefilter auto` sends: a share of the day, its expected recall and where
    the curve came from ("development days" or "your N starred and saved papers")."""

    share: float
    expected: float
    source: str


@functools.cache
def shipped_curve() -> Curve:
    """The curve measured on the development days (shipped with the package)."""
    doc = json.loads(CURVE_FILE.read_text(encoding="utf-8"))
    return tuple((float(s), float(r)) for s, r in doc["curve"])


def curve_of(positions: Sequence[float]) -> Curve:
    """The recall curve of positives at these relative places in their day's ranking
    (0: the top, 1 - 1/n: the bottom): at each step, the share of them within its top."""
    ordered = sorted(positions)
    n = len(ordered) or 1
    return tuple((s, bisect.bisect_left(ordered, s - 1e-9) / n) for s in STEPS)


def expected_recall(curve: Curve, share: float) -> float:
    """The curve at `share` (linear between its points; 0 at 0, 1 at the whole day)."""
    points = ((0.0, 0.0), *curve, (1.0, 1.0))
    for (s0, r0), (s1, r1) in itertools.pairwise(points):
        if share <= s1:
            return r0 + (r1 - r0) * (share - s0) / max(s1 - s0, 1e-9)
    return 1.0


def smallest_share(curve: Curve, target: float = TARGET) -> float:
    """The smallest step of the day whose expected recall reaches `target`."""
    for share, recall in curve:
        if recall >= target:
            return share
    return 1.0


def own_positions(store: Store, topic: Topic) -> list[float]:
    """Where the papers the user starred or saved under `topic` fell in the local ranking
    (without what it learned from them) of the day they were announced on, as a share of
    that day (the most recent MAX_OWN_DAYS days). Empty when the store cannot say."""
    from paperterm.scoring.local.blend import blended

    out: list[float] = []
    with contextlib.suppress(Exception):
        liked = set(store.library.liked_ids(topic.name))
        days = store.library.announced(liked)
        by_day: dict[tuple[str, str], list[str]] = {}
        for pid, where in days.items():
            by_day.setdefault(where, []).append(pid)
        for (feed, day) in sorted(by_day, key=lambda w: w[1], reverse=True)[:MAX_OWN_DAYS]:
            papers = store.papers.day_papers(feed, date.fromisoformat(day))
            scores = blended(store, papers, topic, []) if papers else None
            if not scores:
                continue
            order = sorted(range(len(papers)), key=lambda i: (
                -(scores[i].relevance or 0), -(scores[i].fine or 0.0), i))
            place = {papers[i].id: r for r, i in enumerate(order)}
            out += [place[pid] / len(papers) for pid in by_day[(feed, day)] if pid in place]
    return out


def curve_for(store: Store, topic: Topic) -> tuple[Curve, str]:
    """The recall curve for `topic` and where it comes from: the user's own positives when
    there are enough, else the development days."""
    own = own_positions(store, topic)
    if len(own) >= MIN_OWN_POSITIVES:
        return curve_of(own), f"your {len(own)} starred and saved papers"
    return shipped_curve(), "development days"


def choose(store: Store, topic: Topic) -> Choice:
    """The share `--prefilter auto` sends for `topic`."""
    curve, source = curve_for(store, topic)
    share = smallest_share(curve)
    return Choice(share, expected_recall(curve, share), source)


def expect(store: Store, topic: Topic, share: float) -> Choice:
    """What a fixed top part (`--prefilter 0.3`, `40`) of `share` is expected to hold."""
    curve, source = curve_for(store, topic)
    return Choice(share, expected_recall(curve, share), source)


def summary_line(sent: int, total: int, expected: float) -> str:
    """"sent 96 of 302, expected to hold 9 of 10 picks"."""
    return f"sent {sent} of {total}, expected to hold {math.floor(expected * 10 + 1e-9)} of " \
           "10 picks"
