"""Runs that overlap (issue 9, item 12): a cancelled run still caches the answers it paid
for; runs of one model in one process share its `concurrency`. Real HTTP through litellm."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM
from support.scoring_runs import Collector, make, run

from paperterm.scoring.halt import Halt
from paperterm.scoring.provider import import_litellm
from paperterm.settings.config import Config
from paperterm.sources.feeds import parse_feed
from paperterm.topics import resolve_topic

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"


@pytest.fixture(scope="module")
def day():
    return parse_feed(FEED.read_bytes()).papers


@pytest.fixture(scope="module")
def topic():
    return resolve_topic("moe", Config()).topic


@pytest.fixture(scope="module", autouse=True)
def litellm_loaded():
    import_litellm()


@pytest.fixture
def llm(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLM(Behaviour(delay=0.5)) as server:
        yield server


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "paperterm.sqlite3"


async def test_answers_arriving_after_a_cancel_are_still_cached(llm, day, topic, db):
    papers = day[:20]
    cancel = asyncio.Event()

    async def cancel_soon():
        while llm.count < 2:
            await asyncio.sleep(0.01)
        cancel.set()  # two requests are in flight, paid for

    c = Collector()
    canceller = asyncio.ensure_future(cancel_soon())
    summary = await run(papers, topic, make(llm, concurrency=2), db, c, cancel=cancel)
    await canceller
    assert summary.halted is Halt.CANCELLED
    assert llm.count == 2 and summary.scored == 10  # both answers kept
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == 10
    before = llm.count
    again = await run(papers, topic, make(llm, concurrency=2), db)
    assert again.cached == 10 and llm.count - before == 2  # only the other ten are asked


async def test_overlapping_runs_never_exceed_concurrency_together(llm, day, topic, db):
    settings = make(llm, concurrency=2)
    first = run(day[:20], topic, settings, db)
    second = run(day[20:40], topic, settings, db)
    a, b = await asyncio.gather(first, second)
    assert a.scored == 20 and b.scored == 20
    assert llm.max_in_flight <= 2
