"""How a scoring run's scores land on the day's entries: shown as they come, merged so a failure
never hides a score, queued, unsent and failed states, local stand-ins laid under (plain
Python: the reader's scoring controller calls it). What a paper the model did not reach shows
is decided once, by `day.scores.with_stand_ins`, for the day list, `score --json`, the digest
and `eval` alike."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from paperterm.day.listing import PROVISIONAL, STAND_IN, Entry
from paperterm.day.scores import is_stand_in, with_stand_ins
from paperterm.models import Paper
from paperterm.scoring.types import Score

# a Score's status -> the entry status the list shows (the statuses: see paperterm.day.listing)
_STATUS = {"scored": "scored", "cached": "cached", "queued": "queued", "unscored": "failed",
           "prefiltered": "prefilter"}


def set_scores(by_id: Mapping[str, Entry], scores: Iterable[Score],
               status: str | None = None) -> None:
    """Show `scores` as they are (`status`, if given, overrides each score's own)."""
    for s in scores:
        e = by_id.get(s.paper_id)
        if e is not None:
            e.set_score(s.relevance, s.novelty, s.reason,
                        status or _STATUS.get(s.status, s.status), s.error, s.fine)


def merge_scores(by_id: Mapping[str, Entry], scores: Iterable[Score]) -> bool:
    """Apply a run's scores; a failure never hides a score the entry already has.
    Returns whether any entry changed."""
    changed = False
    for s in scores:
        e = by_id.get(s.paper_id)
        if e is None:
            continue
        status = _STATUS.get(s.status, s.status)
        if status == "failed" and e.has_score:
            if e.status == "queued":  # its local stand-in stays, provisional
                e.status, e.error = "failed", s.error
                changed = True
            continue
        e.set_score(s.relevance, s.novelty, s.reason, status, s.error, s.fine)
        changed = True
    return changed


def mark_queued(by_id: Mapping[str, Entry], papers: Iterable[Paper]) -> None:
    """Papers a run is about to score show "…", unless they already have a real score."""
    for p in papers:
        e = by_id[p.id]
        if not e.has_score or e.status in ("local", "prefilter", *PROVISIONAL):
            e.set_score(None, None, "", "queued")


def fail_queued(entries: Iterable[Entry], reason: str) -> None:
    """Whatever a finished run did not report stays visibly unscored, with the reason."""
    for e in entries:
        if e.status == "queued":
            e.set_score(None, None, "", "failed", reason)


def mark_unsent(entries: Iterable[Entry], stopped: str) -> None:
    """Papers a soft halt (budget, cancel, a failure streak) left unscored were never sent:
    "unsent", not "failed" (their error is the halt's, which `stopped` starts with)."""
    for e in entries:
        if e.status == "failed" and e.error and (
                stopped.startswith(e.error) or e.error.startswith("not sent")):
            e.status = "unsent"


def lay_local_under(by_id: Mapping[str, Entry], scores: Iterable[Score]) -> int:
    """Local scores for the papers the model did not score ("failed", "unsent") or has yet
    to score ("queued"): the list stays ranked, provisionally, by the values
    `with_stand_ins` gives them (the entry keeps its status and error). A stand-in laid
    earlier is replaced (the keyword scores shown first, then the day's blend). Returns how
    many entries changed."""
    waiting = {pid: Score(pid, e.paper.version, None, None, "",
                          "queued" if e.status == "queued" else "unscored", e.error)
               for pid, e in by_id.items() if e.status in STAND_IN}
    local = {s.paper_id: s for s in scores if s.paper_id in waiting}
    n = 0
    for pid, s in with_stand_ins(waiting, local).items():
        e = by_id[pid]
        if pid in local and is_stand_in(s) and (
                e.relevance, e.reason, e.fine) != (s.relevance, s.reason, s.fine):
            e.relevance, e.novelty, e.reason, e.fine = s.relevance, s.novelty, s.reason, s.fine
            n += 1
    return n


def clear_scores(entries: Iterable[Entry]) -> None:
    for e in entries:
        e.set_score(None, None, "", "none")
