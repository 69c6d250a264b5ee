"""Fixtures shared by the scoring-engine tests: the sample day, the moe topic, a fake
OpenAI-compatible server with a key set, a database path, and litellm imported up front."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.fakellm import FakeLLM

from paperterm.models import Paper
from paperterm.settings.config import Config
from paperterm.sources.feeds import parse_feed
from paperterm.topics import resolve_topic

FEED = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"


@pytest.fixture(scope="module")
def day() -> list[Paper]:
    return parse_feed(FEED.read_bytes()).papers


@pytest.fixture(scope="module")
def topic():
    return resolve_topic("moe", Config()).topic


@pytest.fixture(scope="module")
def litellm_loaded():
    """Import litellm once up front, so that no timing assertion pays for the import.
    Scoring test modules use it with `pytestmark = pytest.mark.usefixtures(...)`."""
    from paperterm.scoring.provider import import_litellm

    import_litellm()


@pytest.fixture
def llm(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLM() as server:
        yield server


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "paperterm.sqlite3"


@pytest.fixture(scope="session")
def read_bib():  # type: ignore[no-untyped-def]
    """`read_bib(text)`: the entries bibtexparser 1.x (the version pyzotero requires) reads,
    as dicts with "ID", "ENTRYTYPE" and lower-cased field names; month macros resolved. It
    drops a block it cannot parse, so tests compare counts."""
    import bibtexparser
    from bibtexparser.bparser import BibTexParser

    def read(text: str) -> list[dict[str, str]]:
        parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False)
        return bibtexparser.loads(text, parser).entries

    return read
