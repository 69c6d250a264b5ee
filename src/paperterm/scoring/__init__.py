"""Scoring papers against a topic: the local ranking and the LLM engine.

Importing this package never imports litellm, nor the engine: `run_scoring`, `score_papers`,
`run_task` and `aclose_llm_clients` load it on first use (and the engine imports litellm the
first time it has to send a request), so the reader can paint before any of it is loaded.

The engine's parts: `task` (what a request says and how its reply reads), `provider` (the
litellm boundary), `policy` (retry decisions, pure), `engine` (batches, concurrency, budget,
cancel), `cache` (results in the store), `halt` (why a run stops).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperterm.scoring.cache import cached_scores
    from paperterm.scoring.halt import Halt
    from paperterm.scoring.local import rank_locally
    from paperterm.scoring.local.keywords import local_scores
    from paperterm.scoring.prompt import PROMPT_VERSION
    from paperterm.scoring.types import RunSummary, Score, ScoringError

__all__ = [
    "PROMPT_VERSION",
    "Halt",
    "RunSummary",
    "Score",
    "ScoringError",
    "aclose_llm_clients",
    "cached_scores",
    "local_scores",
    "rank_locally",
    "run_scoring",
    "run_task",
    "score_papers",
]

# where each name lives: loaded on first use, so that the reader's first paint loads only
# the local scorer (the LLM task, its prompt and reply parsing wait until a model is used)
_HOMES = {
    "cached_scores": "cache", "Halt": "halt", "ScoringError": "types",
    "rank_locally": "local", "local_scores": "local.keywords", "PROMPT_VERSION": "prompt",
    "RunSummary": "types", "Score": "types",
    "run_scoring": "run", "run_task": "run", "score_papers": "run",
    "aclose_llm_clients": "provider",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'paperterm.scoring' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"paperterm.scoring.{home}"), name)
