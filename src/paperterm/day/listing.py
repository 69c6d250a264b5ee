"""The paper list as the reader sees it: per-paper view state, filtering and sorting.

Pure domain code (no Textual): the TUI keeps one `Entry` per paper and asks this module which
entries to show, in which order. Everything here must stay cheap for 5,000 papers, so each
entry carries its search text lower-cased once, and sort keys are plain tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from paperterm.day.scores import score_tuple
from paperterm.models import Paper
from paperterm.signals import Signals
from paperterm.text.sort_text import title_key
from paperterm.text.textsearch import (
    Alternatives,
    Term,
    index_text,
    matches,
    parse_query,
    typo_fixed,
)

if TYPE_CHECKING:
    from paperterm.day.repeats import Repeat
    from paperterm.sources.revisions import Revision

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
# Sorts by enrichment (`paperterm enrich`, config `enrich`): `s` offers them once a paper of
# the day has any; papers without the number go last.
ENRICH_SORTS: tuple[str, ...] = ("upvotes", "citations")
SORT_LABELS |= {"upvotes": "Hugging Face upvotes", "citations": "citations"}

# Score status of an entry (`Entry.status`), as the list shows it.
#   none:   no score and none coming (shown blank)
#   queued: an LLM run will score it (shown "…")
#   failed: the run gave up on it (shown "!", the reason in the preview)
#   unsent: a budget, a cancel or a failure streak kept it from being sent
#   scored / cached / local: has relevance and novelty
#   prefilter: not sent to the model (--prefilter): its local relevance, shown dimmed
# A failed or unsent paper may carry a local relevance: provisional (shown "~7").
PROVISIONAL = frozenset({"failed", "unsent"})
# A queued paper shows a local relevance too while the model's is on its way ("~7").
STAND_IN = PROVISIONAL | {"queued"}


@dataclass(eq=False)
class Entry:
    """One paper plus everything the list needs to show, filter and sort it."""

    paper: Paper
    order: int  # position in the announcement
    relevance: int | None = None
    novelty: int | None = None
    reason: str = ""
    status: str = "none"
    error: str | None = None
    fine: float | None = None  # the local scorer's fine score: orders equal relevances
    seen: bool = False
    starred: bool = False
    saved: bool = False
    marked: bool = False
    dismissed: bool = False  # "not interested" under the day screen's topic
    followed: bool = False  # by an author the user follows
    bib_key: str | None = None
    signals: Signals | None = None  # enrichment, when cached
    _search: str | None = field(default=None, repr=False)
    tags: tuple[str, ...] = ()  # the user's tags and note, shown in the preview
    note: str = ""
    day: str = ""  # the announcement day, in views of several days
    revision: Revision | None = None  # a kept paper come back with a higher version
    repeat: Repeat | None = None  # announced on an earlier day (this id, or a near-duplicate)
    folded: bool = False  # a near-duplicate of another paper in the same list: not shown

    @property
    def new_to_me(self) -> bool:
        """Never seen, and never announced on an earlier day: shows as unseen, counts as new."""
        return not self.seen and self.repeat is None

    @property
    def id(self) -> str:
        return self.paper.id

    @property
    def search(self) -> str:
        """Title, authors and abstract as folded words (`textsearch.index_text`), made on
        the first search, not at start."""
        if self._search is None:
            p = self.paper
            self._search = index_text((p.title, " ".join(p.authors), p.abstract))
        return self._search

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
        fine: float | None = None,
    ) -> None:
        self.relevance = relevance
        self.novelty = novelty
        self.reason = reason or ""
        self.status = status
        self.error = error
        self.fine = fine


def make_entries(papers: Sequence[Paper], days: Mapping[str, str] | None = None,
                 ) -> list[Entry]:
    """One entry per paper; `days` (id -> ISO day) fills the day column of multi-day views."""
    days = days or {}
    return [Entry(paper=p, order=i, day=days.get(p.id, "")) for i, p in enumerate(papers)]


@dataclass(frozen=True)
class FilterState:
    """Every active filter; the empty state shows everything. Immutable: a change is a new
    state (`dataclasses.replace`), which the reader's reactive filter state can notice."""

    text: str = ""
    min_relevance: int | None = None
    categories: frozenset[str] = field(default_factory=frozenset)  # any of the paper's
    announce_types: frozenset[str] = field(default_factory=frozenset)
    unseen_only: bool = False
    new_only: bool = False  # "new to me": never seen and never announced on an earlier day
    starred_only: bool = False
    code_only: bool = False  # papers with a code link (enrichment)

    @property
    def active(self) -> bool:
        return bool(self.describe())

    def terms(self) -> list[Term]:
        """The text filter's words and "quoted phrases" (`textsearch.parse_query`)."""
        return parse_query(self.text)

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
        if self.new_only:
            out.append("new to me")
        if self.starred_only:
            out.append("starred")
        if self.code_only:
            out.append("code")
        return out

    def matches(self, e: Entry, terms: Alternatives | None = None) -> bool:
        if e.folded:
            return False
        if terms is None:
            terms = self.terms()
        if self.unseen_only and e.seen:
            return False
        if self.new_only and not e.new_to_me:
            return False
        if self.starred_only and not e.starred:
            return False
        if self.code_only and not (e.signals and e.signals.code):
            return False
        if self.min_relevance is not None and (
            e.relevance is None or e.relevance < self.min_relevance
        ):
            return False
        if self.announce_types and e.paper.announce_type not in self.announce_types:
            return False
        if self.categories and not self.categories.intersection(e.paper.categories):
            return False
        return not terms or matches(e.search, terms)


def filter_entries(entries: Iterable[Entry], state: FilterState) -> list[Entry]:
    terms: Alternatives = state.terms()
    if not state.active:
        return [e for e in entries if not e.folded]
    entries = list(entries)
    if terms:  # a word none of the list holds: the nearest within a typo (as search does)
        terms = typo_fixed(state.terms(), [e.search for e in entries])
    return [e for e in entries if state.matches(e, terms)]


def _score_key(key: str, e: Entry) -> tuple:
    r, n, f = e.relevance, e.novelty, e.fine or 0.0
    if key == "relevance":  # the one order of papers (services.scores)
        return score_tuple(r, n, f)
    if key == "novelty":
        return (n or 0, r or 0, f)
    return ((r or 0) + (n or 0), r or 0, f)


def descending(key: str, reverse: bool) -> bool:
    """Whether the list runs from high to low: score sorts start with the best (descending),
    text sorts with A (ascending); `reverse` flips either. The arrow shown follows this."""
    return (key in SCORE_SORTS) != reverse


def sort_arrow(key: str, reverse: bool) -> str:
    """"▼" for a descending sort, "▲" for an ascending one."""
    return "▼" if descending(key, reverse) else "▲"


def _relevance_first(e: Entry) -> tuple:
    r, n = e.relevance, e.novelty
    return (r is None, -(r or 0), -(n or 0), e.order)


def sort_entries(entries: Sequence[Entry], key: str, reverse: bool = False) -> list[Entry]:
    """Stable sort. Score sorts put the best first (reverse: worst first) and unscored papers
    always last; text sorts are A-Z (reverse: Z-A), titles compared without TeX and leading
    punctuation. `reverse` flips only the sort key: ties fall back to relevance (best first),
    then to the local scorer's fine score, then to the announcement order."""
    if key not in SORT_KEYS and key not in ENRICH_SORTS:
        known = ", ".join((*SORT_KEYS, *ENRICH_SORTS))
        raise ValueError(f"unknown sort key {key!r} (known: {known})")
    if key in ENRICH_SORTS:
        return _enrich_sort(entries, key, reverse)
    if key in SCORE_SORTS:
        scored = [e for e in entries if e.relevance is not None]
        rest = [e for e in entries if e.relevance is None]
        sign = 1 if reverse else -1

        def k(e: Entry) -> tuple:
            return (*(sign * v for v in _score_key(key, e)), e.order)

        scored.sort(key=k)
        rest.sort(key=lambda e: e.order)
        return scored + rest
    if key == "order":
        return sorted(entries, key=lambda e: e.order, reverse=reverse)
    out = sorted(entries, key=_relevance_first)
    if key == "title":
        titles = {e.id: title_key(e.paper.title) for e in out}
        out.sort(key=lambda e: titles[e.id], reverse=reverse)  # stable, also reversed
    else:
        out.sort(key=lambda e: e.paper.primary_category, reverse=reverse)
    return out


def _enrich_sort(entries: Sequence[Entry], key: str, reverse: bool) -> list[Entry]:
    """Most upvotes (citations) first, reverse: fewest first; papers without it last."""

    def value(e: Entry) -> int | None:
        return None if e.signals is None else getattr(e.signals, key)

    known = [e for e in entries if value(e) is not None]
    known.sort(key=lambda e: ((value(e) or 0) * (1 if reverse else -1), e.order))
    return known + sorted((e for e in entries if value(e) is None), key=lambda e: e.order)


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

