"""Where a day comes from: RSS, cache, API, file or the bundled sample (never a blank screen)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from support.fakearxiv import Reply, closed_port

from paperterm.sources import calendar, http
from paperterm.sources.calendar import WEEKEND
from paperterm.sources.feeds import parse_feed
from paperterm.sources.loader import LoadError, LoadRequest, load_day, sample_bytes

FEEDS = Path(__file__).parents[1] / "fixtures" / "feeds"
RSS = (FEEDS / "rss-2026-03-02.xml").read_bytes()
EMPTY = (FEEDS / "rss-empty-2026-03-07.xml").read_bytes()
API = (FEEDS / "api-2026-02-25.xml").read_bytes()
CATS = ["cs.LG", "cs.AI"]
MONDAY, SATURDAY = date(2026, 3, 2), date(2026, 3, 7)
SAMPLE_DAY = date(2026, 2, 25)


def _req(**kw) -> LoadRequest:
    kw.setdefault("timeout", 5.0)
    return LoadRequest(categories=list(CATS), announce_types=["new", "cross"], **kw)


def _today(monkeypatch, day: date) -> None:
    monkeypatch.setenv("PAPERTERM_TODAY", day.isoformat())


def _no_network(fake) -> Callable[[], list[str]]:
    """From now on the fake arXiv answers RSS and API requests properly (a request would be
    noticed, and would change the outcome); returns what was requested since."""
    fake.route("/rss/", Reply(RSS))
    fake.route("/api/", Reply(API))
    start = len(fake.requests)
    return lambda: [r.path for r in fake.requests[start:]]


def _one_line(notices: list[str]) -> None:
    assert notices
    assert all("\n" not in n for n in notices)


def test_today_one_request_then_cache(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    day = load_day(_req(), store)
    assert day.source == "rss"
    assert day.day == MONDAY and day.label == "2026-03-02"
    assert len(day.papers) == 226
    assert day.papers == parse_feed(RSS).papers
    assert [r.path for r in fake_arxiv.requests] == ["/rss/cs.LG+cs.AI"]
    assert fake_arxiv.requests[0].headers["user-agent"] == http.USER_AGENT

    again = load_day(_req(), store)
    assert len(fake_arxiv.requests) == 1  # no second request on the same day
    assert again.source == "cache"
    assert "cached" in again.flags
    assert again.papers == day.papers


def test_cache_is_shared_across_category_order(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    load_day(_req(), store)
    req = LoadRequest(categories=["cs.AI", "cs.LG"], announce_types=["new", "cross"])
    assert load_day(req, store).source == "cache"
    assert len(fake_arxiv.requests) == 1


def test_announce_types_filter_with_notice(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    req = LoadRequest(categories=list(CATS), announce_types=["new"], timeout=5)
    day = load_day(req, store)
    everything = parse_feed(RSS).papers
    assert day.papers == [p for p in everything if p.announce_type == "new"]
    hidden = len(everything) - len(day.papers)
    assert hidden > 0
    assert any(f"{hidden} announcement" in n for n in day.notices)


def test_saturday_shows_the_latest_cached_day(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    monday = load_day(_req(), store)
    _today(monkeypatch, SATURDAY)
    fake_arxiv.route("/rss/", Reply(EMPTY))
    day = load_day(_req(), store)
    assert len(fake_arxiv.requests) == 2
    assert day.source == "cache"
    assert day.day == MONDAY
    assert day.papers == monday.papers
    _one_line(day.notices)
    assert any(WEEKEND in n and "2026-03-02" in n for n in day.notices)
    assert "arXiv does not announce on Saturdays and Sundays" in " ".join(day.notices)
    # later that Saturday: no new request, same explanation
    later = load_day(_req(), store)
    assert len(fake_arxiv.requests) == 2
    assert later.day == MONDAY
    assert any(WEEKEND in n for n in later.notices)


def test_saturday_without_cache_shows_the_sample(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, SATURDAY)
    fake_arxiv.route("/rss/", Reply(EMPTY))
    day = load_day(_req(), store)
    assert day.source == "sample" and "sample" in day.flags
    assert day.day == SAMPLE_DAY
    assert day.papers
    _one_line(day.notices)
    text = " ".join(day.notices)
    assert "arXiv does not announce on Saturdays and Sundays" in text
    assert "sample" in text


def test_weekday_without_announcement_explains(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, date(2026, 3, 4))  # a Wednesday with an empty feed
    fake_arxiv.route("/rss/", Reply(EMPTY))
    day = load_day(_req(), store)
    assert day.papers and day.source == "sample"
    assert any("no announcement" in n for n in day.notices)


def test_empty_weekday_feed_is_asked_again_after_an_hour(fake_arxiv, store, monkeypatch):
    wednesday = date(2026, 3, 4)
    _today(monkeypatch, wednesday)
    fake_arxiv.route("/rss/", Reply(EMPTY))
    load_day(_req(), store)
    load_day(_req(), store)  # minutes later: no second request
    assert len(fake_arxiv.requests) == 1
    # an hour later arXiv has announced (late): the empty answer is not final
    monkeypatch.setattr(calendar, "EMPTY_RETRY_SECONDS", 0)
    fake_arxiv.route("/rss/", Reply(RSS))
    day = load_day(_req(), store)
    assert len(fake_arxiv.requests) == 2
    assert day.source == "rss" and len(day.papers) > 100


def test_saved_feed_file_fills_the_cache_for_date(fake_arxiv, store, tmp_path):
    calls = _no_network(fake_arxiv)
    saved = tmp_path / "saved.xml"
    saved.write_bytes(RSS)  # rss.arxiv.org/rss/cs.LG+cs.AI of 2026-03-02, saved by the user
    loaded = load_day(_req(feed=saved), store)
    day = load_day(_req(date=MONDAY), store)
    assert calls() == []
    assert day.source == "cache" and not day.approximate
    assert [p.id for p in day.papers] == [p.id for p in loaded.papers]


def test_network_down_falls_back_to_cache(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    monday = load_day(_req(), store)
    _today(monkeypatch, date(2026, 3, 3))
    monkeypatch.setenv("PAPERTERM_RSS_URL", f"http://127.0.0.1:{closed_port()}/rss/{{cats}}")
    day = load_day(_req(), store)
    assert day.source == "cache" and day.day == MONDAY
    assert day.papers == monday.papers
    _one_line(day.notices)
    assert len(day.notices) == 1
    assert "unreachable" in day.notices[0] and "2026-03-02" in day.notices[0]


def test_network_down_without_cache_falls_back_to_sample(store, monkeypatch):
    _today(monkeypatch, MONDAY)  # PAPERTERM_RSS_URL points at a closed port (conftest)
    start = time.monotonic()
    day = load_day(_req(), store)
    assert time.monotonic() - start < 10  # refused at once, not at arXiv's 20 s deadline
    assert day.source == "sample"
    assert day.papers == parse_feed(sample_bytes()).papers
    assert len(day.notices) == 1
    _one_line(day.notices)
    assert "unreachable" in day.notices[0] and "sample" in day.notices[0]
    # a failed fetch is not remembered as "fetched today"
    assert store.papers.fetch_record("cs.AI+cs.LG", MONDAY) is None


def test_server_answering_garbage_falls_back(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(raw=b"NOT HTTP\r\n\r\n"))
    day = load_day(_req(), store)
    assert day.source == "sample"
    _one_line(day.notices)


def test_html_error_page_falls_back(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(b"<html><body>We are down</body></html>"))
    day = load_day(_req(), store)
    assert day.source == "sample"
    assert any("HTML" in n for n in day.notices)


def test_429_then_200_loads_today(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(b"", 429, {"Retry-After": "0"}), Reply(RSS))
    day = load_day(_req(), store)
    assert day.source == "rss" and len(day.papers) == 226
    assert len(fake_arxiv.requests) == 2


def test_slow_server_falls_back_quickly(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS, delay=60))
    start = time.monotonic()
    day = load_day(_req(timeout=0.3), store)
    assert time.monotonic() - start < 10
    assert day.source == "sample"
    _one_line(day.notices)


def test_offline_never_touches_the_network(fake_arxiv, store, monkeypatch):
    calls = _no_network(fake_arxiv)
    _today(monkeypatch, MONDAY)
    day = load_day(_req(offline=True), store)
    assert day.source == "sample"
    assert any(n.endswith("not today's papers: offline.") for n in day.notices)
    assert load_day(_req(offline=True, query="moe"), store).source == "query"  # the cache
    assert load_day(_req(offline=True, date=date(2026, 2, 24)), store).source == "sample"
    assert calls() == []


def test_offline_uses_the_cache(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    load_day(_req(), store)
    calls = _no_network(fake_arxiv)
    _today(monkeypatch, date(2026, 3, 3))
    day = load_day(_req(offline=True), store)
    assert day.source == "cache" and day.day == MONDAY
    assert calls() == []


def test_date_from_the_cache(fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    monday = load_day(_req(), store)
    _today(monkeypatch, date(2026, 3, 5))
    calls = _no_network(fake_arxiv)
    day = load_day(_req(date=MONDAY), store)
    assert calls() == []
    assert day.source == "cache" and not day.approximate
    assert day.papers == monday.papers


def test_date_not_cached_uses_the_api(fake_arxiv, store):
    fake_arxiv.route("/api/", Reply(API))
    day = load_day(_req(date=SAMPLE_DAY), store)
    assert len(fake_arxiv.requests) == 1
    seen = fake_arxiv.requests[0]
    assert seen.headers["user-agent"] == http.USER_AGENT
    query = parse_qs(urlsplit(seen.path).query)["search_query"][0]
    assert "submittedDate:[" in query
    assert "cat:cs.LG" in query and "cat:cs.AI" in query
    assert day.source == "api" and day.approximate and "approximate" in day.flags
    assert day.day == SAMPLE_DAY
    assert any("approximat" in n for n in day.notices)
    expected = {p.id: p for p in parse_feed(API).papers}
    assert [p.id for p in day.papers] == list(expected)
    assert {p.id: p.announce_type for p in day.papers}["2602.20646"] == "cross"  # math.OC
    assert {p.id: p.announce_type for p in day.papers}["2602.20175"] == "new"
    # now it is cached (and still marked approximate)
    again = load_day(_req(date=SAMPLE_DAY), store)
    assert len(fake_arxiv.requests) == 1
    assert again.source == "cache" and again.approximate
    assert again.papers == day.papers


def test_date_api_empty_answer_explains(fake_arxiv, store):
    empty = API.split(b"<entry>")[0].replace(b"<opensearch:totalResults>5",
                                              b"<opensearch:totalResults>0") + b"</feed>"
    fake_arxiv.route("/api/", Reply(empty))
    day = load_day(_req(date=date(2026, 2, 24)), store)
    assert day.papers == []
    assert any("no papers" in n for n in day.notices)


def test_date_on_a_weekend_needs_no_request(fake_arxiv, store):
    calls = _no_network(fake_arxiv)
    day = load_day(_req(date=SATURDAY), store)
    assert calls() == []
    assert day.papers == []
    assert any(WEEKEND in n and "Saturday" in n for n in day.notices)


def test_date_with_the_api_down_falls_back(store):
    day = load_day(_req(date=SAMPLE_DAY), store)  # API URL points at a closed port
    assert day.source == "sample"
    _one_line(day.notices)


def test_query_through_the_api(fake_arxiv, store):
    fake_arxiv.route("/api/", Reply(API))
    day = load_day(_req(query="mixture of experts", max_results=30), store)
    assert day.source == "query" and day.label == "query: mixture of experts"
    query = parse_qs(urlsplit(fake_arxiv.requests[0].path).query)
    assert query["search_query"] == ["mixture of experts"]
    assert query["max_results"] == ["30"]
    assert [p.id for p in day.papers] == [p.id for p in parse_feed(API).papers]
    assert day.notices == []


def test_feed_file(store, tmp_path):
    day = load_day(_req(feed=FEEDS / "rss-edge-cases.xml"), store)
    assert day.source == "feed" and day.day == date(2026, 3, 3)
    assert {p.id for p in day.papers} == {"2603.00001", "2603.00002"}  # new/cross only
    text = " ".join(day.notices)
    assert "2 item(s) could not be read" in text
    assert "2 announcement(s) of other types hidden" in text


def test_feed_file_malformed_names_the_file(store, tmp_path):
    bad = tmp_path / "broken-feed.xml"
    bad.write_bytes(RSS[: len(RSS) // 2])
    with pytest.raises(LoadError) as info:
        load_day(_req(feed=bad), store)
    assert str(bad) in str(info.value)
    with pytest.raises(LoadError) as info:
        load_day(_req(feed=tmp_path / "missing.xml"), store)
    assert "missing.xml" in str(info.value)


def test_sample_request(store):
    day = load_day(_req(sample=True), store)
    assert day.source == "sample" and day.day == SAMPLE_DAY
    assert len(day.papers) == 244
    assert day.notices == [] and "sample" in day.flags  # asked for: no warning


# -- never a stale day (issue 10, item 5) ----------------------------------------------------

TUESDAY = date(2026, 3, 3)


def test_an_older_announcement_cached_today_is_refetched_politely_and_named(
        fake_arxiv, store, monkeypatch):
    _today(monkeypatch, TUESDAY)  # the feed still holds Monday's announcement
    fake_arxiv.route("/rss/", Reply(RSS))
    first = load_day(_req(), store)
    assert first.day == MONDAY
    assert any("this is the 03-02 announcement" in n for n in first.notices)
    again = load_day(_req(), store)  # a minute later: polite, no new request
    assert len(fake_arxiv.requests) == 1 and again.source == "cache"
    assert any("this is the 03-02 announcement" in n for n in again.notices)
    monkeypatch.setattr(calendar, "STALE_RETRY_SECONDS", 0)  # half an hour later
    later = load_day(_req(), store)
    assert len(fake_arxiv.requests) == 2 and later.source == "rss"


def test_refresh_fetches_again_and_a_failed_refetch_keeps_the_cached_day(
        fake_arxiv, store, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    load_day(_req(), store)
    assert load_day(_req(), store).source == "cache" and len(fake_arxiv.requests) == 1
    assert load_day(_req(refresh=True), store).source == "rss"
    assert len(fake_arxiv.requests) == 2
    fake_arxiv.route("/rss/", Reply(b"busy", status=500))
    monkeypatch.setattr(http, "RETRY_DELAYS", (0.0,), raising=False)
    kept = load_day(_req(refresh=True, timeout=2.0), store)
    assert kept.day == MONDAY and len(kept.papers) == 226


def test_refresh_flag_reaches_the_loader(cli, fake_arxiv, monkeypatch):
    _today(monkeypatch, MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    assert cli("score", "--json").returncode == 0
    assert cli("score", "--json").returncode == 0
    assert len(fake_arxiv.requests) == 1
    assert cli("score", "--json", "--refresh").returncode == 0
    assert len(fake_arxiv.requests) == 2
