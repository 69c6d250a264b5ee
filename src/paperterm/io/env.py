"""The `PAPERTERM_*` environment variables, each declared once, read through `env`.

Nothing else reads them from `os.environ`: a test scans the package for that, and README's
configuration section carries `env_table()`."""

from __future__ import annotations

import os
from typing import NamedTuple
from urllib.parse import urlsplit


class EnvError(ValueError):
    """A declared variable holds something paperterm cannot use (one line, for users)."""


class EnvVar(NamedTuple):
    name: str
    help: str
    seam: bool = False  # points paperterm at a local server or a fixed day (tests, offline)
    url: str | None = None  # an address: what its placeholders are filled with to check it
    iso_date: bool = False  # a YYYY-MM-DD date


ENV_VARS = (
    EnvVar("PAPERTERM_CONFIG", "the config file (`--config FILE` wins)"),
    EnvVar("PAPERTERM_HOME", "the data directory: the SQLite cache, the default `papers.bib`"),
    EnvVar("PAPERTERM_SMTP_PASSWORD", "the SMTP password for `[delivery]` `smtp_user`"),
    EnvVar("PAPERTERM_DEBUG", "any value: an internal error shows its traceback"),
    EnvVar("PAPERTERM_TODAY", "the arXiv calendar day, as YYYY-MM-DD", seam=True,
           iso_date=True),
    EnvVar("PAPERTERM_RSS_URL", "the arXiv RSS address (`{cats}` is replaced)", seam=True,
           url="cats"),
    EnvVar("PAPERTERM_ARXIV_API_URL", "the arXiv API address (`{}`: the query)", seam=True,
           url=""),
    EnvVar("PAPERTERM_HF_ENDPOINT", "the Hugging Face daily-papers address", seam=True,
           url="-"),
    EnvVar("PAPERTERM_S2_API_URL", "the Semantic Scholar API address", seam=True, url="-"),
    EnvVar("PAPERTERM_ZOTERO_API_URL", "the zotero.org web API address", seam=True, url="-"),
    EnvVar("PAPERTERM_ZOTERO_CONNECTOR_URL", "the Zotero desktop connector address",
           seam=True, url="-"),
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
        raise KeyError(f"{name} is not a declared PAPERTERM_* variable (io/env.py)")
    return os.environ.get(name) or None


def check_values() -> None:
    """Raise EnvError when a declared address variable is set to something that is no
    http(s) URL (its placeholders filled in), or a date variable to no date: one line
    naming the variable, at start-up, rather than an internal error deep in a fetch."""
    for var in ENV_VARS:
        value = env(var.name)
        if value is None:
            continue
        if var.iso_date and not _is_date(value):
            raise EnvError(f"{var.name} is not a YYYY-MM-DD date: {value[:40]!r}")
        if var.iso_date and not "0001-01-08" <= value <= "9999-12-24":
            raise EnvError(f"{var.name} is at the end of the calendar ({value}): a week and "
                           "the days around it must exist; give a day between 0001-01-08 "
                           "and 9999-12-24")
        if var.url is not None and not _usable_url(value, var.url or "-"):
            # (the value is not repeated: it may hold credentials)
            raise EnvError(f"{var.name} is not an http(s) URL; unset it or give one such as "
                           f"{_EXAMPLE[var.url or '-']}")


def _is_date(value: str) -> bool:
    from datetime import date

    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


_EXAMPLE = {"cats": "http://127.0.0.1:8000/rss/{cats}", "": "http://127.0.0.1:8000/api?{}",
            "-": "http://127.0.0.1:8000"}


def _usable_url(value: str, placeholder: str) -> bool:
    """`placeholder`: the keyword field the value's `{...}` takes ("cats"), "" for one
    positional `{}`, "-" for none (the value is used as it is)."""
    try:
        if placeholder == "":
            value = value.format("q")
        elif placeholder != "-":
            value = value.format(**{placeholder: "cs.LG"})
        parts = urlsplit(value)
        return (parts.scheme in ("http", "https") and bool(parts.hostname)
                and (parts.port is None or parts.port > 0))
    except (ValueError, IndexError, KeyError):  # a bad port or brace, an unknown field
        return False


def env_table() -> str:
    """README's table of the variables (a test checks README carries it as written)."""
    rows = ["| variable | what it sets |", "|---|---|"]
    rows += [f"| `{v.name}` | {v.help}{' (test seam)' if v.seam else ''} |" for v in ENV_VARS]
    return "\n".join(rows)
