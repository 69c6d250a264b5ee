"""Cue words for foundational versus application work (a topic with `foundational = true`).

Theory and analysis words ("theorem", "convergence", "implicit bias") count for a paper;
words naming an application domain ("clinical", "traffic", "protein") against it; and a
paper announced as new in the day's categories (not a cross-list from another field) is a
little more likely core work. Each cue counts once per paper, at most MAX_CUES of a kind.

Learned cues, weaker and more of them: the words most typical of the papers a judge picked
for the moe profile on the five development days and of those it did not (log-odds of the
papers each word is in, `benchmarks/derive_cues.py`); each found counts LEARNED_WEIGHT, at
most LEARNED_MAX of a kind. Measured leaving one day out (derived on four days, measured on
the fifth: `benchmarks/measure_local.py --lodo`). They lift or lower without a reason line.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from paperterm.models import Paper
from paperterm.scoring.local.occurrences import occurrences

FOUNDATIONAL = (
    "theorem", "we prove", "proof", "provably", "provable", "upper bound", "lower bound",
    "theoretical", "theory", "convergence", "asymptotic", "understanding", "why",
    "mechanism", "dynamics", "implicit bias", "emergence", "principled", "geometry",
    "characterize", "phase transition", "through the lens", "rethinking", "revisiting",
    "scaling",
)
APPLICATION = (
    "patient", "clinical", "medical", "hospital", "disease", "diagnosis", "traffic", "vehicle",
    "driving", "robot", "robotic", "manufacturing", "financial", "stock", "legal",
    "education", "student", "agriculture", "crop", "weather", "climate", "power grid",
    "battery", "wireless", "satellite", "remote sensing", "molecule", "molecular", "protein",
    "drug", "chemistry", "material", "EEG", "ECG", "MRI", "brain-computer", "speech", "audio",
    "music", "recommendation", "e-commerce", "customer", "social media", "misinformation",
    "malware", "intrusion", "healthcare", "genomic", "single-cell", "radiology", "cancer",
    "tumor", "surgical", "agent", "agents", "agentic", "benchmark", "dataset", "case study",
    "deployment", "industrial",
)
LEARNED_FOUNDATIONAL = (
    "training", "weight", "theoretical", "geometric", "subspace", "show", "parameter",
    "layer", "block", "neural", "gradient", "token", "manifold", "mechanistic", "linear",
    "orthogonal", "efficient", "inference", "architecture", "decomposition",
    "representations", "curvature", "decay", "norm", "transformer", "accelerating",
    "attention", "descent", "matrix", "approximation",
)
LEARNED_APPLICATION = (
    "evaluation", "agent", "systems", "framework", "multi", "interactions", "decision",
    "environments", "policy", "datasets", "integrates", "reliable", "reasoning", "real",
    "assessment", "human", "data", "world", "simulation", "detection", "user", "present",
    "generation", "automated", "research", "scenarios", "score", "produce", "reinforcement",
    "risk",
)
CUE_WEIGHT = 0.08  # per cue found (foundational up, application down)
MAX_CUES = 4
LEARNED_WEIGHT = 0.05  # per learned cue found
LEARNED_MAX = 8
NEW_WEIGHT = 0.2  # announced as new in the day's categories


@dataclass(frozen=True)
class _Cue:
    label: str
    seq: tuple[str, ...]
    foundational: bool
    learned: bool = False


def _cues() -> tuple[_Cue, ...]:
    return _cue_terms(FOUNDATIONAL, APPLICATION, LEARNED_FOUNDATIONAL, LEARNED_APPLICATION)


@functools.cache
def _cue_terms(up: tuple[str, ...], down: tuple[str, ...], learned_up: tuple[str, ...],
               learned_down: tuple[str, ...]) -> tuple[_Cue, ...]:
    from paperterm.scoring.local.keywords import tokens

    return (tuple(_Cue(w, tuple(tokens(w)), True) for w in up)
            + tuple(_Cue(w, tuple(tokens(w)), False) for w in down)
            + tuple(_Cue(w, tuple(tokens(w)), True, True) for w in learned_up)
            + tuple(_Cue(w, tuple(tokens(w)), False, True) for w in learned_down))


@dataclass(frozen=True)
class Cues:
    lift: float  # added to the blend's fine score
    foundational: tuple[str, ...]
    application: tuple[str, ...]


def cues(papers: Sequence[Paper], own: Sequence[str] = ()) -> list[Cues]:
    """Per paper (same order): its cue lift and the cues found. An application cue within
    one of the topic's `own` terms (its keywords, phrases and their related terms) does not
    count against a paper: "agents" is no application for a topic on LLM agents."""
    from paperterm.scoring.local.keywords import stem, tokens
    from paperterm.topics.related import contains

    terms = _cues()
    mine = [tokens(t) for t in own]
    neutral = {k for k, t in enumerate(terms)
               if not (t.foundational or t.learned) and any(contains(m, t.seq) for m in mine)}
    found, _, _ = occurrences(papers, terms, stem)
    out = []
    for paper, row in zip(papers, found, strict=True):
        row = {k: v for k, v in row.items() if k not in neutral} if neutral else row
        hand = [terms[k] for k in sorted(row) if not terms[k].learned]
        up = tuple(t.label for t in hand if t.foundational)
        down = tuple(t.label for t in hand if not t.foundational)
        lift = CUE_WEIGHT * (min(len(up), MAX_CUES) - min(len(down), MAX_CUES))
        learned = [terms[k] for k in row if terms[k].learned]
        learned_up = sum(t.foundational for t in learned)
        lift += LEARNED_WEIGHT * (min(learned_up, LEARNED_MAX)
                                  - min(len(learned) - learned_up, LEARNED_MAX))
        if paper.announce_type == "new":
            lift += NEW_WEIGHT
        out.append(Cues(lift, up, down))
    return out
