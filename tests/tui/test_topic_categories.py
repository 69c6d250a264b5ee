"""Switching topic honours the topic's `categories`: the same day is loaded for them, in
the background, while the list stays usable (issue 10, item 15)."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from paperterm.settings.config import Config
from paperterm.sources.loader import LoadRequest
from paperterm.topics import resolve_topic
from paperterm.tui.screens.day import DayScreen
from paperterm.tui.topic_day import reload_for_topic

FEED = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"


@pytest.fixture
def nlp():
    """A topic read on cs.CL (its own `categories`)."""
    return replace(resolve_topic("agents", Config()).topic, name="nlp", categories=("cs.CL",))


@pytest.fixture
def today_session(make_session, monkeypatch):
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-02-25")

    def make(**kw):
        session = make_session(**kw)
        return replace(session, request=LoadRequest(
            categories=["cs.LG", "cs.AI"], announce_types=list(session.config.announce_types)))

    return make


async def test_a_topic_with_other_categories_reloads_the_day_without_blocking(
        today_session, make_app, probe, size, until, fake_arxiv, nlp):
    from support.fakearxiv import Reply

    answer = threading.Event()  # cs.CL's day comes once the list has answered a key
    fake_arxiv.route("/rss/", Reply(body=FEED.read_bytes(), hold=answer))
    app = make_app(today_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.day
        first.switch_topic(nlp)
        assert p.said("Topic: nlp: loading cs.CL from arXiv…")
        await pilot.press("j")  # the list answers meanwhile
        # (by row: the day's ranking for nlp may arrive in between and move the rows)
        await until(pilot, lambda: p.table.moved_by_user)
        assert p.day is first and app.session.pending is not None
        answer.set()
        await until(pilot, lambda: p.day is not first and len(p.shown) == 244)
        await pilot.pause()
        assert [r.path for r in fake_arxiv.requests] == ["/rss/cs.CL"]
        assert p.day.topic.name == "nlp" and app.session.topic.name == "nlp"
        assert "topic nlp" in p.header()
        assert app.session.request.categories == ["cs.CL"]
        assert p.table.cursor == 0 and p.shown[0].relevance is not None
        # back to a topic read on the config's categories: that day again
        p.day.switch_topic(resolve_topic("moe", Config()).topic)
        await until(pilot, lambda: app.session.pending is None
                    and app.session.topic.name == "moe", )
        assert [r.path for r in fake_arxiv.requests] == ["/rss/cs.CL", "/rss/cs.LG+cs.AI"]
        assert app.session.request.categories == ["cs.LG", "cs.AI"]
        assert isinstance(app.screen, DayScreen) and p.day.topic.name == "moe"


async def test_same_categories_or_categories_flag_keep_the_day(today_session, make_app, probe,
                                                               size, fake_arxiv, nlp):
    app = make_app(today_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.day
        p.day.switch_topic(resolve_topic("agents", Config()).topic)  # the config's categories
        await pilot.pause()
        assert p.day is first and first.topic.name == "agents"
        assert app.session.pending is None
    session = today_session()
    session = replace(session, categories_fixed=True)  # paperterm --categories cs.LG,cs.AI
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.day
        first.switch_topic(nlp)
        await pilot.pause()
        assert p.day is first and first.topic.name == "nlp"
        assert app.session.pending is None
    assert fake_arxiv.requests == []


def test_only_days_of_categories_are_reloaded(today_session, nlp, tmp_path):
    session = today_session()
    assert reload_for_topic(session, nlp).categories == ["cs.CL"]
    dated = replace(session.request, date=date(2026, 2, 24))
    session = replace(session, request=dated)
    assert reload_for_topic(session, nlp).date == dated.date  # the same day, other categories
    for other in (replace(dated, feed=tmp_path / "f.xml"), replace(dated, sample=True),
                  replace(dated, query="moe"), None):
        session = replace(session, request=other)
        assert reload_for_topic(session, nlp) is None


async def test_a_refetch_keeps_the_topic_switched_to(today_session, make_app, probe, size,
                                                     until, fake_arxiv):
    from support.fakearxiv import Reply

    fake_arxiv.route("/rss/", Reply(body=FEED.read_bytes()))
    app = make_app(today_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.day.switch_topic(resolve_topic("agents", Config()).topic)  # same categories
        first = p.day
        await pilot.press("R")
        # the new day's screen is in the stack before it is mounted (its header still blank)
        await until(pilot, lambda: p.day is not first and len(p.shown) == 244
                    and p.day.is_mounted and "2026-02-25" in p.header(), )
        assert p.day.topic.name == "agents" and "topic agents" in p.header()
