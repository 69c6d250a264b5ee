"""The library across days, as the reader (`F`, `L`, `m`) and the CLI (`paperterm search`)
show it: search, starred and similar papers, each with the paper's one shown score
(`day.scores`), never an old cached score of another model. What a query may be, and the
markers around the words a hit matched, are named here for the reader."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from paperterm.day.scores import ShownScore, shown_scores
from paperterm.models import Topic
from paperterm.settings import ScoringSettings
from paperterm.store import SearchHit, Selection
from paperterm.store.fts import HIT_CLOSE, HIT_OPEN, QueryTooLarge, SearchFailed, match_expression
from paperterm.text.hygiene import cut

if TYPE_CHECKING:
    from paperterm.store import Store, StoreFactory
    from paperterm.store.repositories import Papers

__all__ = ["HIT_CLOSE", "HIT_OPEN", "QueryTooLarge", "SearchFailed", "SearchHit", "Selection",
           "match_expression", "revised_from", "search", "search_at", "searchable", "similar",
           "starred", "with_scores"]


def searchable(query: str) -> bool:
    """Whether `query` holds anything to search for (not only quotes, brackets and
    operators). Raises `QueryTooLarge` for one over the caps (its message is for the user)."""
    return match_expression(query) is not None


def with_scores(store: Store, hits: list[SearchHit], topic: Topic | None,
                settings: ScoringSettings) -> tuple[list[SearchHit], dict[str, ShownScore]]:
    """The hits (same order) carrying their shown relevance, and each one's shown score
    (none without a topic: the config names one that is not defined)."""
    if topic is None:
        return [h._replace(relevance=None) for h in hits], {}
    shown = shown_scores(store, [h.paper for h in hits], topic, settings)
    return ([h._replace(relevance=shown[h.paper.id].relevance if h.paper.id in shown else None)
             for h in hits], shown)


def search(store: Store, query: str, topic: Topic | None, settings: ScoringSettings, *,
           limit: int = 50, sel: Selection | None = None,
           ) -> tuple[list[SearchHit], dict[str, ShownScore]]:
    """Cached papers matching `query`, best match first, with their shown scores; raises
    `SearchFailed` when the index refuses the query (never "no results")."""
    hits = store.library.search(query, limit=limit, sel=sel or Selection())
    return with_scores(store, hits, topic, settings)


def search_at(open_store: StoreFactory, query: str, topic: Topic,
              settings: ScoringSettings, *, limit: int = 50,
              ) -> tuple[list[SearchHit], dict[str, ShownScore]]:
    """`search` on a store of the calling thread's own (a worker's), closed after; a
    database that cannot be opened finds nothing."""
    from paperterm.store import open_or_unavailable

    store = open_or_unavailable(open_store)
    try:
        return search(store, query, topic, settings, limit=limit)
    finally:
        store.close()


def similar(store: Store, paper_id: str, topic: Topic, settings: ScoringSettings, *,
            limit: int = 20) -> tuple[list[SearchHit], dict[str, ShownScore]]:
    """The cached papers most like `paper_id`, most alike first, with their shown scores."""
    from paperterm.scoring.similar import similar_papers

    return with_scores(store, similar_papers(store, paper_id, limit=limit), topic, settings)


def starred(store: Store, topic: Topic | None, settings: ScoringSettings, *,
            since: date | None = None, given_under: str | None = None,
            starred_since: date | None = None,
            ) -> tuple[list[SearchHit], dict[str, ShownScore]]:
    """The reading list (starred papers of every day, newest day first), with scores;
    `since`: announced on or after that day; `starred_since`: starred on or after that day
    (stars from before starring was timed: when first read); `given_under`: only stars
    given under that topic's name."""
    found = store.library.library_papers(Selection(starred=True, since=since,
                                                   starred_since=starred_since))
    if given_under is not None:
        states = store.marks.states([p.id for p, _ in found])
        found = [(p, day) for p, day in found
                 if p.id in states and states[p.id].star_topic == given_under]
    hits = [SearchHit(p, day, cut(p.abstract, 300), 0.0) for p, day in found]
    return with_scores(store, hits, topic, settings)


def revised_from(papers: Papers, hits: list[SearchHit]) -> dict[str, int]:
    """For hits whose cached version revises an earlier cached one: that earlier version
    (0: unknown), by id (`starred --json` and `search --json` rows carry it)."""
    earlier = papers.earlier_versions([h.paper for h in hits])
    return {pid: p.version or 0 for pid, p in earlier.items()}
