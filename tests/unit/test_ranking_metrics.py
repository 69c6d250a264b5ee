"""The ranking measures shared by the benchmarks, the prefilter's calibration and `eval`,
checked against hand computations."""

from __future__ import annotations

import math

import pytest

from paperterm.scoring.metrics import ndcg_at, picks_within, precision_at

RANKED = ["a", "b", "c", "d", "e", "f"]


def test_picks_within_counts_picks_in_the_first_n():
    assert picks_within(RANKED, {"b", "e", "z"}, 2) == 1
    assert picks_within(RANKED, {"b", "e", "z"}, 5) == 2
    assert picks_within(RANKED, {"b", "e", "z"}, 100) == 2
    assert picks_within(RANKED, {"b"}, 0) == 0
    assert picks_within(RANKED, set(), 6) == 0


def test_precision_at_counts_missing_places_as_misses():
    assert precision_at(RANKED, {"a", "c"}, 4) == 0.5
    assert precision_at(["a"], {"a"}, 10) == pytest.approx(0.1)
    assert precision_at(RANKED, {"a"}, 0) == 0.0


def test_ndcg_at_with_a_log2_discount():
    # picks at places 2 and 4 of 2 picks: (1/log2 3 + 1/log2 5) / (1 + 1/log2 3)
    expected = (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3))
    assert ndcg_at(RANKED, {"b", "d"}, 20) == pytest.approx(expected)
    assert ndcg_at(RANKED, {"a", "b"}, 20) == pytest.approx(1.0)
    assert ndcg_at(RANKED, {"f"}, 3) == 0.0  # beyond k
    assert ndcg_at(RANKED, set(), 20) == 0.0
    # more picks than k: the ideal fills all k places
    assert ndcg_at(RANKED, set(RANKED), 3) == pytest.approx(1.0)
