"""Announcement-day navigation (issue 11 item 2), domain side: the store's day queries,
stepping over weekends and holidays, typed dates, and `--since` fetching missing days."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from support.fakearxiv import Reply

from paperterm.models import Paper
from paperterm.sources import daynav
from paperterm.sources.loader import LoadRequest, load_day, loads_without_network
from paperterm.store import Store

FEED = "cs.AI+cs.LG"
TODAY = date(2026, 3, 3)  # a Tuesday


def _paper(pid: str) -> Paper:
    return Paper(pid, 1, f"Paper {pid}", ("A. Author",), "Text.", ("cs.LG",), "cs.LG")


@pytest.fixture
def store(isolated_home):
    s = Store.open(isolated_home.db)
    s.papers.save_day(FEED, date(2026, 2, 24), [_paper("2602.00024")], source="rss")
    s.papers.save_day(FEED, date(2026, 2, 26), [], source="api", fetched_for="api:2026-02-26")
    s.papers.save_day(FEED, date(2026, 2, 27), [_paper("2602.00027"), _paper("2602.00024")],
                      source="rss")
    yield s
    s.close()


def test_store_days_cached_empty_and_nearest(store):
    span = (date(2026, 2, 20), date(2026, 3, 3))
    assert store.papers.cached_days(FEED, *span) == {date(2026, 2, 24), date(2026, 2, 27)}
    assert store.papers.empty_days(FEED, *span) == {date(2026, 2, 26)}
    assert store.papers.nearest_cached_day(FEED, date(2026, 2, 27), -1) == date(2026, 2, 24)
    assert store.papers.nearest_cached_day(FEED, date(2026, 2, 24), 1) == date(2026, 2, 27)
    assert store.papers.nearest_cached_day(FEED, date(2026, 2, 24), -1) is None
    assert store.papers.cached_days("other", *span) == set()


def test_announced_since_keeps_each_paper_on_its_first_day(store):
    found = [(p.id, d) for p, d in store.papers.announced_since(date(2026, 2, 25))]
    assert found == [("2602.00027", "2026-02-27")]  # 2602.00024 was first announced 02-24
    both = [(p.id, d) for p, d in store.papers.announced_since(date(2026, 2, 1))]
    assert both == [("2602.00027", "2026-02-27"), ("2602.00024", "2026-02-24")]
    until = store.papers.announced_since(date(2026, 2, 1), date(2026, 2, 25))
    assert [p.id for p, _ in until] == ["2602.00024"]


def test_neighbours_skip_weekends_and_known_holidays(store):
    step = daynav.neighbour
    assert step(store.papers, FEED, date(2026, 2, 25), 1, TODAY).day == date(2026, 2, 27)
    t = step(store.papers, FEED, date(2026, 2, 24), 1, TODAY)
    assert t.day == date(2026, 2, 25) and not t.cached  # a weekday not cached: fetched
    t = step(store.papers, FEED, date(2026, 2, 27), 1, TODAY)
    assert t.day == date(2026, 3, 2) and not t.cached  # over the weekend
    t = step(store.papers, FEED, date(2026, 2, 27), -1, TODAY)
    assert t.day == date(2026, 2, 25) and not t.cached  # the holiday 02-26 is skipped
    assert "Thu 02-26" in (t.notice or "")
    assert step(store.papers, FEED, TODAY, 1, TODAY).day is None


def test_offline_neighbours_are_cached_days_only(store):
    t = daynav.neighbour(store.papers, FEED, date(2026, 2, 27), -1, TODAY, offline=True)
    assert t.day == date(2026, 2, 24) and t.cached
    assert "Wed 02-25" in (t.notice or "") and "Thu 02-26" in (t.notice or "")
    none = daynav.neighbour(store.papers, FEED, date(2026, 2, 24), -1, TODAY, offline=True)
    assert none.day is None and "Offline" in (none.notice or "")


def test_parse_jump():
    assert daynav.parse_jump("2026-02-25", TODAY) == (date(2026, 2, 25), None)
    assert daynav.parse_jump(" Yesterday ", TODAY) == (date(2026, 3, 2), None)
    day, notice = daynav.parse_jump("2026-03-01", TODAY)
    assert day == date(2026, 2, 27) and "Sunday" in (notice or "")
    for bad, words in (("2026-13-01", "no such date"), ("2026-02-30", "no such date: "
                       "'2026-02-30'"), ("next week", "not a date"), ("20260225", "not a date"),
                       ("2026-03-04", "in the future")):
        with pytest.raises(ValueError, match=words):
            daynav.parse_jump(bad, TODAY)
    assert daynav.week_start(TODAY) == date(2026, 3, 2)
    assert daynav.week_start(date(2026, 3, 8)) == date(2026, 3, 2)  # a Sunday


def _req(**kw) -> LoadRequest:
    return LoadRequest(categories=["cs.LG", "cs.AI"], announce_types=["new", "cross"],
                       timeout=5.0, **kw)


def test_since_offline_says_which_days_are_missing(store, monkeypatch):
    monkeypatch.setenv("PAPERTERM_TODAY", TODAY.isoformat())
    req = _req(since=date(2026, 2, 24), offline=True)
    assert loads_without_network(req, store)
    day = load_day(req, store)
    assert day.paper_days == {"2602.00024": "2026-02-24", "2602.00027": "2026-02-27"}
    assert any("3 day(s) since 2026-02-24 are not cached (2026-02-25, 2026-03-02, 2026-03-03)"
               in n for n in day.notices)


def test_since_fetches_the_missing_days(store, monkeypatch, fake_arxiv):
    monkeypatch.setenv("PAPERTERM_TODAY", TODAY.isoformat())
    feeds = Path(__file__).parents[1] / "fixtures" / "feeds"
    fake_arxiv.route("/api/", Reply((feeds / "api-2026-02-25.xml").read_bytes()))
    fake_arxiv.route("/rss/", Reply((feeds / "rss-empty-2026-03-07.xml").read_bytes()))
    req = _req(since=date(2026, 3, 2))
    assert not loads_without_network(req, store)
    day = load_day(req, store)
    paths = sorted(r.path.split("?")[0].split("/")[1] for r in fake_arxiv.requests)
    assert paths == ["api", "rss"]  # Monday from the API, today from the RSS feed
    assert set(day.paper_days.values()) == {"2026-03-02"}
    assert loads_without_network(req, store)  # nothing is missing any more


@pytest.mark.parametrize("offline", [False, True])
def test_since_with_nothing_in_the_window_says_so_plainly(store, monkeypatch, fake_arxiv,
                                                          offline):
    """The week view with arXiv down said "…showing the most recent cached day, 2026-02-27"
    and "No cached papers since 2026-03-02" over an empty list: one contradicted the other."""
    monkeypatch.setenv("PAPERTERM_TODAY", TODAY.isoformat())
    fake_arxiv.route("/api/", Reply(status=503))
    fake_arxiv.route("/rss/", Reply(status=503))
    day = load_day(_req(since=date(2026, 3, 2), offline=offline), store)
    assert day.papers == []
    said = " ".join(day.notices)
    assert "showing" not in said, said
    assert ("No cached papers since 2026-03-02; the most recent cached day is 2026-02-27"
            in said), said
