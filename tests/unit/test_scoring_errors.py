"""The LLM engine when things go wrong: real HTTP through litellm to the local fake server
answering 429, 5xx, 401/403/404, slowly, not at all, or with text that must be cleaned."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import time
from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM
from support.scoring_runs import KNOWN, Collector, assert_default_scores, make, run

from paperterm.scoring import ScoringError, cached_scores
from paperterm.scoring.engine import FAIL_STREAK
from paperterm.scoring.halt import Halt
from paperterm.scoring.policy import MAX_RETRIES
from paperterm.settings import ScoringSettings
from paperterm.store import Store

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"


pytestmark = pytest.mark.usefixtures("litellm_loaded")


# -- provider errors ---------------------------------------------------------------------


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries still back off, from 10 ms instead of half a second: these tests count
    attempts and read messages (the delays themselves: test_scoring_policy.py)."""
    import paperterm.scoring.policy as policy

    monkeypatch.setattr(policy, "BACKOFF_BASE", 0.01)


async def test_context_window_exceeded_splits_the_batch(llm, day, topic, db):
    papers = day[:6]
    message = (
        "This model's maximum context length is 8192 tokens. However, your messages "
        "resulted in 9000 tokens. Please reduce the length of the messages."
    )
    llm.push(Behaviour(status=400, error_message=message))
    c = Collector()
    summary = await run(papers, topic, make(llm, batch_size=6, concurrency=1), db, c)
    assert [len(llm.ids_of(r)) for r in llm.requests] == [6, 3, 3]
    assert summary.scored == 6


async def test_429_waits_what_retry_after_says(llm, day, topic, db):
    papers = day[:3]
    llm.push(Behaviour(status=429, retry_after="1"))
    start = time.monotonic()
    c = Collector()
    summary = await run(papers, topic, make(llm, concurrency=1), db, c)
    assert llm.count == 2
    gap = llm.started[1] - llm.started[0]
    assert 0.95 <= gap < 3.0, gap
    assert time.monotonic() - start >= 0.95
    assert summary.scored == 3 and summary.requests == 2
    assert_default_scores(papers, c.by_id)


async def test_5xx_retried(llm, day, topic, db):
    papers = day[:3]
    llm.push(Behaviour(status=500), Behaviour(status=503, retry_after="0"))
    c = Collector()
    summary = await run(papers, topic, make(llm, concurrency=1), db, c)
    assert llm.count == 3
    assert summary.scored == 3 and summary.requests == 3
    assert_default_scores(papers, c.by_id)


async def test_persistent_5xx_gives_up_with_reason(llm, day, topic, db):
    papers = day[:2]
    llm.default = Behaviour(status=503, retry_after="0")
    c = Collector()
    summary = await run(papers, topic, make(llm), db, c)
    assert llm.count == 5  # 1 + MAX_RETRIES, no retry storm
    assert summary.unscored == 2 and summary.scored == 0
    assert all("overloaded (HTTP 503: The server had an error" in s.error
               for s in c.by_id.values())


async def test_a_server_that_keeps_failing_stops_the_run(llm, day, topic, db):
    # every batch would be retried to the end: a dead server must not cost the whole day
    llm.default = Behaviour(status=503, retry_after="0")
    c = Collector()
    summary = await run(day[:40], topic, make(llm, concurrency=1), db, c)
    assert llm.count == FAIL_STREAK * (1 + MAX_RETRIES)  # then nothing more is sent
    assert summary.unscored == 40 and len(c.by_id) == 40
    assert summary.stopped == (
        f"{FAIL_STREAK} batches in a row failed (overloaded (HTTP 503: The server had an "
        f"error while processing your request.) after 5 attempts): "
        f"{40 - 5 * FAIL_STREAK} papers not sent"
    )
    assert summary.halted is Halt.FAILURE_STREAK
    assert sum("not sent" in s.error for s in c.by_id.values()) == 40 - 5 * FAIL_STREAK
    # one success resets the count: scattered failures never stop a run
    llm.default = Behaviour()
    llm.rule = lambda n, ids: Behaviour(status=503, retry_after="0") if n % 6 < 5 else None
    summary = await run(day[40:70], topic, make(llm, concurrency=1), db)
    assert summary.stopped is None and summary.scored == summary.unscored == 15
    assert summary.halted is None


async def test_timeout_retried(llm, day, topic, db):
    papers = day[:2]
    llm.push(Behaviour(delay=60.0))  # (2 s was the bound too: a loaded machine blurred it)
    c = Collector()
    start = time.monotonic()
    summary = await run(papers, topic, make(llm, timeout=0.4), db, c)
    assert llm.count == 2
    assert summary.scored == 2
    assert time.monotonic() - start < 20  # did not wait for the slow reply


async def test_persistent_timeouts_give_up_with_reason(llm, day, topic, db):
    llm.default = Behaviour(delay=2.0)
    c = Collector()
    summary = await run(day[:1], topic, make(llm, timeout=0.3), db, c)
    assert llm.count == 3
    assert summary.unscored == 1
    assert "timed out" in c.by_id[day[0].id].error


async def test_trickling_reply_is_cut_at_the_timeout(llm, day, topic, db):
    # headers at once, then a byte every 0.2 s: each read is quick, the whole is not
    llm.push(Behaviour(trickle=0.2))
    c = Collector()
    start = time.monotonic()
    summary = await asyncio.wait_for(run(day[:1], topic, make(llm, timeout=1.0), db, c), 120)
    assert time.monotonic() - start < 15  # (the whole reply would take minutes)
    assert llm.count == 2 and summary.scored == 1


async def test_401_stops_at_once_without_leaking_the_key(llm, day, topic, db):
    papers = day[:40]
    llm.default = Behaviour(status=401)
    c = Collector()
    with pytest.raises(ScoringError) as info:
        await run(papers, topic, make(llm, concurrency=2), db, c)
    message = str(info.value)
    assert "authentication failed" in message and "OPENAI_API_KEY" in message
    assert "sk-test" not in message and "\n" not in message
    assert llm.count <= 2  # the requests already in flight, nothing more
    got = c.by_id
    assert len(got) == 40 and all(s.status == "unscored" for s in got.values())
    assert info.value.summary is not None and info.value.summary.unscored == 40
    assert info.value.halt is Halt.AUTH and info.value.summary.halted is Halt.AUTH
    assert info.value.summary.stopped == message


async def test_auth_failure_keeps_scores_already_obtained(llm, day, topic, db):
    papers = day[:10]
    llm.push(Behaviour())
    llm.default = Behaviour(status=403)
    c = Collector()
    with pytest.raises(ScoringError):
        await run(papers, topic, make(llm, concurrency=1), db, c)
    assert llm.count == 2
    store = Store(db)
    cached = cached_scores(store.scores, papers, topic, make(llm))
    store.close()
    assert set(cached) == {p.id for p in papers[:5]}
    assert [c.by_id[p.id].status for p in papers] == ["scored"] * 5 + ["unscored"] * 5


async def test_404_stops_at_once_and_points_at_model_and_api_base(llm, day, topic, db):
    # a wrong path in api_base (or a model the server does not have) answers 404
    llm.default = Behaviour(status=404)
    with pytest.raises(ScoringError) as info:
        await run(day[:40], topic, make(llm, concurrency=2), db)
    assert llm.count <= 2
    message = str(info.value)
    assert f"model {KNOWN} not found at {llm.url}" in message
    assert "check --model and --api-base" in message
    assert info.value.halt is Halt.MODEL_NOT_FOUND


async def test_unreachable_api_base_is_a_scoring_error(monkeypatch, day, topic, db):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLM() as dead:
        url = dead.url
    settings = ScoringSettings(model=KNOWN, api_base=url, batch_size=5, concurrency=2)
    start = time.monotonic()
    with pytest.raises(ScoringError, match=r"cannot connect to http://127\.0\.0\.1") as info:
        await run(day[:20], topic, settings, db)
    assert info.value.halt is Halt.UNREACHABLE
    assert time.monotonic() - start < 10


async def test_unknown_provider_and_missing_key(monkeypatch, llm, day, topic, db):
    with pytest.raises(ScoringError, match="unknown model or provider") as info:
        await run(day[:2], topic, make(llm, model="nosuchprovider/some-model"), db)
    assert info.value.halt is Halt.UNKNOWN_MODEL
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ScoringError, match="OPENAI_API_KEY is not set") as info:
        await run(day[:2], topic, make(llm), db)
    assert info.value.halt is Halt.MISSING_KEY
    assert llm.count == 0


async def test_model_and_provider_text_is_cleaned_before_it_is_kept(llm, day, topic, db):
    papers = day[:2]

    def edit(entries):
        entries[0]["reason"] = "fits\x1b[31m well\x1b[0m\n\u202egnitset"
        return entries

    llm.push(Behaviour(edit=edit))
    c = Collector()
    await run(papers, topic, make(llm), db, c)
    assert c.by_id[papers[0].id].reason == "fits well gnitset"
    conn = sqlite3.connect(db)
    stored = conn.execute("SELECT reason FROM scores WHERE id=?", (papers[0].id,)).fetchone()
    assert stored == ("fits well gnitset",)
    llm.default = Behaviour(status=401, error_message="bad key \x1b]0;owned\x07\u202eyek\nmore")
    failed = Collector()
    with pytest.raises(ScoringError) as info:
        await run(day[2:4], topic, make(llm), db, failed)
    message = str(info.value)
    assert message.endswith("(bad key yek)") and "\x1b" not in message
    assert [s.error for s in failed.by_id.values()] == [message, message]


@pytest.mark.parametrize("status", [503, 529])
async def test_an_overloaded_server_reads_overloaded_with_its_text(llm, day, topic, db, status,
                                                                  monkeypatch):
    import paperterm.scoring.policy as policy

    monkeypatch.setattr(policy, "BACKOFF_BASE", 0.5)  # the shipped backoff: its gaps are checked
    llm.default = Behaviour(status=status, retry_after="-3",  # negative: backoff applies
                            error_message="Overloaded: please retry later")
    c = Collector()
    summary = await run(day[:2], topic, make(llm), db, c)
    assert summary.unscored == 2 and llm.count == 5
    errors = {s.error for s in c.by_id.values()}
    assert errors == {f"overloaded (HTTP {status}: Overloaded: please retry later) after 5 "
                      "attempts"}, errors
    gaps = [b - a for a, b in itertools.pairwise(llm.started)]
    assert all(g >= 0.2 for g in gaps)  # never a retry storm, whatever Retry-After says
