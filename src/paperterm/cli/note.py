"""`paperterm note ID [--set TEXT] [--tags A,B]`: show or set a paper's note and tags."""

from __future__ import annotations

from paperterm.cli.errors import EXIT_OK, UserError
from paperterm.cli.library_ids import cached_by_ids
from paperterm.cli.options import Options
from paperterm.cli.session import open_marks
from paperterm.io import limits


def run(opts: Options) -> int:
    body = _stdin_text() if opts.note_text == "-" else opts.note_text
    marks = open_marks(opts)
    store = marks.store
    try:
        paper = cached_by_ids(store.library, opts.ids)[0]
        if body is not None:
            marks.set_note(paper.id, body)
        if opts.tag_list is not None:
            marks.set_tags(paper.id, opts.tag_list.split(","))
        now = marks.marks([paper.id])[paper.id]
    finally:
        store.close()
    print(f"{paper.id}  {paper.title}")
    print(f"tags: {', '.join(now.tags) if now.tags else '(none)'}")
    print(now.note if now.note else "(no note)")
    return EXIT_OK


def _stdin_text() -> str:
    """The note piped in, at most `limits.MAX_TEXT_FILE` within the read time."""
    try:
        raw = limits.read_stdin("the note on stdin", limits.MAX_TEXT_FILE)
    except (limits.InputTooLarge, limits.InputTooSlow) as exc:
        raise UserError(str(exc)) from None
    return raw.decode("utf-8", "replace")
