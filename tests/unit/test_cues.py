"""Cue words of a foundational topic (scoring/local/cues.py): the hand-written ones named in
the reason, the learned ones (from a judge's picks) weaker and silent, each kind capped."""

from __future__ import annotations

import pytest

from paperterm.models import Paper
from paperterm.scoring.local import cues


def _paper(title: str, abstract: str, announce: str = "cross") -> Paper:
    return Paper("2602.00001", 1, title, ("A. Author",), abstract, ("cs.LG",), "cs.LG", announce)


def test_learned_words_lift_core_work_and_lower_applied_work_without_a_reason():
    core = _paper("Subspace geometry of gradient descent",
                  "We study the orthogonal decomposition of each layer's weight matrix.")
    applied = _paper("An evaluation framework for agent systems",
                     "Real-world environments, human users and datasets.")
    plain = _paper("A note", "Nothing of either kind is said here.")
    up, down, neither = cues.cues([core, applied, plain])
    assert neither.lift == 0
    assert up.lift >= 5 * cues.LEARNED_WEIGHT and down.lift <= -5 * cues.LEARNED_WEIGHT
    # learned words are not named: the reason lists hand-written cues only
    assert "subspace" not in up.foundational and "agent" not in down.application


def test_each_kind_of_learned_word_counts_at_most_learned_max():
    words = " ".join(cues.LEARNED_FOUNDATIONAL)
    (many,) = cues.cues([_paper("Words", words)])
    hand = cues.CUE_WEIGHT * min(len(many.foundational), cues.MAX_CUES)
    assert many.lift - hand == pytest.approx(cues.LEARNED_WEIGHT * cues.LEARNED_MAX)
