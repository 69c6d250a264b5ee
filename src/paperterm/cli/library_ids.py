"""Paper ids given on the command line, checked against the cache."""

from __future__ import annotations

from paperterm.arxiv_id import bare_id
from paperterm.cli.errors import UserError
from paperterm.models import Paper
from paperterm.services.storage import Library


def cached_by_ids(library: Library, given: list[str]) -> list[Paper]:
    """The cached papers for these ids, in the order given (duplicates once); a UserError
    naming every id that is not in the cache."""
    wanted = list(dict.fromkeys(bare_id(i) for i in given))
    known = library.cached_papers(wanted)
    missing = [i for i in wanted if i not in known]
    if missing:
        raise UserError(f"not in the cache: {', '.join(missing)} (load its day first with "
                        "--date/--feed/--query, or check the id)")
    return [known[i] for i in wanted]
