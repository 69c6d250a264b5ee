"""Semantic Scholar: citation counts, the authors' h-index and the TL;DR of arXiv papers,
asked in batches (POST /graph/v1/paper/batch, at most 500 ids each). The key comes from
`S2_API_KEY` (optional: without one, requests share the public pool and are often told to
wait); `PAPERTERM_S2_API_URL` overrides the address (tests)."""

from __future__ import annotations

import os
import time
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any

from paperterm.io.env import env
from paperterm.outputs.enrich.http import EnrichError, request_json
from paperterm.text.hygiene import clean_line

DEFAULT_URL = "https://api.semanticscholar.org"
BATCH = 500  # the most ids the batch endpoint takes
PACE = 1.1  # seconds between requests: a key allows one request per second
FIELDS = "externalIds,citationCount,influentialCitationCount,tldr,authors.name,authors.hIndex"
# If the batch endpoint refuses the author subfields (HTTP 400), ask without the h-index.
FIELDS_WITHOUT_AUTHORS = "externalIds,citationCount,influentialCitationCount,tldr"


def s2_url() -> str:
    return (env("PAPERTERM_S2_API_URL") or DEFAULT_URL).rstrip("/")


def paper_data(raw: Any) -> dict[str, Any] | None:
    """What paperterm keeps of one batch answer (None: Semantic Scholar does not know it)."""
    if not isinstance(raw, dict):
        return None
    authors = [a for a in raw.get("authors") or [] if isinstance(a, dict)]
    h = [a["hIndex"] for a in authors if isinstance(a.get("hIndex"), int)]
    tldr = raw.get("tldr")
    return {"citations": _count(raw.get("citationCount")),
            "influential": _count(raw.get("influentialCitationCount")),
            "h_index": max(h) if h else None,
            "tldr": clean_line(tldr.get("text") or "") if isinstance(tldr, dict) else "",
            "paper_id": clean_line(raw.get("paperId") or "")}


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def fetch_s2(ids: Sequence[str], *, base_url: str | None = None, api_key: str | None = None,
             batch: int = BATCH, pace: float = PACE,
             sleep: Callable[[float], None] | None = None) -> dict[str, dict[str, Any] | None]:
    """{arXiv id: data or None} for every id asked."""
    key = api_key if api_key is not None else os.environ.get("S2_API_KEY", "").strip()
    base = f"{(base_url or s2_url()).rstrip('/')}/graph/v1/paper/batch?"
    fields = FIELDS
    headers = {"x-api-key": key} if key else {}
    out: dict[str, dict[str, Any] | None] = {}
    for start in range(0, len(ids), batch):
        if start:
            (sleep or time.sleep)(pace)
        chunk = list(ids[start:start + batch])
        payload = {"ids": [f"arXiv:{i}" for i in chunk]}
        try:
            answer = request_json("POST", base + urllib.parse.urlencode({"fields": fields}),
                                  name="Semantic Scholar", headers=headers, payload=payload,
                                  sleep=sleep)
        except EnrichError as exc:
            if fields == FIELDS_WITHOUT_AUTHORS or "HTTP 400" not in str(exc):
                raise
            fields = FIELDS_WITHOUT_AUTHORS
            answer = request_json("POST", base + urllib.parse.urlencode({"fields": fields}),
                                  name="Semantic Scholar", headers=headers, payload=payload,
                                  sleep=sleep)
        rows = answer if isinstance(answer, list) else []
        for n, pid in enumerate(chunk):
            out[pid] = paper_data(rows[n]) if n < len(rows) else None
    return out
