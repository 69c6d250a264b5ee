"""Replies that cost money but score nothing, and replies built to break the parser
(issue 9, items 10 and 15). Real HTTP through litellm to the local fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.fakellm import Behaviour, default_entries
from support.scoring_runs import Collector, assert_default_scores, make, run

from paperterm.scoring.engine import FAIL_STREAK
from paperterm.scoring.halt import Halt
from paperterm.scoring.parse import answer_part, parse_reply

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"


pytestmark = pytest.mark.usefixtures("litellm_loaded")


def ids_answer(ids: list[str], relevance: int | None = None) -> str:
    entries = default_entries(ids)
    if relevance is not None:
        entries = [{**e, "relevance": relevance} for e in entries]
    return json.dumps({"papers": entries})


# -- item 10: paid replies that score nothing ----------------------------------------------


async def test_json_only_in_reasoning_content_is_used(llm, day, topic, db):
    papers = day[:5]
    llm.default = Behaviour(content="", reasoning=ids_answer([p.id for p in papers]))
    c = Collector()
    summary = await run(papers, topic, make(llm), db, c)
    assert summary.scored == 5 and llm.count == 1
    assert_default_scores(papers, c.by_id)


async def test_a_draft_before_a_lone_closing_think_tag_is_never_the_answer(llm, day, topic, db):
    papers = day[:5]
    ids = [p.id for p in papers]
    draft = ids_answer(ids, relevance=1)  # the draft's scores differ from the answer's
    llm.default = Behaviour(content=f"Let me think. {draft} Hmm, no.\n</think>\n{ids_answer(ids)}")
    c = Collector()
    await run(papers, topic, make(llm), db, c)
    assert_default_scores(papers, c.by_id)


def test_only_a_draft_is_no_answer():
    ids = ["2602.00001"]
    assert parse_reply(f"{ids_answer(ids)}</think>", ids).scores == {}
    assert parse_reply(f"<think>{ids_answer(ids)}", ids).scores == {}
    assert parse_reply(f"<think>x</think>{ids_answer(ids)}", ids).scores
    assert answer_part("a </THINK > b </think> c") == " c"


async def test_schema_valid_garbage_counts_as_failures_and_stops_the_run(llm, day, topic, db):
    llm.default = Behaviour(content='{"papers": []}')  # paid for, never a score
    c = Collector()
    summary = await run(day[:100], topic, make(llm, concurrency=1), db, c)
    assert summary.halted is Halt.FAILURE_STREAK
    # not 20 batches x 3 rounds of paid requests: each fresh batch of five is asked once
    # more in two halves (issue 21); a batch has failed as a whole when its halves scored
    # nothing too, and the third such batch stops the run
    assert llm.count == 3 * FAIL_STREAK
    assert summary.scored == 0 and summary.unscored == 100 and len(c.by_id) == 100
    assert "a paid reply held no valid score" in (summary.stopped or "")


async def test_a_useful_reply_resets_the_failure_count(llm, day, topic, db):
    # every other reply is garbage: the run never stops (a batch may still run out of rounds)
    llm.rule = lambda n, ids: Behaviour(content='{"papers": []}') if n % 2 else None
    summary = await run(day[:20], topic, make(llm, concurrency=1), db)
    assert summary.halted is None and summary.scored >= 15
    assert summary.scored + summary.unscored == 20


# -- item 15: replies that would break the parser ----------------------------------------


@pytest.mark.parametrize("content, why", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"papers": [' + '{"a":' * 50_000 + "1" + "}" * 50_000 + "]}", "nested too deeply"),
    ("x" * 10_500_000, "too large"),
], ids=["nested-list", "nested-object", "10MB"])
async def test_a_monstrous_reply_fails_its_batch_and_the_run_goes_on(llm, day, topic, db,
                                                                      content, why):
    papers = day[:10]
    first = [p.id for p in papers[:5]]
    # every reply about the first five is monstrous (the reported size spares the fake
    # server from counting 10 MB of tokens)
    llm.rule = lambda n, ids: (Behaviour(content=content, completion_tokens=99)
                               if set(ids) <= set(first) else None)
    c = Collector()
    summary = await run(papers, topic, make(llm, concurrency=1), db, c)
    assert all(c.by_id[i].status == "unscored" for i in first)
    assert all(why in (c.by_id[i].error or "") for i in first)
    assert all(c.by_id[p.id].status == "scored" for p in papers[5:])
    # asked again once, in halves (issue 21), then the batch fails and the run goes on
    assert summary.scored == 5 and summary.unscored == 5 and llm.count == 4


async def test_a_5000_digit_integer_is_an_invalid_entry_not_a_crash(llm, day, topic, db):
    papers = day[:2]
    huge = "9" * 5000
    body = ('{"papers": [' + f'{{"id": "{papers[0].id}", "relevance": {huge}, "novelty": 3, '
            f'"reason": "x"}}, {{"id": "{papers[1].id}", "relevance": 7, "novelty": {huge}, '
            '"reason": "y"}]}')
    llm.rule = lambda n, ids: Behaviour(content=body) if n == 1 else None
    c = Collector()
    summary = await run(papers, topic, make(llm), db, c)
    assert summary.total == 2 and len(c.by_id) == 2  # asked again, then scored normally
    assert summary.scored == 2


async def test_wrong_typed_usage_is_not_a_server_error(llm, day, topic, db):
    papers = day[:5]
    llm.default = Behaviour(usage={"prompt_tokens": "many", "completion_tokens": [1],
                                   "total_tokens": None})
    c = Collector()
    summary = await run(papers, topic, make(llm), db, c)
    # litellm cannot read such a reply: the batch fails saying so, and a paid reply is not
    # bought again five times
    errors = {s.error for s in c.by_id.values()}
    assert summary.unscored == 5 and len(errors) == 1, errors
    error = errors.pop() or ""
    assert "reply could not be read" in error and "HTTP 500" not in error
    assert llm.count == 1
