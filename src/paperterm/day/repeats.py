"""Repeats: a paper of the day the user was shown before, on an earlier day: the same id
again (a cross-list after its first listing, a replacement) or a near-duplicate (the same
title and first author under another id). A repeat shows as seen and is not new to the user;
its marks (star, note) are the id's, as always."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from paperterm.store.days import ascii_lower
from paperterm.topics.follows import name_key

if TYPE_CHECKING:
    from paperterm.models import Paper
    from paperterm.store import Store


class Repeat(NamedTuple):
    """The paper was announced before, on `day` (ISO), as `other_id` (its own id, or the id
    of a near-duplicate)."""

    id: str
    day: str
    other_id: str

    @property
    def note(self) -> str:
        """"also announced 03-02 as 2603.01234" (its own id: "also announced 03-02")."""
        when = self.day[5:] if len(self.day) == 10 else self.day
        return f"also announced {when}" + (f" as {self.other_id}" if self.other_id != self.id
                                            else "")


def _title_key(title: str) -> str:
    return " ".join(ascii_lower(unicodedata.normalize("NFC", title)).split())


def _forms(title: str) -> set[str]:
    """The title lower-cased as SQLite does, in both Unicode forms a cache may hold (older
    caches kept titles as the feed wrote them: NFC or NFD)."""
    low = ascii_lower(title)
    return {low} if low.isascii() else {unicodedata.normalize("NFC", low),
                                        unicodedata.normalize("NFD", low)}


def _first_author(authors: Sequence[str]) -> str:
    return name_key(authors[0]) if authors else ""


def repeats(store: Store, papers: Sequence[Paper], day: date | None,
            days: Mapping[str, str] | None = None) -> dict[str, Repeat]:
    """The papers of `papers` (announced on `day`, or each on its day in `days` for a view
    of several days) that were announced on an earlier day, by id."""
    if not store.available or not papers:
        return {}
    own = {p.id: date.fromisoformat(days[p.id]) if days and p.id in days else day
           for p in papers}
    latest = max((d for d in own.values() if d is not None), default=None)
    if latest is None:
        return {}
    out: dict[str, Repeat] = {}
    for pid, first in store.papers.announced_before(own, latest).items():
        mine = own[pid]
        if mine is not None and first < mine.isoformat():
            out[pid] = Repeat(pid, first, pid)
    _near_duplicates(store, [p for p in papers if p.id not in out], own, out)
    return out


def _near_duplicates(store: Store, papers: Sequence[Paper], own: Mapping[str, date | None],
                     out: dict[str, Repeat]) -> None:
    """Add the papers whose title and first author an earlier announced paper has."""
    holder = {form: p.id for p in papers for form in _forms(p.title)}
    # the titles some other paper holds too (nearly every title of a day is its own only)
    shared = store.papers.titles_held_elsewhere(holder)
    if not shared:
        return
    # a view of several days can hold both twins: each may be the later one
    wanted: dict[tuple[str, str], list[Paper]] = {}
    for p in papers:
        if _forms(p.title) & shared:
            wanted.setdefault((_title_key(p.title), _first_author(p.authors)), []).append(p)
    matches: dict[str, list[Paper]] = {}  # other id -> the papers of the view it duplicates
    for other, title, authors in store.papers.same_titles(shared):
        for paper in wanted.get((_title_key(title), _first_author(json.loads(authors))), []):
            if other != paper.id:
                matches.setdefault(other, []).append(paper)
    if not matches:
        return
    latest = max(d for d in own.values() if d is not None)
    for other, first in sorted(store.papers.announced_before(matches, latest).items(),
                               key=lambda item: item[1]):
        for paper in matches[other]:
            mine = own.get(paper.id)
            if mine is not None and first < mine.isoformat() and paper.id not in out:
                out[paper.id] = Repeat(paper.id, first, other)
