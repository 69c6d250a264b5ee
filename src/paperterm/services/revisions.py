"""Revisions of the papers the user kept: a paper starred, saved, noted or by a followed
author that comes back with a higher version than the one cached before. One flow for the
reader's mark and preview, the digest's section, `starred --json` and `export --update`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperterm.models import Paper
    from paperterm.revisions import Revision
    from paperterm.store import Store


def kept_ids(store: Store, ids: Iterable[str]) -> set[str]:
    """The papers among `ids` the user starred, saved or wrote a note on."""
    ids = list(ids)
    states = store.marks.states(ids)
    notes = store.marks.notes(ids)
    return {i for i in ids
            if (i in states and (states[i].starred or states[i].saved)) or notes.get(i)}


def revisions(store: Store, papers: Sequence[Paper], follow: Iterable[str] = (),
              ) -> dict[str, Revision]:
    """The papers of `papers` that revise one the user kept (starred, saved, noted, or by
    an author followed in the store or in `follow`), by id, against the highest earlier
    version in the cache."""
    if not store.available:
        return {}
    earlier = store.papers.earlier_versions(papers)
    if not earlier:  # most days: no replacement of a cached paper (nothing more imported)
        return {}
    from paperterm.follows import Followed
    from paperterm.revisions import Revision

    kept = kept_ids(store, earlier)
    followed = Followed([*store.marks.followed_authors(), *follow])
    return {p.id: Revision(earlier[p.id], p) for p in papers
            if p.id in earlier and (p.id in kept or followed.authors_of(p))}
