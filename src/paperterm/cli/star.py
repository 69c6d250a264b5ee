"""`paperterm star ID...` / `paperterm unstar ID...`: the reading list, for any cached paper."""

from __future__ import annotations

import sys

from paperterm.cli.errors import EXIT_OK
from paperterm.cli.library_ids import cached_by_ids
from paperterm.cli.options import Options
from paperterm.cli.session import open_store


def run(opts: Options) -> int:
    notices: list[str] = []
    store = open_store(notices)
    for notice in notices:
        print(f"note: {notice}", file=sys.stderr)
    try:
        papers = cached_by_ids(store.library, opts.ids)
        starred = opts.command == "star"
        with store.transaction():
            for p in papers:
                store.marks.set_starred(p.id, starred)
    finally:
        store.close()
    verb = "starred" if starred else "unstarred"
    for p in papers:
        print(f"{verb} {p.id}  {p.title}")
    return EXIT_OK
