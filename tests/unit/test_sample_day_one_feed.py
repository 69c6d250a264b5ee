"""Issue 32 item 1's views agree on the sample day: cached under the feed `sample`, it was not
found as the cs.AI+cs.LG day the library lists it under (`score --date 2026-02-25
--offline` fell to another day, `[`/`]` stepped past it). It is that day for every lookup,
and said to be the sample."""

from __future__ import annotations

import json
from datetime import date

from paperterm.sources import daynav
from paperterm.sources.loader import LoadRequest, load_day, parse_feed, sample_bytes

SAMPLE_DAY = date(2026, 2, 25)
FEED = ["cs.AI", "cs.LG"]


def test_score_date_offline_finds_the_sample_day(cli):
    assert cli("score", "--sample", "--json", "--limit", "1").returncode == 0
    run = cli("score", "--date", "2026-02-25", "--offline", "--json")
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.splitlines()) == 244
    assert "2026-02-25 is the bundled sample day (cs.LG and cs.AI)" in run.stderr
    assert "not cached" not in run.stderr


def test_every_lookup_of_the_categories_days_finds_the_sample_day(store):
    load_day(LoadRequest(FEED, ["new", "cross"], sample=True), store)
    papers = store.papers
    feed = "cs.AI+cs.LG"
    assert papers.latest_day(feed) == SAMPLE_DAY
    assert papers.cached_days(feed, date(2026, 2, 20), date(2026, 2, 28)) == {SAMPLE_DAY}
    assert papers.day_papers(feed, SAMPLE_DAY) == parse_feed(sample_bytes()).papers
    # `[` and `]` from the days around it land on it
    later, earlier = date(2026, 2, 27), date(2026, 2, 23)
    assert daynav.neighbour(papers, feed, later, -1, later, offline=True).day == SAMPLE_DAY
    assert daynav.neighbour(papers, feed, earlier, 1, later, offline=True).day == SAMPLE_DAY
    day = load_day(LoadRequest(FEED, ["new", "cross"], date=SAMPLE_DAY, offline=True), store)
    assert day.source == "sample" and "sample" in day.flags and len(day.papers) == 244
    # other categories never see it
    assert papers.latest_day("cs.CL") is None
    assert json.dumps(day.notices).count("bundled sample day") == 1
