"""What a local relevance means (issue 30 §1, issue 32 item 8): the same for a free-text
topic as for a built-in one, and 10 only for the top few percent of a day. A real day, the
real blend, real SQLite."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from paperterm.models import Paper
from paperterm.scoring.local import rank_locally
from paperterm.scoring.local.semantic import load_model
from paperterm.settings.config import Config
from paperterm.store import Store
from paperterm.topics import resolve_topic

DAY = Path(__file__).resolve().parents[1] / "fixtures" / "feeds" / "day-2026-03-02.jsonl"
pytestmark = pytest.mark.skipif(load_model() is None,
                                reason="the embedding model is not installed")


def _papers() -> list[Paper]:
    rows = [json.loads(line) for line in DAY.read_text().splitlines()]
    return [Paper(r["id"], r["version"], r["title"], tuple(r["authors"]), r["abstract"],
                  tuple(r["categories"]), r["primary_category"], r["announce_type"])
            for r in rows]


@pytest.fixture(scope="module")
def ranked(tmp_path_factory):  # type: ignore[no-untyped-def]
    papers = _papers()
    store = Store.open(tmp_path_factory.mktemp("db") / "db.sqlite3")
    try:
        store.papers.save_day("cs.AI+cs.LG", date(2026, 3, 2), papers, source="rss")

        def rank(text: str) -> list:  # type: ignore[type-arg]
            topic = resolve_topic(text, Config()).topic
            return rank_locally(store, papers, topic, day="2026-03-02") or []

        yield papers, rank
    finally:
        store.close()


def test_ten_means_the_top_few_percent(ranked):
    papers, rank = ranked
    scores = rank("moe")
    tens = sum(s.relevance == 10 for s in scores)
    assert 1 <= tens <= 0.05 * len(papers)  # it was 23 of 302 on 03-04, 8%
    order = sorted(range(len(scores)), key=lambda i: -(scores[i].fine or 0))
    shown = [scores[i].relevance for i in order if (scores[i].relevance or 0) > 1]
    assert shown == sorted(shown, reverse=True)  # the order is the fine score's


def test_free_text_matching_nothing_is_not_shown_as_five(ranked):
    _, rank = ranked
    scores = rank("mixture of experts, model compression")
    loose = [s for s in scores if "matched" not in s.reason and "topic words" not in s.reason
             and "close to the topic" not in s.reason]
    assert loose and max(s.relevance or 0 for s in loose) <= 4


def test_free_text_closeness_counts_next_to_the_papers_matching_its_words(tmp_path):
    """`--topic "speculative decoding"` on the sample day: a paper on LLM reasoning, 78%
    close to the two words (closeness to a short area saturates) and full of foundational
    cues, was shown at 8 beside the one paper matching the phrase."""
    from paperterm.scoring.local.blend import reference_papers

    papers = reference_papers()
    store = Store.open(tmp_path / "db.sqlite3")
    try:
        topic = resolve_topic("speculative decoding", Config()).topic
        scores = rank_locally(store, papers, topic) or []
    finally:
        store.close()
    matched = [s for s in scores if "matched" in s.reason or "topic words" in s.reason]
    others = [s for s in scores if s not in matched]
    assert matched and max(s.relevance or 0 for s in matched) >= 8
    assert max(s.relevance or 0 for s in others) <= 4


def test_loosely_close_is_measured_against_the_papers_matching_the_topic():
    import math

    import numpy as np

    from paperterm.scoring.local.blend import LOOSE_CLOSE, loose_below

    close = np.array([0.82, 0.78, 0.3, 0.9, 0.5], dtype=np.float32)
    assert loose_below(close, [True, False, False, False, False]) == pytest.approx(0.82)
    assert loose_below(close, [False, False, True, False, True]) == LOOSE_CLOSE
    assert loose_below(close, [False] * 5) == math.inf  # nothing matched: nothing above 4
