"""The unsure queue's order (scoring.local.unsure): the learned model's probability nearest
0.5 first; without a model, the ranking's borderline band around the cut."""

from __future__ import annotations

import numpy as np

import paperterm.scoring.local.unsure as unsure
from paperterm.models import Paper, Topic
from paperterm.store import Store


def _papers(n: int) -> list[Paper]:
    return [Paper(f"2602.{i:05d}", 1, f"Paper {i}", ("A",), "abstract", ("cs.LG",), "")
            for i in range(n)]


def test_least_sure_first_with_a_learned_model(monkeypatch):
    papers = _papers(5)
    monkeypatch.setattr(unsure, "learned_probability",
                        lambda store, ps, topic: np.array([0.9, 0.45, 0.1, 0.52, 0.7])[
                            [int(p.id[-1]) for p in ps]])
    queue = unsure.unsure_papers(Store.unavailable("test"), papers, Topic("t", "d"),
                                 [p.id for p in papers], exclude={"2602.00003"}, size=3)
    assert queue.how == unsure.LEARNED
    assert queue.ids == ["2602.00001", "2602.00004", "2602.00000"]


def test_borderline_band_without_a_model():
    papers = _papers(200)
    ranked = [p.id for p in papers]
    queue = unsure.unsure_papers(Store.unavailable("test"), papers, Topic("t", "d"), ranked,
                                 exclude={ranked[19]}, size=4)
    assert queue.how == unsure.BORDERLINE
    assert queue.ids == [ranked[20], ranked[18], ranked[21], ranked[17]]  # cut at 20
