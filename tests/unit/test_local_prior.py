"""A built-in topic's prior (scoring/local/prior.py): a direction in the embedding space,
shipped as 256 numbers next to the topic (`topics/moe.prior.json`), measured against the
fixed background and added to the blend as a lift that moves the top of the list least."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from paperterm.models import Paper
from paperterm.scoring.local import keywords, prior
from paperterm.scoring.local.blend import background, blend, lifted, reference_papers
from paperterm.scoring.local.semantic import DIM, MODEL_KEY, load_model, paper_embeddings
from paperterm.settings.config import Config
from paperterm.store import Store
from paperterm.topics import builtin_topics, resolve_topic


@pytest.fixture
def fresh(monkeypatch):
    """No direction loaded yet (each test reads the files itself)."""
    monkeypatch.setattr(prior, "directions", {})


def test_moe_ships_a_prior_and_no_other_topic_has_one(fresh):
    topics = builtin_topics()
    moe = topics["moe"]
    w = prior.direction(moe)
    assert w is not None and w.shape == (DIM,) and float(np.abs(w).sum()) > 0
    assert prior.direction(topics["agents"]) is None
    # the user's own topic named moe says its own criteria: no built-in prior
    assert prior.direction(replace(moe, source="/home/u/.config/paperterm/topics/moe.toml")) \
        is None
    assert prior.direction(resolve_topic("mixture of experts", Config()).topic) is None


@pytest.mark.parametrize("content", [
    "not json",
    json.dumps({"model": MODEL_KEY, "direction": [0.1] * (DIM - 1)}),
    json.dumps({"model": "another-model", "direction": [0.1] * DIM}),
    json.dumps({"model": MODEL_KEY}),
])
def test_a_broken_or_foreign_prior_file_is_no_prior(fresh, tmp_path, monkeypatch, content):
    (tmp_path / "moe.prior.json").write_text(content, encoding="utf-8")
    monkeypatch.setattr(prior, "FOLDER", tmp_path)
    assert prior.direction(builtin_topics()["moe"]) is None


def _paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(pid, 1, title, ("A. Author",), abstract, ("cs.LG",), "cs.LG", "new")


def test_the_prior_is_measured_against_the_background_and_favours_core_work(fresh):
    if load_model() is None:
        pytest.skip("the embedding model is not installed")
    store = Store.unavailable("ranked without a cache")
    moe, bg = builtin_topics()["moe"], background(store)
    on_bg = prior.prior(bg, moe, bg)
    assert on_bg is not None and abs(float(np.median(on_bg))) < 1e-3
    papers = [
        _paper("2602.00001", "Implicit bias of gradient descent in deep linear networks",
               "We prove that the training dynamics of gradient descent converge to low-rank "
               "solutions and characterize the geometry of the learned representations."),
        _paper("2602.00002", "A clinical decision support system for hospital triage",
               "We deploy an agentic assistant that helps nurses triage patients and evaluate "
               "it with a user study in three hospitals."),
    ]
    values = prior.prior(paper_embeddings(store, papers), moe, bg)
    store.close()
    assert values is not None and np.all(np.abs(values) <= 1.0)
    assert values[0] > 0.5 > 0 > values[1]


def test_the_prior_lifts_a_paper_and_moves_the_top_of_the_list_least():
    topic = builtin_topics()["moe"]
    same = "A study of layers."
    papers = [_paper(f"2602.0000{i}", "Notes", same) for i in range(3)]
    pairs = keywords.scores_and_exclusions(papers, topic, reference_papers())
    up, plain, down = blend(pairs, np.zeros(3, dtype=np.float32),
                            prior_lift=np.array([1.0, 0.0, -1.0], dtype=np.float32))
    assert (up.fine or 0) > (plain.fine or 0) > (down.fine or 0)
    assert plain.fine == blend(pairs, np.zeros(3, dtype=np.float32))[1].fine
    # the same lift moves a paper near the top less than one in the middle
    assert lifted(0.95, 1.0, prior.PRIOR_WEIGHT) - 0.95 < lifted(0.4, 1.0, prior.PRIOR_WEIGHT) - 0.4
    assert lifted(0.1, -1.0, prior.PRIOR_WEIGHT) > 0
