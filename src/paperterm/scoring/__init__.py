"""Scoring papers against a topic: the local keyword scorer and the LLM engine.

Importing this package never imports litellm, nor the engine: `run_scoring`, `score_papers`,
`run_task` and `aclose_llm_clients` load it on first use (and the engine imports litellm the
first time it has to send a request), so the reader can paint before any of it is loaded.

The engine's parts: `task` (what a request says and how its reply reads), `provider` (the
litellm boundary), `policy` (retry decisions, pure), `engine` (batches, concurrency, budget,
cancel), `cache` (results in the store), `halt` (why a run stops).
"""

from __future__ import annotations

from typing import Any

from paperterm.scoring.cache import cached_scores
from paperterm.scoring.halt import Halt, ScoringError
from paperterm.scoring.local import cached_local_scores, local_scores
from paperterm.scoring.prompt import PROMPT_VERSION
from paperterm.scoring.types import RunSummary, Score, ScoringSettings

__all__ = [
    "PROMPT_VERSION",
    "Halt",
    "RunSummary",
    "Score",
    "ScoringError",
    "ScoringSettings",
    "aclose_llm_clients",
    "cached_local_scores",
    "cached_scores",
    "local_scores",
    "run_scoring",
    "run_task",
    "score_papers",
]

_RUN = {"run_scoring", "run_task", "score_papers"}


def __getattr__(name: str) -> Any:
    if name in _RUN:
        from paperterm.scoring import run

        return getattr(run, name)
    if name == "aclose_llm_clients":
        from paperterm.scoring import provider

        return provider.aclose_llm_clients
    raise AttributeError(f"module 'paperterm.scoring' has no attribute {name!r}")
