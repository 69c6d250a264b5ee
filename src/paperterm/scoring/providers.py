"""What paperterm knows about particular providers: their key variables, which of them are
really missing, and the address a local server has when no api_base is given.

litellm's `validate_environment` lists every variable of a provider as missing when any one
is (Azure: AZURE_API_BASE, AZURE_API_VERSION and AZURE_API_KEY together), and asks for
OLLAMA_API_BASE although Ollama has a default address. `missing_keys` keeps only what is
really unset and not made unnecessary by an api_base. `is_http_url`: an api_base requests can go to.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

KEY_VARS = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
    "azure": "AZURE_API_KEY",
    "cohere": "COHERE_API_KEY",
    "litellm_proxy": "LITELLM_PROXY_API_KEY",
}

OLLAMA_DEFAULT_BASE = "http://localhost:11434"

# Providers that have an address of their own when no api_base is given: the variable
# that overrides it, and the default.
_DEFAULT_BASES = {
    "ollama": ("OLLAMA_API_BASE", OLLAMA_DEFAULT_BASE),
    "ollama_chat": ("OLLAMA_API_BASE", OLLAMA_DEFAULT_BASE),
}


def key_hint(provider: str | None) -> str:
    var = KEY_VARS.get(provider or "")
    return f"check {var}" if var else "check the provider's API key environment variable"


def default_api_base(provider: str | None) -> str:
    """The address a provider's requests go to without an api_base: its variable's value
    (e.g. OLLAMA_API_BASE) or its default; "" when it has none (a hosted API)."""
    var, default = _DEFAULT_BASES.get(provider or "", ("", ""))
    return (os.environ.get(var) or default) if var else ""


def default_base_note(provider: str | None) -> str:
    """How the address was chosen, for messages about a default address."""
    var = _DEFAULT_BASES.get(provider or "", ("", ""))[0]
    if not var:
        return ""
    if os.environ.get(var):
        return f"from {var}"
    return f"{provider}'s default address; set --api-base or {var} for another"


def missing_keys(litellm: Any, model: str, api_base: str | None) -> list[str]:
    """The environment variables `model` needs that are not set (names only)."""
    try:
        env = litellm.validate_environment(model=model, api_base=api_base or None)
    except Exception:
        return []
    try:
        _, provider, _, _ = litellm.get_llm_provider(model=model, api_base=api_base or None)
    except Exception:
        provider = None
    has_base = bool(api_base) or provider in _DEFAULT_BASES
    out = []
    for name in env.get("missing_keys") or []:
        if not name or os.environ.get(name):
            continue
        if has_base and name.endswith("_API_BASE"):
            continue
        out.append(name)
    return out


def is_http_url(url: str) -> bool:
    """An http(s) URL with a host: something a request can be sent to."""
    try:
        parts = urlsplit(url.strip())
        return parts.scheme.lower() in ("http", "https") and bool(parts.hostname) and (
            parts.port is None or parts.port > 0)
    except ValueError:  # a bad port, an unbalanced [ ...
        return False
