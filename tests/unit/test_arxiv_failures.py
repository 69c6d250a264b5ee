"""Issue 21 items 3 and 7, headless: an arXiv API error entry for `--date` is an error, not an
empty day with exit 0; `--query` against an HTML page (or an unreachable arXiv) says so and
searches the cache instead, as `--offline` does. The local fake arXiv, a real store."""

from __future__ import annotations

import json
from datetime import date

from support.fakearxiv import Reply
from unit.test_feed_errors_and_markup import API_ERROR

from paperterm.cli.errors import EXIT_INSTEAD
from paperterm.models import Paper
from paperterm.store import Store

HTML = b"<!DOCTYPE html><html><body><h1>Down for maintenance</h1></body></html>"


def _ids(jsonl: str) -> list[str]:
    return [json.loads(line)["id"] for line in jsonl.splitlines() if line.strip()]


def _cache_a_day(db) -> None:
    store = Store.open(db)
    try:
        store.papers.save_day("cs.AI+cs.LG", date(2026, 2, 24), [
            Paper("2602.00024", 1, "Sparse mixture of experts routing", ("A. Author",),
                  "We route tokens to experts.", ("cs.LG",), "cs.LG"),
            Paper("2602.00025", 1, "Graph kernels", ("B. Author",), "Kernels on graphs.",
                  ("cs.LG",), "cs.LG")], source="rss")
    finally:
        store.close()


def test_an_api_error_entry_for_date_is_an_error_not_an_empty_day(cli, fake_arxiv):
    fake_arxiv.route("/api/", Reply(API_ERROR))
    r = cli("score", "--date", "2026-02-24", "--scorer", "local", "--json")
    assert r.returncode == EXIT_INSTEAD, r.stderr
    assert "incorrect id format" in r.stderr and "Traceback" not in r.stderr
    assert "--date 2026-02-24 could not be loaded" in r.stderr


def test_query_against_an_html_page_says_so_and_searches_the_cache(
        cli, fake_arxiv, isolated_home):
    _cache_a_day(isolated_home.db)
    fake_arxiv.route("/api/", Reply(HTML, headers={"Content-Type": "text/html"}))
    r = cli("score", "--query", "mixture of experts", "--scorer", "local", "--json")
    assert r.returncode == EXIT_INSTEAD, r.stderr
    assert "HTML page" in r.stderr
    assert "the cache was searched, not arXiv" in r.stderr
    assert _ids(r.stdout) == ["2602.00024"]  # the cached match, not a sample day


def test_query_with_arxiv_unreachable_searches_the_cache(cli, isolated_home):
    _cache_a_day(isolated_home.db)  # the isolated home's arXiv is a refusing port
    r = cli("score", "--query", "graph kernels", "--scorer", "local", "--json")
    assert r.returncode == EXIT_INSTEAD, r.stderr
    assert "unreachable" in r.stderr
    assert _ids(r.stdout) == ["2602.00025"]
