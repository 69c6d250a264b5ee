"""Free-text topics keep their phrase (issue 20, item 7): `--topic "speculative decoding"`
ranks papers about speculative decoding, not papers that merely have an encoder-decoder,
on two real days (papers of 2026-02-17 and 2026-02-20 from the shared data)."""

from __future__ import annotations

import pytest
from support.shared import load_day, need_shared

from paperterm.scoring.local import rank_locally
from paperterm.scoring.local.semantic import load_model
from paperterm.settings.config import Config
from paperterm.store import Store
from paperterm.topics import resolve_topic

DAYS = ("day-2026-02-17.jsonl", "day-2026-02-20.jsonl")


@pytest.fixture(scope="module")
def papers():
    data = need_shared(*DAYS)
    return [p for name in DAYS for p in load_day(data / name)]


def _kinds(papers):
    """The papers about speculative decoding, and those with an encoder-decoder only."""
    text = {p.id: f"{p.title} {p.abstract}".lower() for p in papers}
    phrase = {i for i, t in text.items() if "speculative decoding" in t}
    enc_dec = {i for i, t in text.items() if "encoder-decoder" in t} - phrase
    assert len(phrase) >= 2 and len(enc_dec) >= 2  # the days hold both kinds
    return phrase, enc_dec


@pytest.mark.parametrize("keywords_only", [True, False])
def test_the_phrase_ranks_above_papers_with_its_words_apart(papers, keywords_only):
    if not keywords_only and load_model() is None:
        pytest.skip("the embedding model is not installed")
    topic = resolve_topic("speculative decoding", Config()).topic
    store = Store.unavailable("ranked without a cache")
    scores = {s.paper_id: s for s in rank_locally(store, papers, topic, day="d",
                                                  keywords_only=keywords_only) or []}
    phrase, enc_dec = _kinds(papers)
    order = sorted(scores.values(), key=lambda s: (-(s.relevance or 0), -(s.fine or 0.0)))
    rank = {s.paper_id: r for r, s in enumerate(order)}
    assert max(rank[i] for i in phrase) < min(rank[i] for i in enc_dec)
    for i in phrase:
        assert "speculative decoding" in scores[i].reason
    if keywords_only:  # "decoder" alone is a weak hint, never a match of the topic
        for i in enc_dec:
            assert (scores[i].relevance or 0) <= 3, scores[i]
            assert not scores[i].reason.startswith("matched: "), scores[i]
