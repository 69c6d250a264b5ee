"""The `PAPERTERM_*` environment variables, each declared once, read through `env`.

Nothing else reads them from `os.environ`: a test scans the package for that, and README's
configuration section carries `env_table()`."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class EnvVar:
    name: str
    help: str
    seam: bool = False  # points paperterm at a local server or a fixed day (tests, offline)


ENV_VARS = (
    EnvVar("PAPERTERM_CONFIG", "the config file (`--config FILE` wins)"),
    EnvVar("PAPERTERM_HOME", "the data directory: the SQLite cache, the default `papers.bib`"),
    EnvVar("PAPERTERM_SMTP_PASSWORD", "the SMTP password for `[delivery]` `smtp_user`"),
    EnvVar("PAPERTERM_DEBUG", "any value: an internal error shows its traceback"),
    EnvVar("PAPERTERM_TODAY", "the arXiv calendar day, as YYYY-MM-DD", seam=True),
    EnvVar("PAPERTERM_RSS_URL", "the arXiv RSS address (`{cats}` is replaced)", seam=True),
    EnvVar("PAPERTERM_ARXIV_API_URL", "the arXiv API address (`{}`: the query)", seam=True),
    EnvVar("PAPERTERM_HF_ENDPOINT", "the Hugging Face daily-papers address", seam=True),
    EnvVar("PAPERTERM_S2_API_URL", "the Semantic Scholar API address", seam=True),
    EnvVar("PAPERTERM_ZOTERO_API_URL", "the zotero.org web API address", seam=True),
    EnvVar("PAPERTERM_ZOTERO_CONNECTOR_URL", "the Zotero desktop connector address",
           seam=True),
    EnvVar("PAPERTERM_HTTP_DEADLINE", "seconds one HTTP request (webhook, Zotero, "
           "enrichment) may take in all; default 30", seam=True),
    EnvVar("PAPERTERM_LOCAL_RANKING", "`thread`: the reader ranks locally in its own process "
           "(default `process`: in a process beside it, so keys never wait)"),
    EnvVar("PAPERTERM_LITELLM_PROXY", "the `litellm` script the proxy end-to-end test starts "
           "(tests only)"),
)
_BY_NAME = {v.name: v for v in ENV_VARS}


def env(name: str) -> str | None:
    """The value of the declared variable `name`; None when unset or empty."""
    if name not in _BY_NAME:
        raise KeyError(f"{name} is not a declared PAPERTERM_* variable (settings/env.py)")
    return os.environ.get(name) or None


def env_table() -> str:
    """README's table of the variables (a test checks README carries it as written)."""
    rows = ["| variable | what it sets |", "|---|---|"]
    rows += [f"| `{v.name}` | {v.help}{' (test seam)' if v.seam else ''} |" for v in ENV_VARS]
    return "\n".join(rows)
