"""Issue 31, items 16-18: a cached copy of the day asked for is that day; only a version
higher than any known is a revision; Unicode normalisation never splits what is the same."""

from __future__ import annotations

import json
from pathlib import Path

from support.fakearxiv import Reply

from paperterm.sources import rss

FEEDS = Path(__file__).resolve().parents[1] / "fixtures" / "feeds"
RSS = (FEEDS / "rss-2026-03-02.xml").read_bytes()
MONDAY = "2026-03-02"


def test_refresh_with_arxiv_hanging_keeps_todays_cached_copy_as_today(cli, fake_arxiv,
                                                                      monkeypatch):
    monkeypatch.setenv("PAPERTERM_TODAY", MONDAY)
    fake_arxiv.route("/rss/", Reply(RSS))
    assert cli("digest", "--format", "json").returncode == 0  # today's feed, fetched
    fake_arxiv.route("/rss/", Reply(RSS, delay=30))  # arXiv hangs from now on
    fetch = rss.fetch_rss  # (a 1 s deadline instead of arXiv's 20 s, no retries)
    monkeypatch.setattr(rss, "fetch_rss", lambda cats, **kw: fetch(cats, timeout=1.0,
                                                                   retries=0))
    r = cli("digest", "--refresh", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert "could not be loaded" not in r.stderr, r.stderr
    assert json.loads(r.stdout)["day"] == MONDAY
