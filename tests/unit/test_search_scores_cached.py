"""A headless search shows each hit's blend without loading the embedding model when every
hit was ranked with its day already (issue 20, item 6: `search --json` cost +0.79 s over
`--version` for loading it); a hit of a day never ranked has no score yet, and the model is
not loaded for it either."""

from __future__ import annotations

from datetime import date

import pytest
from support.realdays import save_days

from paperterm.scoring.local import rank_locally, semantic
from paperterm.services import library
from paperterm.settings import ScoringSettings
from paperterm.settings.config import Config
from paperterm.store import Store
from paperterm.topics import resolve_topic

DAY = date(2026, 2, 25)


@pytest.fixture
def store(isolated_home):  # type: ignore[no-untyped-def]
    save_days(isolated_home.db, (DAY,))
    s = Store.open(isolated_home.db)
    yield s
    s.close()


def test_hits_of_a_ranked_day_take_its_blend_without_the_model(store, monkeypatch):
    topic = resolve_topic("moe", Config()).topic
    if semantic.load_model() is None:
        pytest.skip("wordllama is not installed")
    papers = store.papers.day_papers("cs.AI+cs.LG", DAY)
    day_scores = {s.paper_id: s for s in rank_locally(store, papers, topic,
                                                       day=DAY.isoformat()) or []}
    calls = []
    monkeypatch.setattr(semantic, "load_model", lambda: calls.append(1))
    hits, shown = library.search(store, "quantization", topic, ScoringSettings())
    assert hits and calls == []
    for h in hits:
        assert shown[h.paper.id].relevance == day_scores[h.paper.id].relevance
        assert shown[h.paper.id].score.fine == pytest.approx(day_scores[h.paper.id].fine)


def test_hits_of_a_day_never_ranked_have_no_score_yet_and_load_no_model(store, monkeypatch):
    topic = resolve_topic("moe", Config()).topic
    calls = []
    monkeypatch.setattr(semantic, "load_model", lambda: calls.append(1))
    hits, shown = library.search(store, "quantization", topic, ScoringSettings())
    assert hits and calls == []
    assert shown == {} and all(h.relevance is None for h in hits)
