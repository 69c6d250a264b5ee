"""The local ranking of a day as the reader asks for it: the day's cached blend, the keyword
scores (quick, or cached), and the learned blend and the unsure queue from the ranking
process (`scoring.ranking_process`), or in the calling thread when that process is not
wanted or fails. Plain Python, no Textual: the reader's scoring controller and its worker
threads call it; `paperterm topics show` asks for the latest cached day ranked, and the
areas the closeness is measured to.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from paperterm.models import Paper, Topic
from paperterm.scoring.ranking_process import RankingProcess, RankingProcessFailed
from paperterm.scoring.ranking_process import wanted as ranking_wanted
from paperterm.scoring.types import Score

if TYPE_CHECKING:
    from paperterm.scoring.local.unsure import UnsureQueue
    from paperterm.store import Store, StoreFactory

__all__ = ["LatestDay", "LocalRanking", "RankingProcess", "RankingProcessFailed",
           "current_blend", "keyword_scores", "latest_day_ranked", "newest_blend",
           "ranking_wanted", "topic_areas", "turned_down"]


def newest_blend(store: Store, papers: Sequence[Paper], topic: Topic,
                 day: str) -> list[Score] | None:
    """The day's newest cached blend, whatever it was taught (None: the day was never
    blended). Read at the first paint: what the user taught the ranking, which grows with a
    year of marks, is not read here (`current_blend` reads it, after the first paint)."""
    from paperterm.scoring.local import cache

    return cache.cached(store, day, papers, topic, cache.blend_prefix(), newest_of=True)


def current_blend(open_store: StoreFactory, papers: Sequence[Paper], topic: Topic,
                  day: str) -> list[Score] | None:
    """The day's cached blend if it is taught what the user taught it now, else None (rank
    it again), on a store of its own from `open_store` (call it on a worker thread)."""
    from paperterm.scoring.local import rank_locally
    from paperterm.store import open_or_unavailable

    store = open_or_unavailable(open_store)
    try:
        return rank_locally(store, papers, topic, day=day, compute=False)
    finally:
        store.close()


def keyword_scores(store: Store, papers: Sequence[Paper], topic: Topic, day: str, *,
                   compute: bool) -> list[Score] | None:
    """The day's keyword scores: cached, else worked out now when `compute` (no embedding
    model is loaded), else None (rank them on a worker: `LocalRanking`)."""
    from paperterm.scoring.local import rank_locally

    return rank_locally(store, papers, topic, day=day, keywords_only=True, compute=compute)


class LocalRanking(NamedTuple):
    """Where a local ranking runs: `process` (the reader's ranking process, over the database
    at `db_path`), else, or when that process fails, in the calling thread over a store from
    `open_store`."""

    process: RankingProcess | None
    db_path: Path
    open_store: StoreFactory

    def rank(self, papers: list[Paper], topic: Topic, label: str,
             keywords_only: bool) -> tuple[list[Score] | None, str]:
        """The scores, and a notice when the ranking process failed (ranked here instead)."""
        notice = ""
        if self.process is not None and self.process.usable:
            try:
                return self.process.rank(self.db_path, papers, topic, day=label,
                                         keywords_only=keywords_only), ""
            except RankingProcessFailed as exc:
                if self.process.closed:  # the reader is closing: nothing more to rank
                    return None, ""
                notice = (f"Local ranking: {exc}; ranking in the reader instead (keys may "
                          "lag meanwhile).")
        return self._in_thread(papers, topic, label, keywords_only), notice

    def unsure(self, papers: list[Paper], topic: Topic, label: str, ranked: list[str],
               exclude: frozenset[str]) -> tuple[UnsureQueue, str]:
        """The unsure queue (scoring.local.unsure), and a notice when the ranking process
        failed (found here instead)."""
        from paperterm.scoring.local.unsure import unsure_papers
        from paperterm.store import open_or_unavailable

        notice = ""
        if self.process is not None and self.process.usable:
            try:
                return self.process.unsure(self.db_path, papers, topic, day=label,
                                           ranked=ranked, exclude=exclude), ""
            except RankingProcessFailed as exc:
                notice = f"Unsure queue: {exc}; worked out in the reader instead."
        store = open_or_unavailable(self.open_store)
        try:
            return unsure_papers(store, papers, topic, ranked, exclude=exclude), notice
        finally:
            store.close()

    def _in_thread(self, papers: list[Paper], topic: Topic, label: str,
                   keywords_only: bool) -> list[Score] | None:
        from paperterm.scoring.local import rank_locally
        from paperterm.store import open_or_unavailable

        store = open_or_unavailable(self.open_store)  # none: no cache, the scores still come
        try:
            return rank_locally(store, papers, topic, day=label, keywords_only=keywords_only)
        finally:
            store.close()


class LatestDay(NamedTuple):
    """The latest cached day of a feed (`day` None: none cached), its papers and their local
    scores (one per paper, same order; empty when there are no papers)."""

    feed: str
    day: date | None
    papers: list[Paper]
    scores: list[Score]


def latest_day_ranked(store: Store, topic: Topic, categories: Iterable[str]) -> LatestDay:
    """The latest cached day of the topic's categories (else `categories`), ranked locally;
    offline so far, the bundled sample day is the one shown."""
    from paperterm.scoring.local import rank_locally
    from paperterm.sources.loader import SAMPLE_CATEGORIES, SAMPLE_FEED

    feed = "+".join(sorted(topic.categories or categories))
    day = store.papers.latest_day(feed)
    if day is None and set(feed.split("+")) == SAMPLE_CATEGORIES:
        feed = SAMPLE_FEED
        day = store.papers.latest_day(feed)
    papers = store.papers.day_papers(feed, day) if day else []
    if day is None or not papers:
        return LatestDay(feed, day, papers, [])
    return LatestDay(feed, day, papers,
                     rank_locally(store, papers, topic, day=day.isoformat()) or [])


def topic_areas(topic: Topic) -> list[str]:
    """The texts a paper's closeness to `topic` is measured against (`scoring.local.areas`)."""
    from paperterm.scoring.local.areas import topic_areas as areas

    return areas(topic)


def turned_down(topic: Topic) -> list[str]:
    """The texts of what `topic` turns down (`scoring.local.areas`)."""
    from paperterm.scoring.local.areas import turned_down as down

    return down(topic)
