"""`paperterm starred [--json] [--since DATE] [--topic T]`: the reading list, the starred
papers of every cached day (newest day first), each with the score the reader shows."""

from __future__ import annotations

import json
import sys

from paperterm.cli.errors import EXIT_OK
from paperterm.cli.options import Options
from paperterm.cli.session import listing_store
from paperterm.day.scores import ShownScore, score_text
from paperterm.services.library import SearchHit


def record(hit: SearchHit, shown: ShownScore | None, star_topic: str | None,
           revised_from: int | None = None) -> dict[str, object]:
    """One `starred --json` row: `version` the cached one, `revised_from` the earlier cached
    version it revises (null: none cached)."""
    p = hit.paper
    return {"id": p.id, "version": p.version, "revised_from": revised_from, "title": p.title,
            "authors": list(p.authors),
            "day": hit.day, "primary_category": p.primary_category,
            "relevance": hit.relevance,
            "score_from": shown.provenance if shown is not None else None,
            "star_topic": star_topic, "url": p.abs_url}


def line(hit: SearchHit, shown: ShownScore | None) -> str:
    p = hit.paper
    score = score_text(hit.relevance, shown)
    return f"{hit.day}  {score}  {p.id:<12} {p.title}  ({p.first_author})"


def run(opts: Options) -> int:
    from paperterm.services import library

    store, topic, settings = listing_store(opts)
    try:
        hits, shown = library.starred(store, topic, settings, since=opts.since,
                                      given_under=topic.name if opts.topic and topic else None,
                                      starred_since=opts.starred_since)
        states = store.marks.states([h.paper.id for h in hits])
        revised = library.revised_from(store.papers, hits) if opts.json else {}
    finally:
        store.close()
    if opts.json:
        rows = [record(h, shown.get(h.paper.id),
                       states[h.paper.id].star_topic if h.paper.id in states else None,
                       revised.get(h.paper.id))
                for h in hits]
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    elif hits:
        sys.stdout.write("".join(line(h, shown.get(h.paper.id)) + "\n" for h in hits))
    else:
        what = f" under topic {topic.name}" if opts.topic and topic else ""
        since = f" since {opts.since.isoformat()}" if opts.since else ""
        if opts.starred_since:
            since += f" starred since {opts.starred_since.isoformat()}"
        print(f"no starred papers{what}{since} (star with `*` in the reader or "
              "`paperterm star ID`)", file=sys.stderr)
    return EXIT_OK
