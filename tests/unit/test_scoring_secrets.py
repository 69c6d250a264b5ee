"""No secret is ever printed (issue 9, item 13): credentials and query values in `api_base`
are redacted in every message; keys a provider echoes are redacted whatever their length.
And an `api_base` with `user:pass@` works (item 19). Real HTTP through litellm."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM
from support.scoring_runs import Collector, make, run

from paperterm.io.redact import redact, redact_url
from paperterm.scoring import ScoringError
from paperterm.scoring.provider import import_litellm
from paperterm.settings import ScoringSettings
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
def db(tmp_path) -> Path:
    return tmp_path / "paperterm.sqlite3"


def with_secrets(url: str) -> str:
    return url.replace("http://", "http://alice:hunter2pw@") + "?api_key=qk7&token=tk9tk9"


def test_redact_url_hides_credentials_and_query_values():
    shown = redact_url("https://alice:hunter2pw@proxy.example/v1?api_key=qk7&token=tk9tk9")
    assert shown == "https://***@proxy.example/v1?api_key=***&token=***"
    assert redact_url("http://localhost:11434") == "http://localhost:11434"


def test_short_keys_are_redacted_where_they_stand_alone(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "ab12")
    assert redact("Incorrect API key provided: ab12.") == "Incorrect API key provided: ***."
    assert redact("tab123 stays") == "tab123 stays"  # not inside other words
    assert "hunter2pw" not in redact("failed for http://alice:hunter2pw@host/v1")


async def test_a_short_key_echoed_by_the_provider_is_never_shown(monkeypatch, day, topic, db):
    monkeypatch.setenv("OPENAI_API_KEY", "k3y")  # under 8 characters
    with FakeLLM() as llm:
        llm.default = Behaviour(status=401, error_message="Incorrect API key provided: k3y")
        with pytest.raises(ScoringError) as info:
            await run(day[:3], topic, make(llm), db)
    assert "k3y" not in str(info.value)
    assert "Incorrect API key provided: ***" in str(info.value)


async def test_api_base_credentials_never_reach_a_message(monkeypatch, day, topic, db):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLM() as llm:
        base = with_secrets(llm.url)
        llm.default = Behaviour(status=404, error_message=f"no such model at {base}")
        with pytest.raises(ScoringError) as info:
            await run(day[:3], topic, make(llm, api_base=base), db)
    text = str(info.value)
    for secret in ("hunter2pw", "alice", "qk7", "tk9tk9"):
        assert secret not in text, text
    assert "api_key=***" in text


async def test_an_unreachable_api_base_is_named_without_its_credentials(monkeypatch, day,
                                                                         topic, db):
    from support.fakearxiv import closed_port

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    base = with_secrets(f"http://127.0.0.1:{closed_port()}/v1")
    settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=base, timeout=2.0)
    with pytest.raises(ScoringError) as info:
        await run(day[:3], topic, settings, db)
    text = str(info.value)
    assert "cannot connect" in text
    assert "hunter2pw" not in text and "qk7" not in text and "tk9tk9" not in text


async def test_an_api_base_with_user_and_password_works(monkeypatch, day, topic, db):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLM() as llm:
        base = llm.url.replace("http://", "http://alice:hunter2pw@")
        c = Collector()
        summary = await run(day[:3], topic, make(llm, api_base=base), db, c)
        headers = llm.headers[0]
    assert summary.scored == 3
    assert headers["authorization"] == "Basic YWxpY2U6aHVudGVyMnB3"  # alice:hunter2pw
