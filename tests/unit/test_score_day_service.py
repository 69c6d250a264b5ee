"""Score a day once (issue 19, item 1): the service both the CLI (`score`, `digest`) and the
reader's worker call, reporting by events. Real HTTP through litellm to the fake server."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM
from support.scoring_runs import make

from paperterm.scoring.prefilter import NOT_SENT
from paperterm.scoring.provider import import_litellm
from paperterm.services import scoring as service
from paperterm.settings.config import Config
from paperterm.sources.feeds import parse_feed
from paperterm.store import opener
from paperterm.topics import resolve_topic

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"


@pytest.fixture(scope="module")
def day():
    return parse_feed(FEED.read_bytes()).papers[:40]


@pytest.fixture(scope="module")
def topic():
    return resolve_topic("moe", Config()).topic


@pytest.fixture(scope="module", autouse=True)
def litellm_loaded():
    import_litellm()


@pytest.fixture
def llm(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLM(Behaviour()) as server:
        yield server


def test_prefilter_run_and_savings_arrive_as_events_one_score_per_paper(
        llm, day, topic, tmp_path):
    events: list[service.ScoringEvent] = []
    summary = service.score_day(day, topic, make(llm, prefilter=0.25),
                                open_store=opener(tmp_path / "db.sqlite3"), on_event=events.append,
                                day="2026-02-25", whole_day=("2026-02-25", day))
    assert summary is not None and events[-1] == service.ScoringFinished(summary)
    first = events[0]
    assert isinstance(first, service.ScoresArrived)  # the held papers, before any request
    assert first.scores and all(s.status == "prefiltered" and s.reason.startswith(NOT_SENT)
                                for s in first.scores)
    got = [s for e in events if isinstance(e, service.ScoresArrived) for s in e.scores]
    assert sorted(s.paper_id for s in got) == sorted(p.id for p in day)  # each once
    assert any(isinstance(e, service.ScoringProgress) for e in events)
    assert summary.prefiltered == len(first.scores) and summary.saved_tokens > 0
    assert summary.scored == len(day) - len(first.scores)
    held = {s.paper_id for s in first.scores}
    assert set(llm.requested_ids()) == {p.id for p in day} - held  # only those sent


def test_a_failed_run_is_one_event_not_an_exception(monkeypatch, day, topic, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    events: list[service.ScoringEvent] = []
    with FakeLLM(Behaviour(status=401, error_message="bad key")) as server:
        summary = service.score_day(day[:5], topic, make(server), on_event=events.append,
                                    open_store=opener(tmp_path / "db.sqlite3"))
    assert summary is None
    failed = [e for e in events if isinstance(e, service.ScoringFailed)]
    assert len(failed) == 1 and failed[0].error
    assert not any(isinstance(e, service.ScoringFinished) for e in events)


def test_without_a_model_the_day_is_ranked_locally(day, topic, tmp_path):
    from paperterm.settings import ScoringSettings

    events: list[service.ScoringEvent] = []
    summary = service.score_day(day, topic, ScoringSettings(),
                                open_store=opener(tmp_path / "db.sqlite3"),
                                on_event=events.append, whole_day=("2026-02-25", day))
    assert summary is not None and summary.model == "local" and summary.scored == len(day)
    (arrived,) = [e for e in events if isinstance(e, service.ScoresArrived)]
    assert [s.paper_id for s in arrived.scores] == [p.id for p in day]
