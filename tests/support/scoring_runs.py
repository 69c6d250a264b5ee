"""Helpers for tests that run the scoring engine against FakeLLM: settings, a collector of
the scores it emits, and one run that always closes litellm's clients."""

from __future__ import annotations

from typing import Any

from paperterm.models import Paper, Topic
from paperterm.scoring import RunSummary, Score, score_papers
from paperterm.scoring.provider import aclose_llm_clients
from paperterm.settings import ScoringSettings
from paperterm.store import opener
from support.fakellm import FakeLLM, expected_scores

KNOWN = "openai/gpt-4o-mini"  # litellm knows its price
UNKNOWN = "openai/paperterm-fake"  # litellm does not


def make(llm: FakeLLM, **kw: Any) -> ScoringSettings:
    """Settings aimed at the fake server: batches of 5, 4 in flight, a 10 s timeout."""
    values: dict[str, Any] = {"model": KNOWN, "api_base": llm.url, "batch_size": 5,
                              "concurrency": 4, "timeout": 10.0}
    values.update(kw)
    return ScoringSettings(**values)


class Collector:
    """An `on_scores` callback that keeps every call, and the progress reports."""

    def __init__(self) -> None:
        self.calls: list[list[Score]] = []
        self.progress: list[RunSummary] = []

    def __call__(self, scores: list[Score]) -> None:
        self.calls.append(list(scores))

    @property
    def by_id(self) -> dict[str, Score]:
        """Paper id -> its score; fails when a paper got two."""
        out: dict[str, Score] = {}
        for call in self.calls:
            for s in call:
                assert s.paper_id not in out, f"{s.paper_id} got two scores"
                out[s.paper_id] = s
        return out


async def run(papers: list[Paper], topic: Topic, settings: ScoringSettings, db: Any,
              collector: Collector | None = None, **kw: Any) -> RunSummary:
    """`score_papers` with a collector; litellm's clients are closed afterwards."""
    collector = collector if collector is not None else Collector()
    try:
        return await score_papers(papers, topic, settings, open_store=opener(db),
                                  on_scores=collector, on_progress=collector.progress.append,
                                  **kw)
    finally:
        await aclose_llm_clients()


def assert_default_scores(papers: list[Paper], by_id: dict[str, Score]) -> None:
    """Every paper scored with what the fake server gives by default."""
    for p in papers:
        s = by_id[p.id]
        assert s.status == "scored", (p.id, s)
        assert (s.relevance, s.novelty) == expected_scores(p.id)
