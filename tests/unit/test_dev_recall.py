"""The default local ranking against a judge on the five development days (issue 20, items
2 and 3): the moe topic's ranking without a model (what `score --json` ranks by) finds the
picks of a gpt-5 paper assistant (../shared/data/gold-dev), and the prefilter's shipped
recall table is what that ranking gives. Skipped without the shared data.

Stated thresholds (measured 2026-11-26: 130/156 within the top 2x, 143/156 within the top
30%, precision at 10 0.82, NDCG@20 0.75; 128, 136, 0.82 before the moe topic's prior, 111,
128 and 0.76 before the learned cue words, 91, 106 and 0.52 before issue 20). The learned cue
words and the prior were derived on these days: the honest figure is the leave-one-day-out
one (`benchmarks/measure_local.py --lodo`: 122-123, 135-136, 0.82; 121, 132 before the
prior). The issue asks for 75% and 90%: the top 30% is reached here but not left out, see
docs/local-ranking.md."""

from __future__ import annotations

import math

import pytest
from support.shared import gold_picks, load_day, need_shared

from paperterm.scoring import recall
from paperterm.scoring.local import rank_locally
from paperterm.scoring.local.semantic import load_model
from paperterm.scoring.metrics import ndcg_at, picks_within, precision_at
from paperterm.store import Store
from paperterm.topics import builtin_topics

DAYS = ("2026-02-17", "2026-02-18", "2026-02-19", "2026-02-20", "2026-02-23")


@pytest.fixture(scope="module")
def ranked():
    """(day's papers, picks, ids in the default order) per development day."""
    data = need_shared(*(f"day-{d}.jsonl" for d in DAYS), "gold-dev")
    if load_model() is None:
        pytest.skip("the embedding model is not installed")
    topic = builtin_topics()["moe"]
    store = Store.unavailable("measured without a cache")
    out = []
    for day in DAYS:
        papers = load_day(data / f"day-{day}.jsonl")
        scores = rank_locally(store, papers, topic, day=day) or []
        order = sorted(range(len(papers)), key=lambda i: (
            -(scores[i].relevance or 0), -(scores[i].fine or 0.0), i))
        out.append((papers, gold_picks(data, day), [papers[i].id for i in order]))
    return out


def test_the_default_ranking_finds_the_judges_picks(ranked):
    picks = sum(len(p) for _, p, _ in ranked)
    top2x = sum(picks_within(r, p, 2 * len(p)) for _, p, r in ranked)
    top30 = sum(picks_within(r, p, round(0.3 * len(papers))) for papers, p, r in ranked)
    p10 = sum(precision_at(r, p, 10) for _, p, r in ranked) / len(ranked)
    ndcg = sum(ndcg_at(r, p, 20) for _, p, r in ranked) / len(ranked)
    assert picks == 156
    assert top2x >= 127, top2x  # 81%
    assert top30 >= 140, top30  # 90%
    assert p10 >= 0.75 and ndcg >= 0.7, (p10, ndcg)  # before: 0.52 and 0.54


def test_the_shipped_recall_table_is_this_rankings_curve_left_out(ranked):
    """The table `--prefilter auto` reads is the leave-one-day-out curve (each day ranked
    with the cue words and prior derived without it: what an unseen day holds), never more
    optimistic than the shipped ranking on these very days, and `auto` sends enough of a
    day for 90% left out."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from calibrate_prefilter import curve

    data = need_shared(*(f"day-{d}.jsonl" for d in DAYS), "gold-dev")
    left_out, _, _ = curve([data / f"day-{d}.jsonl" for d in DAYS], data / "gold-dev",
                           lodo=True)
    shipped = recall.shipped_curve()
    assert [s for s, _ in shipped] == [s for s, _ in left_out]
    for (share, expected), (_, measured) in zip(shipped, left_out, strict=True):
        assert expected == pytest.approx(measured, abs=0.005), share
    picks = sum(len(p) for _, p, _ in ranked)
    for share, expected in shipped:
        found = sum(picks_within(r, p, math.ceil(share * len(papers)))
                    for papers, p, r in ranked)
        assert found / picks >= expected - 0.02, share
    # --prefilter 0.3 sends the top 30% (rounded up): the share of picks it holds
    assert recall.expected_recall(shipped, 0.3) >= 0.85
    assert min(s for s, r in left_out if r >= 0.9) == recall.smallest_share(shipped)
