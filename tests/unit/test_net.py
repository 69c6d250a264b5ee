"""Talking to (a local fake of) arXiv: one request, pacing, retries, timeouts, errors; the
arXiv API search and its paging; arXiv's calendar."""

from __future__ import annotations

import itertools
import threading
import time
from datetime import date
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from support.fakearxiv import Reply, closed_port

from paperterm.sources import arxiv_api, calendar, http
from paperterm.sources.feeds import parse_feed
from paperterm.sources.rss import fetch_rss

FEEDS = Path(__file__).parents[1] / "fixtures" / "feeds"
RSS = (FEEDS / "rss-2026-03-02.xml").read_bytes()
API = (FEEDS / "api-2026-02-25.xml").read_bytes()


def test_one_request_for_all_categories_with_our_user_agent(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(RSS))
    parsed = fetch_rss(["cs.LG", "cs.AI", "stat.ML"], timeout=5)
    assert len(fake_arxiv.requests) == 1
    assert fake_arxiv.requests[0].path == "/rss/cs.LG+cs.AI+stat.ML"
    assert fake_arxiv.requests[0].headers["user-agent"] == http.USER_AGENT
    assert http.USER_AGENT.startswith("paperterm/")
    assert parsed.papers == parse_feed(RSS).papers


def test_429_with_retry_after_is_retried(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(b"slow down", 429, {"Retry-After": "0"}), Reply(RSS))
    parsed = fetch_rss(["cs.LG"], timeout=5)
    assert len(fake_arxiv.requests) == 2
    assert len(parsed.papers) == 226


def test_retry_after_is_honoured(fake_arxiv, monkeypatch):
    slept: list[float] = []
    real_sleep = time.sleep
    monkeypatch.setattr(http.time, "sleep", lambda s: (slept.append(s), real_sleep(min(s, 0.01))))
    fake_arxiv.route("/rss/", Reply(b"busy", 503, {"Retry-After": "7"}), Reply(RSS))
    fetch_rss(["cs.LG"], timeout=5)
    assert 7.0 in slept
    assert http.backoff_seconds(0, "120") == 60.0  # capped
    assert 2.0 <= http.backoff_seconds(0, None) <= 3.0


def test_persistent_429_gives_up_with_a_message(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(b"no", 429, {"Retry-After": "0"}))
    with pytest.raises(http.NetworkError, match="429"):
        fetch_rss(["cs.LG"], timeout=5)
    assert len(fake_arxiv.requests) == http.RETRIES + 1


def test_server_error_is_not_retried(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(b"oops", 500))
    with pytest.raises(http.NetworkError, match="HTTP 500"):
        fetch_rss(["cs.LG"], timeout=5)
    assert len(fake_arxiv.requests) == 1


def test_html_answer_is_a_network_error(fake_arxiv):
    page = b"<!DOCTYPE html><html><head><title>Maintenance</title></head><body><p>x</body></html>"
    fake_arxiv.route("/rss/", Reply(page, headers={"Content-Type": "text/html"}))
    with pytest.raises(http.NetworkError, match="HTML"):
        fetch_rss(["cs.LG"], timeout=5)


@pytest.mark.parametrize(
    "reply",
    [
        Reply(raw=b"this is not HTTP at all\r\n\r\n"),
        Reply(raw=b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n<rss version='2.0'>"),
        Reply(raw=b""),
    ],
    ids=["garbage", "truncated", "closed"],
)
def test_broken_answers_are_network_errors(fake_arxiv, reply):
    fake_arxiv.route("/rss/", reply)
    with pytest.raises(http.NetworkError):
        fetch_rss(["cs.LG"], timeout=5)


def test_nothing_listening_is_a_network_error(monkeypatch):
    monkeypatch.setenv("PAPERTERM_RSS_URL", f"http://127.0.0.1:{closed_port()}/rss/{{cats}}")
    start = time.monotonic()
    with pytest.raises(http.NetworkError, match="unreachable"):
        fetch_rss(["cs.LG"], timeout=60)
    assert time.monotonic() - start < 10  # refused at once, not at the 60 s deadline


# (the bounds below are 10 s against a server that would take 40 s or more: the deadline
# holds, and a loaded machine's slow thread wake-up is not taken for a missed deadline)
def test_slow_server_times_out_quickly(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(RSS, delay=60))
    start = time.monotonic()
    with pytest.raises(http.NetworkError):
        fetch_rss(["cs.LG"], timeout=0.3)
    assert time.monotonic() - start < 10


def test_trickling_server_is_bounded_by_the_timeout(fake_arxiv):
    # each piece arrives well within the socket timeout, but the whole answer would take ages
    fake_arxiv.route("/rss/", Reply(RSS, trickle=0.05))
    start = time.monotonic()
    with pytest.raises(http.NetworkError):
        fetch_rss(["cs.LG"], timeout=0.5)
    assert time.monotonic() - start < 10


def test_pacer_enforces_the_minimum_interval(fake_arxiv, monkeypatch):
    monkeypatch.setattr(http.pacer, "interval", 0.4)
    fake_arxiv.route("/rss/", Reply(RSS))
    fetch_rss(["cs.LG"], timeout=5)
    fetch_rss(["cs.LG"], timeout=5)
    first, second = fake_arxiv.requests
    assert second.at - first.at >= 0.4


def test_pacer_measures_from_the_end_of_the_previous_call():
    pacer = http.Pacer(0.2)
    stamps: list[float] = []
    for _ in range(3):
        pacer.run(lambda: stamps.append(time.monotonic()))
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    assert all(gap >= 0.2 for gap in gaps)
    assert all(gap < 1.0 for gap in gaps)


def test_default_interval_is_arxivs_three_seconds():
    assert http.MIN_INTERVAL >= 3.0


def _query_of(path: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(path).query)


def test_api_search_through_the_fixture(fake_arxiv):
    fake_arxiv.route("/api/", Reply(API))
    papers = arxiv_api.search("mixture of experts", 50, timeout=5)
    assert len(fake_arxiv.requests) == 1
    seen = fake_arxiv.requests[0]
    assert seen.headers["user-agent"] == http.USER_AGENT  # ours, as on the RSS feed
    query = _query_of(seen.path)
    assert query["search_query"] == ["mixture of experts"]
    assert query["max_results"] == ["50"]
    expected = parse_feed(API).papers
    assert [p.id for p in papers] == [p.id for p in expected]
    for got, want in zip(papers, expected, strict=True):
        assert got == want, got.id


def test_api_errors_are_network_errors(fake_arxiv, monkeypatch):
    fake_arxiv.route("/api/", Reply(b"no", 500))
    with pytest.raises(http.NetworkError, match="500"):
        arxiv_api.search("x", 10, timeout=5)
    monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", f"http://127.0.0.1:{closed_port()}/q?{{}}")
    with pytest.raises(http.NetworkError, match="unreachable"):
        arxiv_api.search("x", 10, timeout=5)


def test_api_unreadable_answer_is_a_network_error(fake_arxiv):
    broken = API[: len(API) // 2]  # cut in the middle of an entry
    fake_arxiv.route("/api/", Reply(broken))
    with pytest.raises(http.NetworkError, match="unreadable"):
        arxiv_api.search("x", 10, timeout=5)


def test_api_timeout(fake_arxiv):
    fake_arxiv.route("/api/", Reply(API, delay=60))
    start = time.monotonic()
    with pytest.raises(http.NetworkError):
        arxiv_api.search("x", 10, timeout=0.3)
    assert time.monotonic() - start < 10


def test_submission_window_query():
    q = arxiv_api.submission_window_query(date(2026, 2, 25), ["cs.LG", "cs.AI"])  # a Wednesday
    assert q == "(cat:cs.LG OR cat:cs.AI) AND submittedDate:[202602231900 TO 202602241900]"
    monday = arxiv_api.submission_window_query(date(2026, 3, 2), ["cs.LG"])  # spans the weekend
    assert "submittedDate:[202602261900 TO 202602271900]" in monday


def test_eastern_today_override(monkeypatch):
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-07")
    assert calendar.eastern_today() == date(2026, 3, 7)


def test_trickling_api_server_is_bounded_by_the_timeout(fake_arxiv):
    # each piece arrives well within the socket timeout: the total deadline is ours
    api = (Path(__file__).parents[1] / "fixtures" / "feeds" / "api-2026-02-25.xml").read_bytes()
    fake_arxiv.route("/api/", Reply(api, trickle=0.05))
    start = time.monotonic()
    with pytest.raises(http.NetworkError, match="did not finish"):
        arxiv_api.search("cat:cs.LG", 5, timeout=0.5)
    assert time.monotonic() - start < 10  # (the whole answer would take 42 s)


def test_api_search_within_the_deadline_returns_papers(fake_arxiv):
    api = (Path(__file__).parents[1] / "fixtures" / "feeds" / "api-2026-02-25.xml").read_bytes()
    fake_arxiv.route("/api/", Reply(api))
    papers = arxiv_api.search("cat:cs.LG", 5, timeout=5)
    assert len(papers) == 5 and all(p.title for p in papers)


def test_busy_api_is_retried_like_the_rss_feed(fake_arxiv, monkeypatch):
    monkeypatch.setattr(http, "backoff_seconds", lambda attempt, retry_after: 0.01)
    api = (Path(__file__).parents[1] / "fixtures" / "feeds" / "api-2026-02-25.xml").read_bytes()
    fake_arxiv.route("/api/", Reply(b"busy", 503), Reply(api))
    papers = arxiv_api.search("cat:cs.LG", 5, timeout=5)
    assert len(fake_arxiv.requests) == 2 and len(papers) == 5


# -- the arXiv API: paging -------------------------------------------------------------------


def _api_page(first: int, count: int, total: int) -> bytes:
    """An arXiv API answer with `count` made-up papers numbered from `first` (with the
    <updated> every real answer has: the arxiv package skips entries without one)."""
    entries = "".join(
        f"<entry><id>http://arxiv.org/abs/2603.{n:05d}v1</id><title>Paper {n}</title>"
        f"<summary>Abstract {n}.</summary><published>2026-03-01T00:00:00Z</published>"
        f"<updated>2026-03-01T00:00:00Z</updated>"
        f"<author><name>Author {n}</name></author><category term='cs.LG'/>"
        f"<arxiv:primary_category term='cs.LG'/></entry>"
        for n in range(first, first + count)
    )
    return (
        "<?xml version='1.0' encoding='UTF-8'?><feed xmlns='http://www.w3.org/2005/Atom' "
        "xmlns:arxiv='http://arxiv.org/schemas/atom' "
        "xmlns:opensearch='http://a9.com/-/spec/opensearch/1.1/'><title>arXiv Query</title>"
        f"<opensearch:totalResults>{total}</opensearch:totalResults>{entries}</feed>"
    ).encode()


def test_api_search_pages_through_a_large_result(fake_arxiv):
    fake_arxiv.route("/api/", Reply(_api_page(1, 200, 300)), Reply(_api_page(201, 100, 300)))
    papers = arxiv_api.search("cat:cs.LG", 250, timeout=5)
    assert [p.id for p in papers] == [f"2603.{n:05d}" for n in range(1, 251)]
    queries = [_query_of(r.path) for r in fake_arxiv.requests]
    assert [(q["start"], q["max_results"]) for q in queries] == [(["0"], ["200"]),
                                                                 (["200"], ["200"])]
    assert all(q["sortBy"] == ["submittedDate"] for q in queries)


def test_api_pages_are_paced(fake_arxiv, monkeypatch):
    monkeypatch.setattr(http.pacer, "interval", 0.3)
    fake_arxiv.route("/api/", Reply(_api_page(1, 200, 400)), Reply(_api_page(201, 200, 400)))
    assert len(arxiv_api.search("cat:cs.LG", 400, timeout=5)) == 400
    first, second = fake_arxiv.requests
    assert second.at - first.at >= 0.3


def test_api_search_stops_at_the_reported_total(fake_arxiv):
    fake_arxiv.route("/api/", Reply(_api_page(1, 200, 210)), Reply(_api_page(201, 10, 210)),
                     Reply(b"asked once too often", 500))
    assert len(arxiv_api.search("cat:cs.LG", 1000, timeout=5)) == 210
    assert len(fake_arxiv.requests) == 2


def test_api_empty_later_page_keeps_what_came_before(fake_arxiv):
    # arXiv sometimes answers a page with nothing although it reported more
    fake_arxiv.route("/api/", Reply(_api_page(1, 200, 500)), Reply(_api_page(1, 0, 500)))
    papers = arxiv_api.search("cat:cs.LG", 500, timeout=5)
    assert len(papers) == 200 and len(fake_arxiv.requests) == 2


def test_busy_api_page_is_asked_again_not_the_whole_search(fake_arxiv, monkeypatch):
    monkeypatch.setattr(http, "backoff_seconds", lambda attempt, retry_after: 0.01)
    fake_arxiv.route("/api/", Reply(_api_page(1, 200, 400)), Reply(b"busy", 503),
                     Reply(_api_page(201, 200, 400)))
    papers = arxiv_api.search("cat:cs.LG", 400, timeout=5)
    assert [p.id for p in papers] == [f"2603.{n:05d}" for n in range(1, 401)]
    assert [_query_of(r.path)["start"] for r in fake_arxiv.requests] == [["0"], ["200"], ["200"]]


def test_api_search_past_its_deadline_asks_for_no_further_page(fake_arxiv):
    # the first page arrives after the deadline: the search has given up by then, and the
    # request still under way must not go on to ask for the second page
    fake_arxiv.route("/api/", Reply(_api_page(1, 200, 400), delay=0.8),
                     Reply(_api_page(201, 200, 400)))
    with pytest.raises(http.NetworkError, match="did not finish answering within"):
        arxiv_api.search("cat:cs.LG", 400, timeout=0.2)
    deadline = time.monotonic() + 10
    while _search_threads() and time.monotonic() < deadline:
        time.sleep(0.02)  # until the abandoned request has its answer and stops
    assert not _search_threads()
    assert len(fake_arxiv.requests) == 1


def _search_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == f"paperterm {arxiv_api.WHAT}"]


def test_api_url_override_keeps_the_query(fake_arxiv, monkeypatch):
    monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", f"{fake_arxiv.base}/mirror/search?{{}}&x=1")
    fake_arxiv.route("/mirror/", Reply(API))
    assert len(arxiv_api.search("ti:experts", 5, timeout=5)) == 5
    (seen,) = fake_arxiv.requests
    assert seen.path.startswith("/mirror/search?")
    assert _query_of(seen.path)["search_query"] == ["ti:experts"]
    assert _query_of(seen.path)["x"] == ["1"]


# -- arXiv's calendar ------------------------------------------------------------------------

MONDAY, WEDNESDAY, SATURDAY, SUNDAY = (date(2026, 3, 2), date(2026, 3, 4), date(2026, 3, 7),
                                       date(2026, 3, 8))


def test_weekends_and_the_reason_for_an_empty_feed():
    assert [calendar.is_weekend(d) for d in (MONDAY, WEDNESDAY, SATURDAY, SUNDAY)] == [
        False, False, True, True]
    assert calendar.no_announcement_reason(SUNDAY) == calendar.WEEKEND
    assert calendar.no_announcement_reason(WEDNESDAY) == calendar.HOLIDAY


def test_an_empty_answer_is_final_on_weekends_and_for_an_hour_on_weekdays():
    fetched = 1_000_000.0
    assert calendar.empty_answer_is_final(WEDNESDAY, fetched, now=fetched + 60)
    assert not calendar.empty_answer_is_final(WEDNESDAY, fetched, now=fetched + 3601)
    assert calendar.empty_answer_is_final(SATURDAY, fetched, now=fetched + 86_400)


def test_the_announced_day_is_the_feeds_own_when_it_says():
    assert calendar.announced_day(MONDAY, WEDNESDAY) == MONDAY
    assert calendar.announced_day(None, WEDNESDAY) == WEDNESDAY


def test_submission_window_skips_weekends():
    assert calendar.submission_window(WEDNESDAY) == (date(2026, 3, 2), date(2026, 3, 3))
    assert calendar.submission_window(MONDAY) == (date(2026, 2, 26), date(2026, 2, 27))
    assert calendar.submission_window(date(2026, 3, 3)) == (date(2026, 2, 27), MONDAY)


def test_eastern_today_without_override_is_near_utc_today():
    from datetime import datetime, timedelta, timezone

    utc = datetime.now(timezone.utc).date()
    assert utc - timedelta(days=1) <= calendar.eastern_today() <= utc
