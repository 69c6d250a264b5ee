"""A day's papers against what came before: which kept papers came back revised
(`sources.revisions`) and which were announced on an earlier day (`services.repeats`),
set on the day's list entries. One call for the reader's day screens; `revisions` for
`paperterm digest`'s revised papers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from paperterm.day.repeats import repeats
from paperterm.sources.revisions import Op, Revision, diff_summary, revisions

if TYPE_CHECKING:
    from paperterm.day.listing import Entry
    from paperterm.models import Day
    from paperterm.store import Store

# how a revision is shown (the preview's word diff and its one-line summary); the kept
# papers that came back revised (`paperterm digest`'s "revised" section)
__all__ = ["Op", "Revision", "diff_summary", "mark_history", "revisions"]


def mark_history(store: Store, by_id: Mapping[str, Entry], day: Day,
                 follow: Iterable[str] = ()) -> None:
    """Set each entry's `revision`, `repeat` and `folded` (a near-duplicate of another paper
    in the same list, a view of several days: one row, the first announcement's)."""
    papers = [e.paper for e in by_id.values()]
    for pid, rev in revisions(store, papers, follow=follow).items():
        by_id[pid].revision = rev
    for pid, seen_before in repeats(store, papers, day.day, day.paper_days).items():
        by_id[pid].repeat = seen_before
        by_id[pid].folded = seen_before.other_id != pid and seen_before.other_id in by_id
