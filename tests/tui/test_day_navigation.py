"""Day navigation in the reader (issue 11 item 2): `[` / `]` previous and next announcement
day with weekends and holidays skipped, `D` to jump to a date, `W` this week with a day
column; days from the cache, a missing one fetched (the local fake arXiv), offline said."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from support.fakearxiv import Reply

from paperterm.models import Paper
from paperterm.sources.loader import LoadRequest
from paperterm.store import Store
from paperterm.tui.screens.day import DayScreen
from paperterm.tui.screens.day_nav import JumpDialog

FEED = "cs.AI+cs.LG"  # the default categories
API = (Path(__file__).parents[1] / "fixtures" / "feeds" / "api-2026-02-25.xml").read_bytes()


def _paper(pid: str, title: str) -> Paper:
    return Paper(pid, 1, title, ("A. Author",), "An abstract.", ("cs.LG",), "cs.LG")


@pytest.fixture
def days(make_session, monkeypatch):
    """A cache of Tue 02-24, Wed 02-25 (the example day, shown), a holiday on Thu 02-26
    (asked, nothing announced), Fri 02-27 and Mon 03-02; today is Tue 03-03."""
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-03")
    session = make_session()
    store = Store.open(session.db_path)
    store.papers.save_day(FEED, date(2026, 2, 24), [_paper("2602.00024", "Tuesday paper")],
                          source="rss")
    store.papers.save_day(FEED, date(2026, 2, 25), session.day.papers, source="rss")
    store.papers.save_day(FEED, date(2026, 2, 26), [], source="api", fetched_for="api:2026-02-26")
    store.papers.save_day(FEED, date(2026, 2, 27), [_paper("2602.00027", "Friday paper")],
                          source="rss")
    store.papers.save_day(FEED, date(2026, 3, 2), [_paper("2603.00002", "Monday paper")],
                          source="rss")
    store.close()
    return session


def _offline(session):
    return replace(session, request=LoadRequest(categories=["cs.LG", "cs.AI"],
                                                announce_types=["new", "cross"], offline=True))


def _day(app) -> DayScreen:
    return next(s for s in app.screen_stack if isinstance(s, DayScreen))


def _showing(app, iso: str) -> bool:
    screen = app.screen
    return isinstance(screen, DayScreen) and screen.session.day.label == iso


async def test_brackets_step_over_holidays_and_weekends(days, make_app, probe, size, until):
    app = make_app(days, autoscore=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: _showing(app, "2026-02-27"))
        assert [e.id for e in _day(app).entries] == ["2602.00027"]
        assert probe(app).said("skipped Thu 02-26 (no announcement: holidays)")
        assert "2026-02-27" in probe(app).header()
        await pilot.press("right_square_bracket")  # over the weekend
        await until(pilot, lambda: _showing(app, "2026-03-02"))
        await pilot.press("left_square_bracket", "left_square_bracket")
        await until(pilot, lambda: _showing(app, "2026-02-25"))
        assert len(_day(app).entries) == len(days.day.papers)
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: _showing(app, "2026-02-24"))


async def test_offline_skips_uncached_days_and_says_when_there_is_none(
        days, make_app, probe, size, until):
    store = Store.open(days.db_path)
    store.conn.execute("DELETE FROM fetches")  # the holiday is not known: just not cached
    store.close()
    app = make_app(_offline(days), autoscore=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: _showing(app, "2026-02-27"))
        assert probe(app).said("skipped Thu 02-26 (not cached; offline)")
        for _ in range(3):
            await pilot.press("left_square_bracket")
        await until(pilot, lambda: _showing(app, "2026-02-24"))
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: probe(app).said(
            "Offline: no cached announcement before 2026-02-24"))
        assert _showing(app, "2026-02-24")


async def test_a_missing_day_is_fetched_in_the_background(
        days, make_app, probe, size, until, fake_arxiv):
    fake_arxiv.route("/api/", Reply(API))
    app = make_app(days, autoscore=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: _showing(app, "2026-02-24"))
        await pilot.press("left_square_bracket")  # Mon 02-23: not cached
        await until(pilot, lambda: _showing(app, "2026-02-23"))
        assert [r.path.split("?")[0] for r in fake_arxiv.requests] == ["/api/query"]
        assert len(_day(app).entries) == 5
        assert probe(app).said("approximated from arXiv API")


async def test_jump_to_a_date_a_weekend_and_bad_input(days, make_app, probe, size, until):
    app = make_app(_offline(days), autoscore=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("D")
        assert isinstance(app.screen, JumpDialog)
        await pilot.press(*"2026-02-24", "enter")
        await until(pilot, lambda: _showing(app, "2026-02-24"))
        await pilot.press("D", *"2026-02-28", "enter")  # a Saturday: the Friday before
        await until(pilot, lambda: _showing(app, "2026-02-27"))
        assert probe(app).said("2026-02-28 is a Saturday")
        await pilot.press("D", *"someday", "enter")
        await until(pilot, lambda: probe(app).said("not a date: 'someday'"))
        await pilot.press("D", *"2026-01-05", "enter")
        await until(pilot, lambda: probe(app).said(
            "Offline: the 2026-01-05 announcement is not cached."))
        await pilot.press("D", *"2027-01-01", "enter")
        await until(pilot, lambda: probe(app).said("2027-01-01 is in the future"))
        assert _showing(app, "2026-02-27")
        await pilot.press("D", "escape")
        await until(pilot, lambda: isinstance(app.screen, DayScreen))


async def test_this_week_shows_a_day_column_and_says_what_is_not_cached(
        days, make_app, probe, size, until):
    store = Store.open(days.db_path)
    store.papers.save_day(FEED, date(2026, 3, 3), [_paper("2603.00003", "Tuesday of this week")],
                          source="rss")
    store.close()
    app = make_app(_offline(days), autoscore=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("W")
        await until(pilot, lambda: _showing(app, "since 2026-03-02 (2 days)"))
        p = probe(app)
        assert "Day" in p.columns()
        assert {e.id: e.day for e in p.day.entries} == {"2603.00003": "2026-03-03",
                                                       "2603.00002": "2026-03-02"}
        assert any("03-03" in row and "Tuesday of this week" in row for row in p.rows())
        await pilot.press("right_square_bracket")  # not one day
        await until(pilot, lambda: p.said("This view is not one day"))
        await pilot.press("left_square_bracket")  # the latest announcement
        await until(pilot, lambda: _showing(app, "2026-03-03"))
        assert "Day" not in probe(app).columns()


async def test_this_week_offline_names_the_missing_days(days, make_app, probe, size, until):
    app = make_app(_offline(replace(days)), autoscore=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("W")
        await until(pilot, lambda: _showing(app, "since 2026-03-02 (1 days)"))
        assert probe(app).said("Offline: 1 day(s) since 2026-03-02 are not cached (2026-03-03)")


async def test_the_session_is_never_changed_in_place_a_new_day_is_a_new_session(
        days, make_app, size, until):
    import dataclasses

    app = make_app(days, autoscore=False)
    async with app.run_test(size=size) as pilot:
        first = app.session
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: _showing(app, "2026-02-27"))
        assert app.session is not first and app.session.day.label == "2026-02-27"
        assert first.day.label == "2026-02-25" and first.pending is None  # as it was
        with pytest.raises(dataclasses.FrozenInstanceError):
            app.session.day = first.day  # type: ignore[misc]
