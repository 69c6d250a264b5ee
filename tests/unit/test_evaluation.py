"""`services.evaluation` without a store: gold files and the closing verdict (whether the
LLM is worth its money), from measures made by `measure`."""

from __future__ import annotations

import pytest

from paperterm.services.evaluation_report import (
    Evaluation,
    ScorerMeasure,
    measure,
    read_gold,
    table,
)


def test_gold_files_take_json_lines_or_plain_ids():
    assert read_gold('{"id": "2602.20191", "title": "x"}\n\n{"id": "arXiv:2602.20175v2"}\n') \
        == {"2602.20191", "2602.20175"}
    assert read_gold("# picks\n2602.20191\nhttps://arxiv.org/abs/2602.20175v1\n") == {
        "2602.20191", "2602.20175"}
    for bad, line in (("2602.20191\nnot an id\n", "line 2"), ("{broken\n", "line 1"),
                      ('{"title": "no id"}\n', "line 1"), ("[1, 2]\n", "line 1")):
        with pytest.raises(ValueError, match=line):
            read_gold(bad)


RANKED = [f"id{i}" for i in range(30)]


def scorer(name: str, picks_at: list[int], cost: float | None = None) -> ScorerMeasure:
    picks = [f"p{i}" for i in range(len(picks_at))]
    ranked = list(RANKED)
    for pid, at in zip(picks, picks_at, strict=True):
        ranked.insert(at, pid)
    return ScorerMeasure(name, (measure("2026-02-25", ranked, picks),), cost)


def test_measures_of_one_day():
    m = scorer("blend", [0, 1, 25]).days[0]
    assert (m.picks, m.in_top_2x, m.precision_at_10) == (3, 2, 0.2)
    assert m.ndcg_at_20 == pytest.approx((1 + 1 / 1.5849625) / (1 + 1 / 1.5849625 + 0.5))


def test_the_verdict_says_what_the_llm_adds_for_its_money():
    better = Evaluation("moe", (scorer("keywords", [12, 20, 25]), scorer("blend", [0, 9, 25]),
                                scorer("openai/gpt-x", [0, 1, 2], cost=0.25)))
    line = better.verdict()
    assert "openai/gpt-x found 3 of 3" in line and "(blend) 1" in line
    assert "+2 pick(s) for $0.2500" in line
    same = Evaluation("moe", (scorer("blend", [0, 1, 25]),
                              scorer("openai/gpt-x", [0, 1, 20], cost=None)))
    assert "found no more for an unknown price" in same.verdict()
    assert "does as well for this topic, for free" in same.verdict()
    # the QA walk: an LLM that found fewer was said to find "no more" ("does as well")
    fewer = Evaluation("moe", (scorer("blend", [0, 1, 2]),
                               scorer("openai/gpt-x", [0, 1, 25], cost=0.01)))
    assert "found 1 fewer for $0.0100" in fewer.verdict()
    assert "the local ranking does better for this topic, for free" in fewer.verdict()
    alone = Evaluation("moe", (scorer("blend", [0, 1, 2]),))
    assert "No LLM scores are cached" in alone.verdict()
    assert table(alone)[-1] == alone.verdict()


def test_no_labels_is_a_hint_not_a_table():
    empty = Evaluation("moe", (ScorerMeasure("blend", ()),))
    assert not empty.labelled
    assert "paperterm star --topic moe" in table(empty)[0]


def test_a_day_of_one_pick_says_pick():
    one = Evaluation("moe", (scorer("blend", [3]),))
    assert "2026-02-25 (1 pick)" in table(one)
    assert "2026-02-25 (2 picks)" in table(Evaluation("moe", (scorer("blend", [3, 4]),)))
