"""The semantic signal (issue 12, item 3): wordllama loaded offline from its own package
folder, embeddings cached per paper in SQLite, a calibrated blend with the keyword score."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import paperterm.scoring.local.semantic as semantic
from paperterm.models import Paper, Topic
from paperterm.scoring.local import keywords as local
from paperterm.scoring.local import rank_locally
from paperterm.scoring.local.blend import background, blend, closeness
from paperterm.store import Store


@pytest.fixture
def store(db):
    s = Store.open(db)
    yield s
    s.close()


@pytest.fixture
def no_cache():
    """An empty in-memory stand-in: nothing cached to find, nothing kept after the test."""
    s = Store.unavailable("ranked without a cache")
    yield s
    s.close()


def test_the_model_loads_offline_from_the_installed_package(monkeypatch):
    # the default call would try to download a tokenizer; any network use fails here
    import socket

    def no_network(*args, **kwargs):
        raise OSError("no network in tests")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(semantic, "_model", None)
    monkeypatch.setattr(semantic, "_failed", False)
    assert semantic.load_model() is not None
    vectors = semantic.embed_texts(["mixture of experts routing", "sparse expert routing",
                                    "protein folding in yeast"])
    assert vectors.shape == (3, semantic.DIM)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_embeddings_are_cached_per_paper_and_redone_when_the_text_changes(
        store, day, monkeypatch):
    first = semantic.paper_embeddings(store, day[:20])
    calls: list[int] = []
    real = semantic.embed_texts
    monkeypatch.setattr(semantic, "embed_texts",
                        lambda texts: calls.append(len(texts)) or real(texts))
    again = semantic.paper_embeddings(store, day[:20])
    assert calls == [] and np.array_equal(first, again)  # from SQLite, nothing embedded
    changed = [replace(day[0], abstract="A different abstract about protein folding."),
               *day[1:20]]
    updated = semantic.paper_embeddings(store, changed)
    assert calls == [1]  # only the changed paper
    assert not np.allclose(updated[0], first[0]) and np.array_equal(updated[1:], first[1:])


def test_without_the_model_the_keyword_scores_remain(store, day, topic, monkeypatch):
    monkeypatch.setattr(semantic, "load_model", lambda: None)
    scores = rank_locally(store, day, topic, day="2026-02-25")
    assert scores == local.local_scores(day, topic)


def _paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(pid, 1, title, ("A. Author",), abstract, ("cs.LG",), "cs.LG")


def test_closeness_is_calibrated_against_a_fixed_background_not_the_day(no_cache, day, topic):
    bg = background(no_cache)
    vectors = semantic.paper_embeddings(no_cache, day)
    alone = closeness(vectors[:5], topic, bg)
    among_all = closeness(vectors, topic, bg)[:5]
    assert np.allclose(alone, among_all)
    assert float(among_all.min()) >= 0 and float(closeness(vectors, topic, bg).max()) <= 1


def test_the_blend_lifts_on_topic_papers_without_keywords_and_ranks_by_it(no_cache, day,
                                                                          topic):
    off_topic = _paper("x2", "Crop yields in dry regions",
                       "We survey farmers about irrigation and harvest timing in dry regions.")
    papers = [*day, off_topic]
    pairs = local.scores_and_exclusions(papers, topic)
    close = closeness(semantic.paper_embeddings(no_cache, papers), topic, background(no_cache))
    scores = {s.paper_id: s for s in blend(pairs, close)}
    titles = {p.title: p.id for p in papers}
    # linear attention, none of the topic's keywords (only weak description words):
    # closeness to the topic's areas lifts it above what its words alone give
    kv = titles["Test-Time Training with KV Binding Is Secretly Linear Attention"]
    alone = next(s for s, _ in pairs if s.paper_id == kv)
    assert alone.reason.startswith("topic words: ")
    assert scores[kv].fine > (alone.fine or 0) and scores[kv].fine > scores["x2"].fine
    assert scores["x2"].relevance == 1 and scores["x2"].reason == "no match"
    # an excluded paper (RL) close to the topic's words stays low: exclusions damp closeness
    rl = next(i for t, i in titles.items() if t.startswith("Actor-Curator"))
    assert scores[rl].relevance <= 2
    # the preview says why: the keyword reason plus closeness where it counts
    top = max(scores.values(), key=lambda s: s.fine)
    assert top.reason.startswith("matched: ") and top.relevance >= 8


def test_blended_scores_are_cached_per_day_and_topic(store, day, topic, monkeypatch):
    first = rank_locally(store, day, topic, day="2026-02-25")
    assert rank_locally(store, day, topic, day="2026-02-25", compute=False) == first
    assert rank_locally(store, day, Topic("t", "other criteria"), day="2026-02-25",
                        compute=False) is None


def test_blended_scores_are_keyed_by_the_embedding_model():
    from paperterm.scoring.local.cache import EMBEDDING_MODEL

    assert EMBEDDING_MODEL == semantic.MODEL_KEY


def test_a_blended_value_does_not_depend_on_the_rest_of_the_day(no_cache, day, topic):
    alone = {s.paper_id: s for p in day[:30]
             for s in rank_locally(no_cache, [p], topic, day="x")}
    together = {s.paper_id: s for s in rank_locally(no_cache, day, topic, day="x")}
    for pid, s in alone.items():
        assert (s.relevance, s.reason) == (together[pid].relevance, together[pid].reason)
        assert s.fine == pytest.approx(together[pid].fine, abs=1e-6)


def test_loading_the_model_leaves_logging_as_it_was():
    """wordllama's import configures the root logger at INFO: a headless digest then printed
    pylatexenc's "INFO:... Ignoring parse error" lines on stderr (cron mails them)."""
    import os
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "paperterm", "digest", "--sample", "--topic",
                           "moe"], capture_output=True, text=True, env=os.environ, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "# arXiv digest" in proc.stdout
    assert "INFO:" not in proc.stderr, proc.stderr
