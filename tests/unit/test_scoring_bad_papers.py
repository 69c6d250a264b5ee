"""One bad paper, or one unusable reply, never stops a day (issue 21, items 1 and 2).

A whole day (two real fixture days together, 470 papers, in batches of 25 with four in
flight, the defaults) through litellm to the local fake server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.fakellm import Behaviour
from support.scoring_runs import Collector, make, run

from paperterm.models import Paper
from paperterm.scoring.parse import parse_reply

FEEDS = Path(__file__).resolve().parents[1] / "fixtures" / "feeds"

pytestmark = pytest.mark.usefixtures("litellm_loaded")


def _day(name: str) -> list[Paper]:
    rows = [json.loads(line) for line in (FEEDS / name).read_text().splitlines()]
    return [Paper(r["id"], r["version"], r["title"], tuple(r["authors"]), r["abstract"],
                  tuple(r["categories"]), r["announce_type"]) for r in rows]


@pytest.fixture(scope="module")
def big_day() -> list[Paper]:
    return _day("day-2026-02-25.jsonl") + _day("day-2026-03-02.jsonl")


def _first_is_eleven(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**e, "relevance": 11} if i == 0 else e for i, e in enumerate(entries)]


async def test_a_paper_the_model_keeps_misscoring_never_stops_the_day(llm, big_day, topic, db):
    # relevance 11 for the first paper of every batch, everything else valid
    llm.default = Behaviour(edit=_first_is_eleven)
    c = Collector()
    summary = await run(big_day, topic, make(llm, batch_size=25, concurrency=4), db, c)
    assert summary.halted is None and summary.stopped is None
    bad = [s for s in c.by_id.values() if s.status == "unscored"]
    assert len(c.by_id) == len(big_day)
    # every fresh batch of 25 leaves one paper; its re-asks leave the first of theirs
    assert summary.scored >= len(big_day) - 2 * (len(big_day) // 25 + 1), summary
    assert summary.scored + summary.unscored == len(big_day)
    assert bad and all("invalid relevance 11" in (s.error or "") for s in bad)
    assert not any("not sent" in (s.error or "") for s in bad)


@pytest.mark.parametrize("content, why", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("\x00garbage }{ ][", "no JSON scores"),
], ids=["nested", "garbage"])
async def test_an_unusable_reply_is_asked_again_once_then_its_batch_fails(llm, big_day, topic,
                                                                          db, content, why):
    papers = big_day[:20]
    first = {p.id for p in papers[:10]}
    # every reply about the first batch's papers is unusable; the rest answer normally
    llm.rule = lambda n, ids: (Behaviour(content=content, completion_tokens=99)
                               if set(ids) <= first else None)
    c = Collector()
    summary = await run(papers, topic, make(llm, batch_size=10, concurrency=1), db, c)
    sizes = [len(llm.ids_of(r)) for r in llm.requests]
    assert sizes == [10, 5, 5, 10]  # once more, in halves; then the run goes on
    assert summary.halted is None and summary.scored == 10 and summary.unscored == 10
    assert all(why in (c.by_id[i].error or "") for i in first)


async def test_every_second_reply_nested_deep_never_stops_the_day(llm, big_day, topic, db):
    deep = "[" * 100_000 + "]" * 100_000
    llm.rule = lambda n, ids: Behaviour(content=deep, completion_tokens=99) if n % 2 else None
    c = Collector()
    summary = await run(big_day[:200], topic, make(llm, batch_size=25, concurrency=4), db, c)
    assert summary.halted is None
    # every failed batch is asked again in halves (half of which come back unusable too):
    # about three in four papers scored, where one in two were before
    assert len(c.by_id) == 200 and summary.scored >= 130, summary


def test_deep_nesting_never_raises_out_of_the_parser():
    for text in ("[" * 100_000, "{\"a\":" * 100_000, "[" * 100_000 + "]" * 100_000,
                 '{"papers": [' + "[" * 200_000 + "]}"):
        reply = parse_reply(text, ["2602.00001"])
        assert reply.scores == {}


async def test_a_content_filter_refusing_abstracts_never_stops_the_day(llm, big_day, topic,
                                                                       db):
    # the first three papers of every batch of 25: their refusals (after the batch is
    # split down to them) come in a row
    papers = big_day[:150]
    refused = {p.id for i, p in enumerate(papers) if i % 25 < 3}
    llm.rule = lambda n, ids: (Behaviour(status=400, error_message="invalid_request_error: "
                                         "content_policy_violation: this abstract is refused")
                               if refused & set(ids) else None)
    c = Collector()
    summary = await run(papers, topic, make(llm, batch_size=25, concurrency=4), db, c)
    assert summary.halted is None and summary.stopped is None
    unscored = {pid for pid, s in c.by_id.items() if s.status == "unscored"}
    assert unscored == refused
    assert all("content filter" in (c.by_id[i].error or "") for i in refused)


async def test_unusable_replies_that_their_halves_make_good_never_stop_the_day(llm, big_day,
                                                                              topic, db):
    # the first four fresh batches (all in flight at once) come back unusable, before any
    # of their halves, which answer a moment later and are good: no batch failed as a whole
    # (once, each of those replies counted at once, and the third in a row stopped the run)
    deep = "[" * 100_000 + "]" * 100_000
    llm.rule = lambda n, ids: (Behaviour(content=deep, completion_tokens=99)
                               if n <= 4 and len(ids) == 25 else
                               Behaviour(delay=0.3) if len(ids) < 25 else None)
    c = Collector()
    summary = await run(big_day[:200], topic, make(llm, batch_size=25, concurrency=4), db, c)
    assert summary.halted is None and summary.stopped is None
    assert summary.scored == 200 and len(c.by_id) == 200
