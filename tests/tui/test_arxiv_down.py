"""Issue 21 item 3 and issue 22 polish: arXiv down or hanging never blanks the reader.

A failed `[` / `]` steps to the nearest cached day in the asked direction and says which and
why, keeping the filter and the sort (with none there, the reader stays); while today's
announcement is fetched, the most recent cached day is on screen at once and is replaced
when the fetch returns (`--refresh` too). Real local servers (a refusing port, a server that
never answers, the fake arXiv), a real cached store, the reader driven by Pilot."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from support.fakearxiv import Reply, closed_port
from support.slowserver import HostileServer

from paperterm.models import Paper
from paperterm.sources.loader import LoadRequest
from paperterm.store import Store
from paperterm.tui.screens.day import DayScreen

FEED = "cs.AI+cs.LG"  # the default categories
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"


def _papers(tag: str, n: int = 3) -> list[Paper]:
    return [Paper(f"2603.{tag}{i:02d}", 1, f"{tag} paper {i} on sparse experts",
                  ("A. Author",), "An abstract about experts.", ("cs.LG",), "cs.LG")
            for i in range(n)]


def _request(**kw: object) -> LoadRequest:
    return LoadRequest(categories=["cs.LG", "cs.AI"], announce_types=["new", "cross"],
                       **kw)  # type: ignore[arg-type]


def _screen(app) -> DayScreen:
    return next(s for s in app.screen_stack if isinstance(s, DayScreen))


def _header(p) -> str:
    """The header line, "" while a new day screen is still being put up."""
    from textual.css.query import NoMatches

    try:
        return p.header()
    except NoMatches:
        return ""


def _showing(app, iso: str) -> bool:
    screen = app.screen
    return isinstance(screen, DayScreen) and screen.session.day.label == iso


@pytest.fixture
def unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    dead = closed_port()
    monkeypatch.setenv("PAPERTERM_RSS_URL", f"http://127.0.0.1:{dead}/rss/{{cats}}")
    monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", f"http://127.0.0.1:{dead}/api/query?{{}}")


@pytest.fixture
def week(make_session, monkeypatch):
    """Today is Thu 03-05; Mon 03-02 and Wed 03-04 are cached, Tue 03-03 is not; the reader
    is on 03-04, not offline."""
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-05")
    session = make_session(_papers("04"))
    store = Store.open(session.db_path)
    store.papers.save_day(FEED, date(2026, 3, 2), _papers("02"), source="rss")
    store.papers.save_day(FEED, date(2026, 3, 4), _papers("04"), source="rss")
    store.close()
    day = replace(session.day, label="2026-03-04", day=date(2026, 3, 4), source="cache")
    return replace(session, day=day, request=_request())


async def _filter_and_sort(pilot, app) -> None:
    await pilot.press("slash", *"paper", "enter")
    await pilot.press("S")  # reverse the sort
    model = _screen(app).model
    assert model.filters.text == "paper" and model.reverse


def _kept(app) -> bool:
    model = _screen(app).model
    return model.filters.text == "paper" and model.reverse


async def test_a_failed_step_back_lands_on_the_nearest_cached_day_before(
        week, unreachable, make_app, probe, size, until):
    app = make_app(week, autoscore=False)
    async with app.run_test(size=size) as pilot:
        await _filter_and_sort(pilot, app)
        await pilot.press("left_square_bracket")  # 03-03 is not cached, and arXiv is down
        await until(pilot, lambda: _showing(app, "2026-03-02"))
        assert probe(app).said("Showing 2026-03-02, the nearest cached day before 2026-03-03, "
                               "which could not be loaded")
        assert _kept(app)
        assert _screen(app).search.value == "paper"

        await pilot.press("left_square_bracket")  # nothing cached before 03-02: stays
        await until(pilot, lambda: probe(app).said("no cached day before it"))
        assert _showing(app, "2026-03-02") and _kept(app)
        assert not probe(app).said("2026-03-04 could not")  # never jumped forward

        await pilot.press("right_square_bracket")  # 03-03 fails again: on to 03-04
        await until(pilot, lambda: _showing(app, "2026-03-04"))
        assert probe(app).said("Showing 2026-03-04, the nearest cached day after 2026-03-03")
        assert _kept(app)


async def test_a_failed_step_to_today_stays_and_keeps_filter_and_sort(
        week, unreachable, make_app, probe, size, until):
    app = make_app(week, autoscore=False)
    async with app.run_test(size=size) as pilot:
        await _filter_and_sort(pilot, app)
        screen = _screen(app)
        await pilot.press("right_square_bracket")  # today, 03-05: not cached, arXiv down
        await until(pilot, lambda: probe(app).said("2026-03-05 could not be loaded"))
        assert probe(app).said("no cached day after it")
        assert _screen(app) is screen and _showing(app, "2026-03-04") and _kept(app)
        assert not probe(app).said("not today's papers")
        assert app.session.pending is None  # the next key works again


def _starting(session, req: LoadRequest):
    """The session as start-up makes it (services.days.open_day, the network deferred)."""
    from paperterm.services.days import open_day

    store = Store.open(session.db_path)
    try:
        opened = open_day(req, store, defer_network=True)
    finally:
        store.close()
    return replace(session, day=opened.day, pending=opened.pending, request=req)


@pytest.fixture
def yesterday_cached(make_session, monkeypatch):
    """Today is Wed 02-25; Tue 02-24 was fetched yesterday."""
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-02-25")
    session = make_session([])
    store = Store.open(session.db_path)
    store.papers.save_day(FEED, date(2026, 2, 24), _papers("24"), source="rss",
                          fetched_for=date(2026, 2, 24))
    store.close()
    return session


async def test_a_hanging_feed_shows_the_cached_day_at_once(
        yesterday_cached, make_app, probe, size, until, monkeypatch):
    with HostileServer("hang") as server:
        monkeypatch.setenv("PAPERTERM_RSS_URL", server.url + "/rss/{cats}")
        started = time.monotonic()
        # the fetch's deadline is 600 s here: a reader that waited for it is told from a
        # loaded machine's slow start (a bound of 3 s told neither)
        session = _starting(yesterday_cached, _request(timeout=600))
        app = make_app(session, autoscore=False)
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: len(p.shown) == 3 and "2026-02-24" in _header(p))
            assert time.monotonic() - started < 60, "the cached day waited for the fetch"
            assert "loading" not in p.header()
            assert app.session.pending is not None  # still fetching behind it
            assert p.said("showing the most recent cached day, 2026-02-24")


async def test_a_failed_fetch_leaves_the_cached_day_as_the_user_left_it(
        yesterday_cached, make_app, probe, size, until, fake_arxiv):
    answer = threading.Event()  # the failure comes once the user has filtered and sorted
    fake_arxiv.route("/rss/", Reply(b"down", 500, hold=answer))
    session = _starting(yesterday_cached, _request())
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(p.shown) == 3 and "2026-02-24" in _header(p))
        screen = _screen(app)
        await _filter_and_sort(pilot, app)
        assert app.session.pending is not None  # set while the fetch still runs
        answer.set()
        await until(pilot, lambda: app.session.pending is None)
        assert p.said("arXiv answered HTTP 500")
        assert _screen(app) is screen and _kept(app)  # not replaced: filter and sort stand


@pytest.mark.parametrize("refresh", [False, True])
async def test_the_cached_day_is_replaced_when_the_fetch_returns(
        yesterday_cached, make_app, probe, size, until, fake_arxiv, refresh):
    answer = threading.Event()  # the day comes once the cached one has been seen
    fake_arxiv.route("/rss/", Reply(EXAMPLE.read_bytes(), hold=answer))
    session = _starting(yesterday_cached, _request(refresh=refresh))
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(p.shown) == 3 and "2026-02-24" in _header(p))
        assert not fake_arxiv.requests[1:]
        answer.set()
        await until(pilot, lambda: _showing(app, "2026-02-25"))
        await until(pilot, lambda: len(p.shown) == 244 and "2026-02-25" in _header(p))


async def test_a_query_with_arxiv_down_searches_the_cache(
        yesterday_cached, unreachable, make_app, probe, size, until):
    store = Store.open(yesterday_cached.db_path)
    store.papers.save_day(FEED, date(2026, 2, 20), [
        Paper("2602.02001", 1, "Graph kernels at scale", ("B. Author",), "Kernels on graphs.",
              ("cs.LG",), "cs.LG")], source="rss")
    store.close()
    session = _starting(yesterday_cached, _request(query="graph kernels"))
    assert session.day.source == "loading"  # a search is never answered from the cache at once
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: app.session.pending is None and len(p.shown) == 1)
        assert p.shown[0].id == "2602.02001"  # the cached match, not the latest day
        assert p.said("the cache was searched, not arXiv")


async def test_a_step_back_while_today_hangs_goes_at_once(
        yesterday_cached, make_app, probe, size, until, monkeypatch):
    """`[` while today's fetch hangs goes to the cached day before, at once (it said
    "Already loading…" for the 20 s the fetch took); the hanging fetch's outcome, when it
    comes, is dropped."""
    store = Store.open(yesterday_cached.db_path)
    store.papers.save_day(FEED, date(2026, 2, 23), _papers("23"), source="rss",
                          fetched_for=date(2026, 2, 23))
    store.close()
    with HostileServer("hang") as server:
        monkeypatch.setenv("PAPERTERM_RSS_URL", server.url + "/rss/{cats}")
        session = _starting(yesterday_cached, _request(timeout=600))  # (as above)
        app = make_app(session, autoscore=False)
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: "2026-02-24" in _header(p))
            assert app.session.pending is not None  # today's fetch hangs behind it
            started = time.monotonic()
            await pilot.press("left_square_bracket")
            await until(pilot, lambda: _showing(app, "2026-02-23"))
            assert time.monotonic() - started < 60, "the step back waited for the fetch"
            assert app.session.pending is None
            assert not p.said("Already loading")
            await pilot.press("right_square_bracket")
            await until(pilot, lambda: _showing(app, "2026-02-24"))
