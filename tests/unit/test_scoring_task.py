"""Tasks: the scoring prompt as a Task, and a second prompt run through the same engine
(real HTTP through litellm to the fake server) with a cache key of its own."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM, expected_scores

from paperterm.models import Paper, Topic
from paperterm.scoring import PROMPT_VERSION, Score, cached_scores
from paperterm.scoring.prompt import prompt_criteria
from paperterm.scoring.provider import aclose_llm_clients
from paperterm.scoring.run import run_task, score_papers
from paperterm.scoring.task import Parsed, ScoringTask, Task, TaskKey
from paperterm.settings import ScoringSettings
from paperterm.settings.config import Config
from paperterm.sources.feeds import parse_feed
from paperterm.store import ScoreRow, Store, opener
from paperterm.text.hygiene import clean_line
from paperterm.topics import resolve_topic

FEED = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"


@pytest.fixture(scope="module")
def day() -> list[Paper]:
    return parse_feed(FEED.read_bytes()).papers


@pytest.fixture(scope="module")
def topic() -> Topic:
    return resolve_topic("moe", Config()).topic


# -- the scoring task --------------------------------------------------------------------


def test_scoring_task_key_is_the_topic_and_the_prompt_version(topic):
    key = ScoringTask(topic).key
    assert key == TaskKey(topic.fingerprint, PROMPT_VERSION)
    other = replace(topic, description=topic.description + " More.")
    assert ScoringTask(other).key != key


def test_scoring_task_parses_a_reply_into_scores(day, topic):
    task = ScoringTask(topic)
    papers = day[:3]
    reply = json.dumps({"papers": [
        {"id": papers[0].id, "relevance": 8, "novelty": "3", "reason": "fits\x1b[2J \u202eok"},
        {"id": papers[1].id, "relevance": 42, "novelty": 3, "reason": "out of range"},
        {"id": "1111.11111", "relevance": 5, "novelty": 5, "reason": "not asked"},
    ]})
    parsed = task.parse(reply, papers)
    assert list(parsed.results) == [papers[0].id]
    score = parsed.results[papers[0].id]
    assert (score.relevance, score.novelty, score.status) == (8, 3, "scored")
    assert score.version == papers[0].version
    assert score.reason == "fits ok"  # the escape and the bidi override are gone
    assert parsed.unknown_ids == 1 and "invalid relevance 42" in parsed.rejected[papers[1].id]
    assert task.parse("", papers).error == "the reply was empty"


def test_a_long_reason_from_the_model_is_cut_to_20_words(day, topic):
    paper = day[0]
    long = " ".join(["word"] * 45)
    reply = json.dumps({"papers": [
        {"id": paper.id, "relevance": 6, "novelty": 4, "reason": long}]})
    reason = ScoringTask(topic).parse(reply, [paper]).results[paper.id].reason
    assert len(reason.split()) == 20 and reason.endswith("…")


def test_scoring_task_rows_round_trip_and_empty_rows_are_not_results(day, topic):
    task = ScoringTask(topic)
    paper = day[0]
    score = Score(paper.id, paper.version, 7, None, "why", "scored")
    row = task.to_row(paper, score)
    assert row == ScoreRow(paper.id, paper.version or 0, 7, None, "why")
    cached = task.from_row(paper, row)
    assert cached == Score(paper.id, paper.version, 7, None, "why", "cached")
    assert task.from_row(paper, replace(row, relevance=None)) is None
    dirty = task.from_row(paper, replace(row, reason="old \x1b]0;title\x07row"))
    assert dirty is not None and dirty.reason == "old row"
    gone = task.unscored(paper, "cancelled")
    assert (gone.status, gone.error, gone.relevance) == ("unscored", "cancelled", None)


def test_scoring_task_messages_carry_the_topic_and_the_papers(day, topic):
    task = ScoringTask(topic, include_authors=True)
    paper = next(p for p in day if p.authors)
    system, user = task.build_messages([paper])
    assert prompt_criteria(topic) in system["content"]
    assert f'<paper id="{paper.id}">' in user["content"] and paper.authors[0] in user["content"]
    assert task.response_schema is not None and task.response_schema["type"] == "json_schema"


# -- a second task through the same engine ----------------------------------------------


@dataclass
class Line:
    """The second task's result: a one-line summary of a paper."""

    paper_id: str
    text: str | None
    status: str
    error: str | None = None


class OneLineSummary(Task[Line]):
    """Summarise each paper in one line. Its key shares the topic fingerprint with the
    scoring task on purpose: only the kind keeps the two apart in the cache."""

    def __init__(self, topic: Topic) -> None:
        self.topic = topic

    @property
    def key(self) -> TaskKey:
        return TaskKey(self.topic.fingerprint, "one-line-summary-1")

    def build_messages(self, papers: Sequence[Paper]) -> list[dict[str, str]]:
        system = ('Summarise each paper in one line. Reply with JSON only: '
                  '{"papers":[{"id":"<id>","summary":"<one line>"}]}')
        user = "\n".join(f'<paper id="{p.id}">\n{p.title}\n</paper>' for p in papers)
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def parse(self, text: str | None, papers: Sequence[Paper]) -> Parsed[Line]:
        wanted = {p.id for p in papers}
        out: Parsed[Line] = Parsed()
        try:
            entries = json.loads(text or "")["papers"]
        except (ValueError, KeyError, TypeError):
            out.error = "no JSON summaries"
            return out
        for e in entries:
            if e.get("id") in wanted and isinstance(e.get("summary"), str):
                out.results[e["id"]] = Line(e["id"], clean_line(e["summary"]), "done")
            else:
                out.unknown_ids += 1
        return out

    def to_row(self, paper: Paper, result: Line) -> ScoreRow:
        return ScoreRow(paper.id, paper.version or 0, None, None, result.text or "")

    def from_row(self, paper: Paper, row: ScoreRow) -> Line | None:
        return Line(paper.id, row.reason, "cached") if row.reason else None

    def unscored(self, paper: Paper, error: str) -> Line:
        return Line(paper.id, None, "unscored", error)


def summaries(entries: list[dict]) -> list[dict]:
    """The fake server's entries rewritten as the second task's reply."""
    return [{"id": e["id"], "summary": f"in short: {e['id']}"} for e in entries]


async def test_a_second_task_runs_through_the_engine_with_its_own_cache_key(
        monkeypatch, tmp_path, day, topic):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    db = tmp_path / "paperterm.sqlite3"
    papers = day[:6]
    summary_task = OneLineSummary(topic)
    assert summary_task.key != ScoringTask(topic).key
    assert summary_task.key.topic_fp == ScoringTask(topic).key.topic_fp
    lines: list[Line] = []
    scores: list[Score] = []
    try:
        with FakeLLM() as llm:
            settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url,
                                       batch_size=5, concurrency=1, timeout=10)
            # 1. the scoring task fills the cache for these papers
            first = await score_papers(papers, topic, settings, open_store=opener(db))
            assert (first.scored, llm.count) == (6, 2)

            # 2. the second task is not answered from the scores: it asks, and its own
            # results come back (one id left out of the first reply is asked again)
            llm.push(Behaviour(edit=lambda e: summaries(e)[1:]))
            llm.default = Behaviour(edit=summaries)
            done = await run_task(summary_task, papers, settings, open_store=opener(db),
                                  on_results=lines.extend)
            asked = llm.requests[2:]
            assert len(asked) == 3 and llm.ids_of(asked[1]) == [papers[0].id]
            assert all("one line" in r["messages"][0]["content"] for r in asked)
            assert (done.scored, done.cached, done.unscored, done.requests) == (6, 0, 0, 3)
            assert {x.paper_id: (x.text, x.status) for x in lines} == {
                p.id: (f"in short: {p.id}", "done") for p in papers}

            # 3. both run again from the cache, each with its own results, no request
            before = llm.count
            lines.clear()
            again = await run_task(summary_task, papers, settings, open_store=opener(db),
                                   on_results=lines.extend)
            rescored = await score_papers(papers, topic, settings, open_store=opener(db),
                                          on_scores=scores.extend)
            assert llm.count == before
    finally:
        await aclose_llm_clients()
    assert (again.cached, again.requests, rescored.cached, rescored.requests) == (6, 0, 6, 0)
    assert {x.paper_id: (x.text, x.status) for x in lines} == {
        p.id: (f"in short: {p.id}", "cached") for p in papers}
    assert {s.paper_id: (s.relevance, s.novelty) for s in scores} == {
        p.id: expected_scores(p.id) for p in papers}
    conn = sqlite3.connect(db)
    kinds = dict(conn.execute("SELECT prompt_version, count(*) FROM scores GROUP BY 1"))
    conn.close()
    assert kinds == {PROMPT_VERSION: 6, "one-line-summary-1": 6}
    store = Store(db)
    try:
        assert all(s.reason.startswith("fake reason")
                   for s in cached_scores(store.scores, papers, topic, settings).values())
    finally:
        store.close()
