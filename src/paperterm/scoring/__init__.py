"""Scoring papers against a topic: the local keyword scorer and the LLM engine.

Importing this package never imports litellm; the engine does, the first time it has to
send a request.
"""

from paperterm.scoring.cache import cached_scores
from paperterm.scoring.llm import (
    ScoringError,
    aclose_llm_clients,
    run_scoring,
    score_papers,
)
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
