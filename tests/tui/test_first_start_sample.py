"""Issue 32 item 11: a first start (nothing cached) with arXiv hanging showed an empty
"loading" list until the fetch gave up (20 s), then the bundled sample day. The sample day
shows at once, said so, while the fetch goes on; the real day replaces it when it comes, or
one line says the fetch failed and the sample stays as the user left it.

Real local servers (one that accepts and never answers, the fake arXiv answering late), a
real empty store, start-up through `services.days.open_day`, the reader driven by Pilot."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
from support.fakearxiv import Reply
from support.slowserver import HostileServer

from paperterm.services.days import open_day
from paperterm.sources.loader import LoadRequest
from paperterm.store import Store
from paperterm.tui.screens.day import DayScreen

RSS_0302 = Path(__file__).resolve().parents[1] / "fixtures" / "feeds" / "rss-2026-03-02.xml"
SAMPLE = "2026-02-25"  # the bundled sample day


def _request(**kw: object) -> LoadRequest:
    return LoadRequest(categories=["cs.LG", "cs.AI"], announce_types=["new", "cross"],
                       **kw)  # type: ignore[arg-type]


def _starting(session, req: LoadRequest):
    """The session as start-up makes it on an empty store (the network deferred)."""
    store = Store.open(session.db_path)
    try:
        opened = open_day(req, store, defer_network=True)
    finally:
        store.close()
    return replace(session, day=opened.day, pending=opened.pending, request=req)


def _header(p) -> str:
    """The header line, "" while a new day screen is still being put up."""
    from textual.css.query import NoMatches

    try:
        return p.header()
    except NoMatches:
        return ""


def _day_screen(app) -> DayScreen:
    return next(s for s in app.screen_stack if isinstance(s, DayScreen))


@pytest.fixture
def first_start(make_session, monkeypatch):
    """Today is Mon 03-02 and nothing is cached."""
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-02")
    return make_session([])


async def test_the_sample_day_shows_at_once_while_a_hanging_fetch_goes_on_then_fails(
        first_start, make_app, probe, size, until, monkeypatch):
    with HostileServer("hang") as server:
        monkeypatch.setenv("PAPERTERM_RSS_URL", server.url + "/rss/{cats}")
        monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", server.url + "/api/query?{}")
        started = time.monotonic()
        session = _starting(first_start, _request(timeout=8.0))
        app = make_app(session, autoscore=False)
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: len(p.shown) > 100 and SAMPLE in p.header())
            assert time.monotonic() - started < 6  # well before the fetch gives up
            assert "[sample]" in p.header() and "loading" not in p.header()
            assert app.session.pending is not None  # the fetch goes on behind it
            assert p.said(f"showing the bundled sample day, {SAMPLE}, while today's "
                          "announcement loads")
            assert p.said("Loading cs.LG+cs.AI from arXiv")
            screen, shown = _day_screen(app), len(p.shown)
            await pilot.press("j")  # the list is usable meanwhile
            assert p.table.cursor == 1

            await until(pilot, lambda: app.session.pending is None, seconds=60)
            failed = [n for n in p.notices() if "not today's papers" in n]
            assert len(failed) == 1 and "\n" not in failed[0]  # one line says it failed
            assert _day_screen(app) is screen and len(p.shown) == shown  # the sample stays
            assert p.table.cursor == 1 and SAMPLE in p.header()


async def test_at_80x24_the_failed_fetch_says_what_shows_before_why(
        first_start, make_app, probe, until, monkeypatch):
    """A new-user walk: at 80x24 the header read "⚠ RSS feed: arXiv is unreachable
    ([Errno -2] Name or service not kn…": what shows (the sample day, not today's papers)
    was cut off. It comes first now, the cause after it."""
    with HostileServer("hang") as server:
        monkeypatch.setenv("PAPERTERM_RSS_URL", server.url + "/rss/{cats}")
        monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", server.url + "/api/query?{}")
        app = make_app(_starting(first_start, _request(timeout=2.0)), autoscore=False)
        async with app.run_test(size=(80, 24)) as pilot:
            p = probe(app)
            await until(pilot, lambda: app.session.pending is None, seconds=60)
            await until(pilot, lambda: "not today's papers" in p.header_notice())
            assert p.header_notice().lstrip().startswith(
                f"⚠ Showing the bundled sample day ({SAMPLE}), not today's papers")
            failed = [n for n in p.notices() if "not today's papers" in n]
            assert len(failed) == 1 and "arXiv" in failed[0].split(": ", 1)[1]


async def test_the_real_day_replaces_the_sample_when_the_fetch_returns(
        first_start, make_app, probe, size, until, fake_arxiv):
    fake_arxiv.route("/rss/", Reply(RSS_0302.read_bytes(), delay=4.0))
    session = _starting(first_start, _request())
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(p.shown) > 100 and SAMPLE in p.header())
        assert not [r for r in fake_arxiv.requests if r.path.startswith("/rss/")] or \
            app.session.pending is not None  # shown before the answer came
        await until(pilot, lambda: "2026-03-02" in _header(p), seconds=30)
        assert app.session.day.source == "rss" and "[sample]" not in p.header()
        assert app.session.pending is None


def test_a_first_start_for_other_categories_says_the_sample_is_not_theirs(tmp_path,
                                                                            monkeypatch):
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-02")
    store = Store.open(tmp_path / "p.sqlite3")
    try:
        req = LoadRequest(categories=["cs.CL"], announce_types=["new", "cross"])
        opened = open_day(req, store, defer_network=True)
    finally:
        store.close()
    assert opened.pending == req and opened.day.source == "sample"
    assert opened.day.notices == [f"showing the bundled sample day, {SAMPLE}, while today's "
                                  "announcement loads (the sample is cs.LG and cs.AI, not "
                                  "cs.CL)."]


async def test_the_sample_day_costs_no_tokens_until_it_stays(
        first_start, make_app, probe, size, until, monkeypatch, llm_settings, fake_scoring):
    """With a model set, the sample day is not sent to the model while today's is fetched
    (the fetched day replaces it); when the fetch fails it stays, and is scored then."""
    with HostileServer("hang") as server:
        monkeypatch.setenv("PAPERTERM_RSS_URL", server.url + "/rss/{cats}")
        monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", server.url + "/api/query?{}")
        session = _starting(replace(first_start, settings=llm_settings),
                            _request(timeout=4.0))
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: len(p.shown) > 100 and SAMPLE in p.header())
            await pilot.pause()
            assert not fake_scoring.runs and app.session.pending is not None
            await until(pilot, lambda: app.session.pending is None, seconds=60)
            await until(pilot, lambda: fake_scoring.runs, seconds=30)
            assert set(fake_scoring.runs[0].ids) <= {e.id for e in p.day.model.entries}


def test_a_sample_day_shown_before_is_the_sample_not_the_most_recent_cached_day(
        tmp_path, monkeypatch):
    """A start after one that showed the sample: the sample's day is among its categories'
    cached days, but it is said as the sample (flagged so), never "the most recent cached
    day"; a day really fetched before it is the cached day it stands in for."""
    from datetime import date

    from paperterm.models import Paper

    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-02")
    store = Store.open(tmp_path / "p.sqlite3")
    try:
        first = open_day(_request(), store, defer_network=True)
        again = open_day(_request(), store, defer_network=True)
        assert first.day.source == again.day.source == "sample"
        assert again.day.notices[0].startswith("showing the bundled sample day")
        fetched = [Paper("2602.00001", 1, "A fetched paper", ("A. Author",), "Abstract.",
                         ("cs.LG",), "cs.LG")]
        store.papers.save_day("cs.AI+cs.LG", date(2026, 2, 20), fetched, source="rss")
        cached = open_day(_request(), store, defer_network=True)
        assert cached.day.source == "cache" and cached.day.label == "2026-02-20"
    finally:
        store.close()
