"""The API key a hosted model needs, checked before litellm is imported (that takes ~2 s):
a missing key is reported at once. Only well-known providers without an `api_base` are
checked; anything else is left to litellm's own check."""

from __future__ import annotations

import os
from collections.abc import Mapping

from paperterm.scoring.halt import Halt, Stop

# provider prefix of the model name -> the environment variables litellm reads its key from
KEY_VARS: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "groq": ("GROQ_API_KEY",),
    "mistral": ("MISTRAL_API_KEY",),
    "deepseek": ("DEEPSEEK_API_KEY",),
    "openrouter": ("OPENROUTER_API_KEY", "OR_API_KEY"),
    "xai": ("XAI_API_KEY",),
    "cohere": ("COHERE_API_KEY", "CO_API_KEY"),
}


def key_stop(model: str, api_base: str = "", env: Mapping[str, str] | None = None,
             extra: Mapping[str, object] | None = None) -> Stop | None:
    """A MISSING_KEY stop when `model` is a hosted provider's and none of its key variables
    is set; None when the key is there (also as `api_key` in the model's `extra`
    parameters) or cannot be known without litellm."""
    env = os.environ if env is None else env
    if extra and extra.get("api_key"):
        return None
    provider, sep, _ = model.partition("/")
    variables = KEY_VARS.get(provider.strip().lower()) if sep else None
    if not variables or api_base.strip():
        return None
    if any(env.get(var, "").strip() for var in variables):
        return None
    return Stop(Halt.MISSING_KEY, " or ".join(variables), {"model": model})
