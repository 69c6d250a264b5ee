"""`paperterm search QUERY`: full-text search over every cached paper, offline."""

from __future__ import annotations

import json
import sys

from paperterm.cli.errors import EXIT_ERROR, EXIT_OK, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import listing_store
from paperterm.day.scores import ShownScore, score_text
from paperterm.services.library import (
    HIT_CLOSE,
    HIT_OPEN,
    QueryTooLarge,
    SearchFailed,
    SearchHit,
    Selection,
    match_expression,
)


def hit_record(hit: SearchHit, starred: bool, shown: ShownScore | None = None,
               position: int | None = None,
               revised_from: int | None = None) -> dict[str, object]:
    """One row of `search --json` (and of the starred list): `rank` its position (1 = best
    match, as `score --json`'s `rank` is a position), `match` the BM25 strength of the match
    (higher: better); `version` is the cached one, `revised_from` the earlier cached version it
    revises (null: none cached)."""
    p = hit.paper
    return {
        "id": p.id, "version": p.version, "revised_from": revised_from, "title": p.title,
        "authors": list(p.authors),
        "day": hit.day, "primary_category": p.primary_category, "relevance": hit.relevance,
        "score_from": shown.provenance if shown is not None else None,
        "starred": starred, "rank": position, "match": round(-hit.rank, 4),
        "snippet": hit.snippet.replace(HIT_OPEN, "**").replace(HIT_CLOSE, "**"),
        "url": p.abs_url,
    }


def _line(hit: SearchHit, starred: bool, shown: ShownScore | None) -> str:
    p = hit.paper
    score = score_text(hit.relevance, shown)
    star = "★" if starred else " "
    return f"{score} {star} {hit.day}  {p.id:<12} {p.title}  ({p.first_author})"


def run(opts: Options) -> int:
    query = " ".join(opts.terms)
    try:
        if match_expression(query) is None:
            raise UserError(f"nothing to search for in {query!r}: give at least one word")
    except QueryTooLarge as exc:
        raise UserError(str(exc)) from None
    from paperterm.services import library

    store, topic, settings = listing_store(opts)
    try:
        sel = Selection(starred=opts.starred, tag=opts.tag, since=opts.since)
        try:
            hits, shown = library.search(store, query, topic, settings, limit=opts.limit,
                                         sel=sel)
        except SearchFailed as exc:  # never "no results" when the index failed
            raise UserError(str(exc), EXIT_ERROR) from None
        starred = store.marks.starred_ids() if hits else set()
        revised = library.revised_from(store.papers, hits) if opts.json else {}
    finally:
        store.close()
    if opts.json:
        json.dump([hit_record(h, h.paper.id in starred, shown.get(h.paper.id), i,
                              revised.get(h.paper.id)) for i, h in enumerate(hits, 1)],
                  sys.stdout,
                  ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    elif hits:
        sys.stdout.write("".join(_line(h, h.paper.id in starred, shown.get(h.paper.id)) + "\n"
                                 for h in hits))
    else:
        from paperterm.services.dates import eastern_today

        today = eastern_today()
        future = (f": --since {opts.since.isoformat()} is in the future (today is "
                  f"{today.isoformat()})" if opts.since and opts.since > today else "")
        print(f"no cached paper matches {query!r}{future}", file=sys.stderr)
    return EXIT_OK
