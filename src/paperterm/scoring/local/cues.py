"""Cue words for foundational versus application work (a topic with `foundational = true`).

Theory and analysis words ("theorem", "convergence", "implicit bias") count for a paper;
words naming an application domain ("clinical", "traffic", "protein") against it; and a
paper announced as new in the day's categories (not a cross-list from another field) is a
little more likely core work. Each cue counts once per paper, at most MAX_CUES of a kind.
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
CUE_WEIGHT = 0.08  # per cue found (foundational up, application down)
MAX_CUES = 4
NEW_WEIGHT = 0.2  # announced as new in the day's categories


@dataclass(frozen=True)
class _Cue:
    label: str
    seq: tuple[str, ...]
    foundational: bool


@functools.cache
def _cues() -> tuple[_Cue, ...]:
    from paperterm.scoring.local.keywords import tokens

    return tuple(_Cue(w, tuple(tokens(w)), True) for w in FOUNDATIONAL) + tuple(
        _Cue(w, tuple(tokens(w)), False) for w in APPLICATION)


@dataclass(frozen=True)
class Cues:
    lift: float  # added to the blend's fine score
    foundational: tuple[str, ...]
    application: tuple[str, ...]


def cues(papers: Sequence[Paper]) -> list[Cues]:
    """Per paper (same order): its cue lift and the cues found."""
    from paperterm.scoring.local.keywords import stem

    terms = _cues()
    found, _, _ = occurrences(papers, terms, stem)
    out = []
    for paper, row in zip(papers, found, strict=True):
        up = tuple(terms[k].label for k in sorted(row) if terms[k].foundational)
        down = tuple(terms[k].label for k in sorted(row) if not terms[k].foundational)
        lift = CUE_WEIGHT * (min(len(up), MAX_CUES) - min(len(down), MAX_CUES))
        if paper.announce_type == "new":
            lift += NEW_WEIGHT
        out.append(Cues(lift, up, down))
    return out
