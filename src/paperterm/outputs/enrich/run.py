"""Enrich papers: ask each source about the papers it has not been asked about lately, and
cache every answer (a source that does not know a paper is recorded too, so it is not asked
again until the answer is stale). Online sources are skipped when offline."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import TYPE_CHECKING, Any

from paperterm.models import Paper
from paperterm.outputs.enrich.http import EnrichError
from paperterm.outputs.enrich.links import code_links
from paperterm.signals import ONLINE, SOURCES

if TYPE_CHECKING:
    from paperterm.store import Enrichment

MAX_AGE = 24 * 3600.0  # online answers older than this are asked again


@dataclass
class Outcome:
    """What one run did, per source."""

    asked: dict[str, int] = field(default_factory=dict)  # papers asked
    found: dict[str, int] = field(default_factory=dict)  # papers the source knew
    cached: dict[str, int] = field(default_factory=dict)  # fresh in the cache, not asked
    skipped: list[str] = field(default_factory=list)  # online sources skipped (offline)
    errors: dict[str, str] = field(default_factory=dict)  # source -> one-line problem

    def summary(self) -> str:
        parts = []
        for source in SOURCES:
            if source in self.errors:
                parts.append(f"{source}: failed ({self.errors[source]})")
            elif source in self.skipped:
                parts.append(f"{source}: skipped (offline)")
            elif source in self.asked or source in self.cached:
                asked, cached = self.asked.get(source, 0), self.cached.get(source, 0)
                bits = [f"{self.found.get(source, 0)} of {asked} found"] if asked else []
                bits += [f"{cached} cached"] if cached or not asked else []
                parts.append(f"{source}: {', '.join(bits)}")
        return "; ".join(parts)


def links_data(paper: Paper) -> dict[str, Any] | None:
    urls = code_links(" ".join(x for x in (paper.abstract, paper.comment or "") if x))
    return {"urls": urls} if urls else None


def enrich(cache: Enrichment, papers: Sequence[Paper], sources: Sequence[str], *,
           day: date | None = None, offline: bool = False, force: bool = False,
           max_age: float = MAX_AGE, fetchers: dict[str, Callable[..., Any]] | None = None,
           ) -> Outcome:
    """Enrich `papers` from `sources` into the `cache`. `fetchers` replaces a source's fetch
    function (tests); errors of one source are reported and do not stop the others."""
    from paperterm.outputs.enrich.hf import daily_dates, fetch_hf
    from paperterm.outputs.enrich.s2 import fetch_s2

    fetch: dict[str, Callable[..., Any]] = {"hf": fetch_hf, "s2": fetch_s2, **(fetchers or {})}
    out = Outcome()
    ids = list(dict.fromkeys(p.id for p in papers))
    for source in (s for s in SOURCES if s in sources):
        if source in ONLINE and offline:
            out.skipped.append(source)
            continue
        # links are read again each time: cheap, and a new version may change the abstract
        fresh = set() if force or source == "links" else cache.enriched_since(
            source, ids, time.time() - max_age)
        todo = [i for i in ids if i not in fresh]
        out.cached[source] = len(ids) - len(todo)
        if not todo:
            continue
        try:
            if source == "links":
                by_id = {p.id: p for p in papers}
                found = {i: links_data(by_id[i]) for i in todo}
            elif source == "hf":
                today = datetime.now(timezone.utc).date()
                wanted = set(todo)
                days = [d for d in {p_day(p, day) for p in papers if p.id in wanted} if d]
                dates = sorted({d2 for d in days for d2 in daily_dates(d, today)})
                found = fetch["hf"](todo, dates)
            else:
                found = fetch["s2"](todo)
        except EnrichError as exc:
            out.errors[source] = str(exc)
            continue
        cache.put_enrichment(source, found)
        out.asked[source] = len(todo)
        out.found[source] = sum(1 for v in found.values() if v is not None)
    return out


def p_day(paper: Paper, day: date | None) -> date | None:
    """The day a paper was announced: the loaded day, else its first submission date."""
    if day is not None:
        return day
    try:
        return date.fromisoformat((paper.published or "")[:10])
    except ValueError:
        return None


