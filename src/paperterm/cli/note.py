"""`paperterm note ID [--set TEXT] [--tags A,B]`: show or set a paper's note and tags."""

from __future__ import annotations

import sys

from paperterm.cli.errors import EXIT_OK
from paperterm.cli.library_ids import cached_by_ids
from paperterm.cli.options import Options
from paperterm.cli.session import open_store


def run(opts: Options) -> int:
    body = sys.stdin.read() if opts.note_text == "-" else opts.note_text
    notices: list[str] = []
    store = open_store(notices)
    for notice in notices:
        print(f"note: {notice}", file=sys.stderr)
    try:
        paper = cached_by_ids(store.library, opts.ids)[0]
        if body is not None:
            store.marks.set_note(paper.id, body)
        if opts.tag_list is not None:
            store.marks.set_tags(paper.id, opts.tag_list.split(","))
        note = store.marks.note(paper.id)
        tags = store.marks.tags([paper.id]).get(paper.id, [])
    finally:
        store.close()
    print(f"{paper.id}  {paper.title}")
    print(f"tags: {', '.join(tags) if tags else '(none)'}")
    print(note if note else "(no note)")
    return EXIT_OK
