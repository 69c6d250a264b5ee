"""Talking to (a local fake of) arXiv: one request, pacing, retries, timeouts, errors."""

from __future__ import annotations

import itertools
import time
from datetime import date
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from conftest import Reply, closed_port

from paperterm import net
from paperterm.feeds import parse_feed

FEEDS = Path(__file__).parent / "fixtures" / "feeds"
RSS = (FEEDS / "rss-2026-03-02.xml").read_bytes()
API = (FEEDS / "api-2026-02-25.xml").read_bytes()


def test_one_request_for_all_categories_with_our_user_agent(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(RSS))
    parsed = net.fetch_rss(["cs.LG", "cs.AI", "stat.ML"], timeout=5)
    assert len(fake_arxiv.requests) == 1
    assert fake_arxiv.requests[0].path == "/rss/cs.LG+cs.AI+stat.ML"
    assert fake_arxiv.requests[0].headers["user-agent"] == net.USER_AGENT
    assert net.USER_AGENT.startswith("paperterm/")
    assert parsed.papers == parse_feed(RSS).papers


def test_429_with_retry_after_is_retried(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(b"slow down", 429, {"Retry-After": "0"}), Reply(RSS))
    parsed = net.fetch_rss(["cs.LG"], timeout=5)
    assert len(fake_arxiv.requests) == 2
    assert len(parsed.papers) == 226


def test_retry_after_is_honoured(fake_arxiv, monkeypatch):
    slept: list[float] = []
    real_sleep = time.sleep
    monkeypatch.setattr(net.time, "sleep", lambda s: (slept.append(s), real_sleep(min(s, 0.01))))
    fake_arxiv.route("/rss/", Reply(b"busy", 503, {"Retry-After": "7"}), Reply(RSS))
    net.fetch_rss(["cs.LG"], timeout=5)
    assert 7.0 in slept
    assert net._backoff(0, "120") == 60.0  # capped
    assert 2.0 <= net._backoff(0, None) <= 3.0


def test_persistent_429_gives_up_with_a_message(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(b"no", 429, {"Retry-After": "0"}))
    with pytest.raises(net.NetworkError, match="429"):
        net.fetch_rss(["cs.LG"], timeout=5)
    assert len(fake_arxiv.requests) == net.RETRIES + 1


def test_server_error_is_not_retried(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(b"oops", 500))
    with pytest.raises(net.NetworkError, match="HTTP 500"):
        net.fetch_rss(["cs.LG"], timeout=5)
    assert len(fake_arxiv.requests) == 1


def test_html_answer_is_a_network_error(fake_arxiv):
    page = b"<!DOCTYPE html><html><head><title>Maintenance</title></head><body><p>x</body></html>"
    fake_arxiv.route("/rss/", Reply(page, headers={"Content-Type": "text/html"}))
    with pytest.raises(net.NetworkError, match="HTML"):
        net.fetch_rss(["cs.LG"], timeout=5)


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
    with pytest.raises(net.NetworkError):
        net.fetch_rss(["cs.LG"], timeout=5)


def test_nothing_listening_is_a_network_error(monkeypatch):
    monkeypatch.setenv("PAPERTERM_RSS_URL", f"http://127.0.0.1:{closed_port()}/rss/{{cats}}")
    start = time.monotonic()
    with pytest.raises(net.NetworkError, match="unreachable"):
        net.fetch_rss(["cs.LG"], timeout=5)
    assert time.monotonic() - start < 2


def test_slow_server_times_out_quickly(fake_arxiv):
    fake_arxiv.route("/rss/", Reply(RSS, delay=10))
    start = time.monotonic()
    with pytest.raises(net.NetworkError):
        net.fetch_rss(["cs.LG"], timeout=0.3)
    assert time.monotonic() - start < 2


def test_trickling_server_is_bounded_by_the_timeout(fake_arxiv):
    # each piece arrives well within the socket timeout, but the whole answer would take ages
    fake_arxiv.route("/rss/", Reply(RSS, trickle=0.05))
    start = time.monotonic()
    with pytest.raises(net.NetworkError):
        net.fetch_rss(["cs.LG"], timeout=0.5)
    assert time.monotonic() - start < 2


def test_pacer_enforces_the_minimum_interval(fake_arxiv, monkeypatch):
    monkeypatch.setattr(net._pacer, "interval", 0.4)
    fake_arxiv.route("/rss/", Reply(RSS))
    net.fetch_rss(["cs.LG"], timeout=5)
    net.fetch_rss(["cs.LG"], timeout=5)
    first, second = fake_arxiv.requests
    assert second.at - first.at >= 0.4


def test_pacer_measures_from_the_end_of_the_previous_call():
    pacer = net._Pacer(0.2)
    stamps: list[float] = []
    for _ in range(3):
        pacer.run(lambda: stamps.append(time.monotonic()))
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    assert all(gap >= 0.2 for gap in gaps)
    assert all(gap < 1.0 for gap in gaps)


def test_default_interval_is_arxivs_three_seconds():
    assert net.MIN_INTERVAL >= 3.0


def _query_of(path: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(path).query)


def test_api_search_through_the_fixture(fake_arxiv):
    fake_arxiv.route("/api/", Reply(API))
    papers = net.api_search("mixture of experts", 50, timeout=5)
    assert len(fake_arxiv.requests) == 1
    seen = fake_arxiv.requests[0]
    assert seen.headers["user-agent"] == net.USER_AGENT
    query = _query_of(seen.path)
    assert query["search_query"] == ["mixture of experts"]
    assert query["max_results"] == ["50"]
    expected = parse_feed(API).papers
    assert [p.id for p in papers] == [p.id for p in expected]
    for got, want in zip(papers, expected, strict=True):
        assert got == want, got.id


def test_api_errors_are_network_errors(fake_arxiv, monkeypatch):
    fake_arxiv.route("/api/", Reply(b"no", 500))
    with pytest.raises(net.NetworkError, match="500"):
        net.api_search("x", 10, timeout=5)
    monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", f"http://127.0.0.1:{closed_port()}/q?{{}}")
    with pytest.raises(net.NetworkError, match="unreachable"):
        net.api_search("x", 10, timeout=5)


def test_api_unreadable_answer_is_a_network_error(fake_arxiv):
    broken = API.replace(b"<published>2026-02-23T20:31:44Z</published>",
                         b"<published>last tuesday</published>", 1)
    fake_arxiv.route("/api/", Reply(broken))
    with pytest.raises(net.NetworkError, match="unreadable"):
        net.api_search("x", 10, timeout=5)


def test_api_timeout(fake_arxiv):
    fake_arxiv.route("/api/", Reply(API, delay=10))
    start = time.monotonic()
    with pytest.raises(net.NetworkError):
        net.api_search("x", 10, timeout=0.3)
    assert time.monotonic() - start < 2


def test_submission_window_query():
    q = net.submission_window_query(date(2026, 2, 25), ["cs.LG", "cs.AI"])  # a Wednesday
    assert q == "(cat:cs.LG OR cat:cs.AI) AND submittedDate:[202602231900 TO 202602241900]"
    monday = net.submission_window_query(date(2026, 3, 2), ["cs.LG"])  # spans the weekend
    assert "submittedDate:[202602261900 TO 202602271900]" in monday


def test_eastern_today_override(monkeypatch):
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-07")
    assert net.eastern_today() == date(2026, 3, 7)


def test_trickling_api_server_is_bounded_by_the_timeout(fake_arxiv):
    # the arxiv package (requests) only bounds each read: the total deadline is ours
    api = (Path(__file__).parent / "fixtures" / "feeds" / "api-2026-02-25.xml").read_bytes()
    fake_arxiv.route("/api/", Reply(api, trickle=0.05))
    start = time.monotonic()
    with pytest.raises(net.NetworkError, match="did not finish"):
        net.api_search("cat:cs.LG", 5, timeout=0.5)
    assert time.monotonic() - start < 3


def test_api_search_within_the_deadline_returns_papers(fake_arxiv):
    api = (Path(__file__).parent / "fixtures" / "feeds" / "api-2026-02-25.xml").read_bytes()
    fake_arxiv.route("/api/", Reply(api))
    papers = net.api_search("cat:cs.LG", 5, timeout=5)
    assert len(papers) == 5 and all(p.title for p in papers)


def test_busy_api_is_retried_like_the_rss_feed(fake_arxiv, monkeypatch):
    monkeypatch.setattr(net, "_backoff", lambda attempt, retry_after: 0.01)
    api = (Path(__file__).parent / "fixtures" / "feeds" / "api-2026-02-25.xml").read_bytes()
    fake_arxiv.route("/api/", Reply(b"busy", 503), Reply(api))
    papers = net.api_search("cat:cs.LG", 5, timeout=5)
    assert len(fake_arxiv.requests) == 2 and len(papers) == 5
