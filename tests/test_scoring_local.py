"""The local scorer on the real sample day with the built-in `moe` topic."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from paperterm.config import Config
from paperterm.feeds import parse_feed
from paperterm.models import Paper, Topic
from paperterm.scoring import local_scores
from paperterm.topics import resolve_topic

FEED = Path(__file__).resolve().parents[1] / "examples" / "arxiv-2026-02-25.xml"


@pytest.fixture(scope="module")
def day() -> list[Paper]:
    return parse_feed(FEED.read_bytes()).papers


@pytest.fixture(scope="module")
def ranked(day):
    topic = resolve_topic("moe", Config()).topic
    scores = local_scores(day, topic)
    titles = {p.id: p.title for p in day}
    order = sorted(scores, key=lambda s: -s.relevance)
    return {titles[s.paper_id]: (rank, s) for rank, s in enumerate(order)}


def find(ranked, start: str):
    matches = [v for title, v in ranked.items() if title.startswith(start)]
    assert len(matches) == 1, start
    return matches[0]


@pytest.mark.parametrize(
    "title",
    [
        "MoBiQuant: Mixture-of-Bits Quantization",
        "Modality-Guided Mixture of Graph Experts",
        "Elimination-compensation pruning",
        "QuantVLA: Scale-Calibrated Post-Training Quantization",
        "Scaling State-Space Models on Multiple GPUs with Tensor Parallelism",
        "Untied Ulysses: Memory-Efficient Context Parallelism",
    ],
)
def test_moe_quantization_pruning_papers_rank_at_the_top(ranked, title):
    rank, score = find(ranked, title)
    assert rank < 25, (rank, score)  # top 10% of 244
    assert score.relevance >= 8
    assert score.reason.startswith("matched: ")


@pytest.mark.parametrize(
    ("title", "at_most", "below"),
    [
        ("An artificial intelligence framework for end-to-end rare disease", 2, 120),
        ("LUMEN: Longitudinal Multi-Modal Radiology Model", 1, 120),
        # an RL paper that also says "expert" three times and "sparse rewards"
        ("Controllable Exploration in Hybrid-Policy RLVR", 4, 60),
        ("Gap-Dependent Bounds for Nearly Minimax Optimal Reinforcement Learning", 2, 120),
    ],
)
def test_medical_and_rl_papers_rank_low(ranked, title, at_most, below):
    rank, score = find(ranked, title)
    assert score.relevance <= at_most, score
    assert rank > below
    assert "excluded:" in score.reason


def test_contract_and_determinism(day):
    topic = resolve_topic("moe", Config()).topic
    start = time.perf_counter()
    first = local_scores(day, topic)
    assert time.perf_counter() - start < 2.0
    assert [s.paper_id for s in first] == [p.id for p in day]
    assert all(1 <= s.relevance <= 10 and s.novelty is None for s in first)
    assert {s.status for s in first} == {"scored"}
    assert local_scores(list(day), topic) == first
    # papers matching nothing get 1; the whole range is used
    relevances = {s.relevance for s in first}
    assert 1 in relevances and 10 in relevances


def _paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(pid, 1, title, ("A. Author",), abstract, ("cs.LG",), "cs.LG")


def test_phrases_title_weight_and_exclusions():
    topic = Topic(
        name="t",
        description="Papers about mixture of experts.",
        keywords=("mixture of experts", "routing"),
        exclude=("medical",),
    )
    filler = "We present results on several standard datasets and discuss limitations."
    papers = [
        _paper("1", "Routing in a mixture of experts", filler),
        _paper("2", "A study", f"{filler} We use routing in a mixture of experts."),
        _paper("3", "A study", f"{filler} The mixture contains experts of many kinds."),
        _paper("4", "Mixture of experts routing for medical images", filler),
        _paper("5", "Unrelated", filler),
    ] + [_paper(str(i), "Other", filler) for i in range(6, 20)]
    scores = {s.paper_id: s for s in local_scores(papers, topic)}
    assert scores["1"].relevance > scores["2"].relevance  # title hits count more
    assert scores["2"].relevance > scores["3"].relevance  # the phrase, not its words
    assert scores["4"].relevance < scores["1"].relevance  # exclude pushes down
    assert "excluded: medical" in scores["4"].reason
    assert scores["5"].relevance == 1 and scores["5"].reason == "no match"
    assert scores["1"].reason in (
        "matched: mixture of experts, routing",
        "matched: routing, mixture of experts",
    )


def test_empty_and_adhoc_topic(day):
    assert local_scores([], Topic("t", "d")) == []
    adhoc = resolve_topic("speculative decoding", Config()).topic
    scores = {s.paper_id: s for s in local_scores(day, adhoc)}
    best = max(scores.values(), key=lambda s: s.relevance)
    title = next(p.title for p in day if p.id == best.paper_id)
    assert "Speculative Decoding" in title
