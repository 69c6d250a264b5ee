"""`paperterm star [--topic T] ID...` / `paperterm unstar ID...`: the reading list, for any
cached paper; a star teaches the ranking of the topic it was given under (default: the
config's) and marks the paper seen, as the reader does."""

from __future__ import annotations

import sys

from paperterm.cli.errors import EXIT_OK
from paperterm.cli.library_ids import cached_by_ids
from paperterm.cli.options import Options
from paperterm.cli.session import open_marks


def run(opts: Options) -> int:
    marks = open_marks(opts)
    try:
        papers = cached_by_ids(marks.store.library, opts.ids)
        starred = opts.command == "star"
        ids = [p.id for p in papers]
        moved: dict[str, str] = {}
        if starred:  # as in the reader: a paper starred is a paper seen
            moved = marks.starred_elsewhere(ids)
            marks.star(ids)
            marks.mark_seen(ids)
        else:
            marks.unstar(ids)
    finally:
        marks.store.close()
    verb = "starred" if starred else "unstarred"
    for p in papers:
        print(f"{verb} {p.id}  {p.title}")
    if starred and papers:
        was = f" (was {', '.join(sorted(set(moved.values())))})" if moved else ""
        print(f"note: starred under topic {marks.topic}{was} (what its ranking learns from)",
              file=sys.stderr)
    return EXIT_OK
