"""Scoring papers against a topic: the local keyword scorer and the LLM engine.

Importing this package never imports litellm, nor the engine module: both load on first
use (the engine imports litellm the first time it has to send a request), so the reader can
paint before any of it is loaded.
"""

from __future__ import annotations

from typing import Any

from paperterm.scoring.cache import cached_scores
from paperterm.scoring.local import local_scores
from paperterm.scoring.prompt import PROMPT_VERSION
from paperterm.scoring.types import RunSummary, Score, ScoringSettings

__all__ = [
    "PROMPT_VERSION",
    "RunSummary",
    "Score",
    "ScoringError",
    "ScoringSettings",
    "aclose_llm_clients",
    "cached_scores",
    "local_scores",
    "run_scoring",
    "score_papers",
]

_ENGINE = {"ScoringError", "aclose_llm_clients", "run_scoring", "score_papers"}


def __getattr__(name: str) -> Any:
    if name in _ENGINE:
        from paperterm.scoring import llm

        return getattr(llm, name)
    raise AttributeError(f"module 'paperterm.scoring' has no attribute {name!r}")
