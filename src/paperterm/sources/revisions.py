"""A paper the user kept came back revised: the earlier and the new version, what changed in
title and abstract as a word diff, and finding them (a paper starred, saved, noted or by a
followed author that comes back with a higher version than the one cached before). One flow
for the loader's filter, the reader's mark and preview, the digest's section,
`starred --json` and `export --update`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from paperterm.models import Paper

if TYPE_CHECKING:
    from paperterm.store import Store

Op = Literal["same", "del", "ins"]
_TOKENS = re.compile(r"\S+|\s+")
# the most words a side of a word diff may have: the diff's time grows with the product of
# the two sides (2 x 8,000 words: 0.5 s; 2 x 40,000: 47 s on the reader's UI thread). An
# abstract is at most ~300 words; beyond the cap the new text is shown, "diff too large".
DIFF_MAX_WORDS = 3_000


@dataclass(frozen=True)
class Revision:
    """`new` is a higher version of `old`, the version cached before it."""

    old: Paper
    new: Paper

    @property
    def id(self) -> str:
        return self.new.id

    @property
    def old_version(self) -> int | None:
        return self.old.version

    @property
    def label(self) -> str:
        """"v1→v2" (an unknown earlier version: "v?→v2")."""
        return f"v{self.old.version or '?'}→v{self.new.version or '?'}"

    @property
    def title_changed(self) -> bool:
        return _words(self.old.title) != _words(self.new.title)

    @property
    def abstract_changed(self) -> bool:
        return _words(self.old.abstract) != _words(self.new.abstract)

    @property
    def diff_too_large(self) -> bool:
        """Whether title or abstract is past DIFF_MAX_WORDS (no word diff is made then)."""
        return any(len(_words(t)) > DIFF_MAX_WORDS for t in (
            self.old.title, self.new.title, self.old.abstract, self.new.abstract))

    def title_diff(self) -> list[tuple[Op, str]]:
        return word_diff(self.old.title, self.new.title)

    def abstract_diff(self) -> list[tuple[Op, str]]:
        return word_diff(self.old.abstract, self.new.abstract)


def _words(text: str) -> list[str]:
    return text.split()


def word_diff(old: str, new: str) -> list[tuple[Op, str]]:
    """`new` against `old` word by word: ("same" | "del" | "ins", text) pieces, spaces kept
    between words, adjacent pieces of one kind joined. A side past DIFF_MAX_WORDS gives the
    new text as one "same" piece (the diff's time is bounded)."""
    import difflib  # (a revision shown: off the start path)

    a, b = _words(old), _words(new)
    if len(a) > DIFF_MAX_WORDS or len(b) > DIFF_MAX_WORDS:  # bounded: the new text, as is
        return [("same", " ".join(b))] if b else []
    out: list[tuple[Op, str]] = []

    def put(op: Op, words: list[str]) -> None:
        if not words:
            return
        text = " ".join(words)
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + " " + text)
        else:
            out.append((op, text))

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            put("same", a[i1:i2])
        else:
            put("del", a[i1:i2])
            put("ins", b[j1:j2])
    return out


def diff_summary(revision: Revision) -> str:
    """One line: what changed ("title and abstract changed", "abstract changed", ...)."""
    parts = [name for name, changed in (("title", revision.title_changed),
                                        ("abstract", revision.abstract_changed)) if changed]
    said = (" and ".join(parts) + " changed") if parts else "title and abstract unchanged"
    return said + ("; diff too large to show" if parts and revision.diff_too_large else "")


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
    from paperterm.topics.follows import Followed

    kept = kept_ids(store, earlier)
    followed = Followed([*store.marks.followed_authors(), *follow])
    return {p.id: Revision(earlier[p.id], p) for p in papers
            if p.id in earlier and (p.id in kept or followed.authors_of(p))}
