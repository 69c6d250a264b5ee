"""The paper list as the reader sees it: per-paper view state, filtering and sorting.

Pure domain code (no Textual): the TUI keeps one `Entry` per paper and asks this module which
entries to show, in which order. Everything here must stay cheap for 5,000 papers, so each
entry carries its search text lower-cased once, and sort keys are plain tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from paperterm.models import Paper

# Sort keys in the order `s` cycles through them, with the label shown in the header.
SORT_KEYS: tuple[str, ...] = ("relevance", "novelty", "combined", "title", "category", "order")
SORT_LABELS = {
    "relevance": "relevance",
    "novelty": "novelty",
    "combined": "relevance+novelty",
    "title": "title",
    "category": "category",
    "order": "announcement order",
}
SCORE_SORTS = frozenset({"relevance", "novelty", "combined"})

# Score status of an entry, as the list shows it.
#   none:   no score and none coming (shown blank)
#   queued: an LLM run will score it (shown "…")
#   failed: the run gave up on it (shown "!", the reason in the preview)
#   scored / cached / local: has relevance and novelty
STATUSES = ("none", "queued", "failed", "scored", "cached", "local")


@dataclass(eq=False)
class Entry:
    """One paper plus everything the list needs to show, filter and sort it."""

    paper: Paper
    order: int  # position in the announcement
    search: str  # title, authors and abstract, case-folded once
    relevance: int | None = None
    novelty: int | None = None
    reason: str = ""
    status: str = "none"
    error: str | None = None
    seen: bool = False
    starred: bool = False
    saved: bool = False
    marked: bool = False
    bib_key: str | None = None

    @property
    def id(self) -> str:
        return self.paper.id

    @property
    def has_score(self) -> bool:
        return self.relevance is not None

    def set_score(
        self,
        relevance: int | None,
        novelty: int | None,
        reason: str,
        status: str,
        error: str | None = None,
    ) -> None:
        self.relevance = relevance
        self.novelty = novelty
        self.reason = reason or ""
        self.status = status
        self.error = error


def make_entries(papers: Sequence[Paper]) -> list[Entry]:
    out = []
    for i, p in enumerate(papers):
        search = " ".join((p.title, " ".join(p.authors), p.abstract)).casefold()
        out.append(Entry(paper=p, order=i, search=search))
    return out


@dataclass
class FilterState:
    """Every active filter; the empty state shows everything."""

    text: str = ""
    min_relevance: int | None = None
    categories: frozenset[str] = field(default_factory=frozenset)  # any of the paper's
    announce_types: frozenset[str] = field(default_factory=frozenset)
    unseen_only: bool = False
    starred_only: bool = False

    @property
    def active(self) -> bool:
        return bool(self.describe())

    def terms(self) -> list[str]:
        return self.text.casefold().split()

    def describe(self) -> list[str]:
        """One short phrase per active filter, for the header."""
        out = []
        if self.text.strip():
            out.append(f'"{self.text.strip()}"')
        if self.min_relevance is not None:
            out.append(f"rel≥{self.min_relevance}")
        if self.categories:
            out.append("cat " + ",".join(sorted(self.categories)))
        if self.announce_types:
            out.append("type " + ",".join(sorted(self.announce_types)))
        if self.unseen_only:
            out.append("unseen")
        if self.starred_only:
            out.append("starred")
        return out

    def matches(self, e: Entry, terms: list[str] | None = None) -> bool:
        if terms is None:
            terms = self.terms()
        if self.unseen_only and e.seen:
            return False
        if self.starred_only and not e.starred:
            return False
        if self.min_relevance is not None and (
            e.relevance is None or e.relevance < self.min_relevance
        ):
            return False
        if self.announce_types and e.paper.announce_type not in self.announce_types:
            return False
        if self.categories and not self.categories.intersection(e.paper.categories):
            return False
        search = e.search
        return all(t in search for t in terms)


def filter_entries(entries: Iterable[Entry], state: FilterState) -> list[Entry]:
    terms = state.terms()
    if not state.active:
        return list(entries)
    return [e for e in entries if state.matches(e, terms)]


def _score_key(key: str, e: Entry) -> tuple:
    r, n = e.relevance, e.novelty
    if key == "relevance":
        return (r or 0, n or 0)
    if key == "novelty":
        return (n or 0, r or 0)
    return ((r or 0) + (n or 0), r or 0)


def sort_entries(entries: Sequence[Entry], key: str, reverse: bool = False) -> list[Entry]:
    """Stable sort. Score sorts put the best first (reverse: worst first) and unscored papers
    always last; text sorts are A-Z (reverse: Z-A). Ties keep the announcement order."""
    if key not in SORT_KEYS:
        raise ValueError(f"unknown sort key {key!r} (known: {', '.join(SORT_KEYS)})")
    if key in SCORE_SORTS:
        scored = [e for e in entries if e.relevance is not None]
        rest = [e for e in entries if e.relevance is None]
        sign = 1 if reverse else -1

        def k(e: Entry) -> tuple:
            return (*(sign * v for v in _score_key(key, e)), e.order)

        scored.sort(key=k)
        rest.sort(key=lambda e: e.order)
        return scored + rest
    if key == "title":
        out = sorted(entries, key=lambda e: (e.paper.title.casefold(), e.order))
    elif key == "category":
        out = sorted(entries, key=lambda e: (e.paper.primary_category, e.order))
    else:
        out = sorted(entries, key=lambda e: e.order)
    if reverse:
        out.reverse()
    return out


def view(entries: Sequence[Entry], state: FilterState, key: str, reverse: bool) -> list[Entry]:
    """The entries to show, in order."""
    return sort_entries(filter_entries(entries, state), key, reverse)


def score_band(relevance: int | None) -> str:
    """"high" (7-10), "mid" (4-6) or "low" (0-3): the colour a score is drawn in."""
    if relevance is None:
        return "none"
    if relevance >= 7:
        return "high"
    if relevance >= 4:
        return "mid"
    return "low"


ANNOUNCE_SHORT = {"new": "new", "cross": "cross", "replace": "repl", "replace-cross": "repl-x"}
