"""Issue 32 (low): a paid run's estimate before it starts (papers, tokens, dollars) and
the one question over config `confirm_cost` (the reader's `t`, `score` on a terminal)."""

from __future__ import annotations

import io
import sys
from datetime import date
from functools import partial

import pytest

from paperterm.cli.errors import UserError
from paperterm.cli.scoring_run import _confirm
from paperterm.day.session import Session
from paperterm.models import Day
from paperterm.services.scoring import ask_first, estimate_run
from paperterm.settings import ScoringSettings
from paperterm.settings.config import Config
from paperterm.store import Store
from paperterm.topics import resolve_topic

PRICED = ScoringSettings(model="openai/gpt-4o-mini")


def test_the_estimate_counts_papers_tokens_and_dollars(tmp_path, day):
    topic = resolve_topic("moe", Config()).topic
    opener = partial(Store.open, tmp_path / "db.sqlite3")
    est = estimate_run(day, topic, PRICED, opener)
    assert est.papers == len(day)
    assert est.tokens > 150 * len(day)
    assert est.cost is not None and 0 < est.cost < 1
    assert est.over(est.cost / 2) and not est.over(est.cost * 2) and not est.over(0)
    line = ask_first(day, topic, PRICED, opener, est.cost / 2, then="go?")
    assert line is not None and line.startswith(
        f"openai/gpt-4o-mini would score {len(day)} papers: about ")
    assert "$" in line and line.endswith("go?")
    assert ask_first(day, topic, ScoringSettings(), opener, 0.01, then="") is None


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_score_on_a_terminal_asks_once_and_no_spends_nothing(tmp_path, day,
                                                             monkeypatch):
    session = Session(config=Config(confirm_cost=0.000001),
                      day=Day(papers=day, label="2026-02-25",
                              day=date(2026, 2, 25), source="feed"),
                      topic=resolve_topic("moe", Config()).topic, settings=PRICED,
                      db_path=tmp_path / "db.sqlite3", bib_path=tmp_path / "x.bib")
    monkeypatch.setattr(sys, "stdin", _Terminal())
    out = _Terminal()
    monkeypatch.setattr("builtins.input", lambda: "n")
    with pytest.raises(UserError, match="not confirmed"):
        _confirm(session, out)
    assert "would score" in out.getvalue() and "go ahead? [y/N]" in out.getvalue()
    monkeypatch.setattr("builtins.input", lambda: "y")
    _confirm(session, out)  # yes: the run goes ahead
    _confirm(session, io.StringIO())  # no terminal (cron): never asked
