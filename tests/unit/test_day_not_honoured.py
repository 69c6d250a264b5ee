"""Issue 10, item 6: a `--date`/`--query` that cannot be honoured is not passed off as the
day asked for (non-zero exit, the digest says what it shows), and a weekend digest says there
was no announcement instead of listing the last day again."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from support.fakearxiv import Reply
from support.realdays import day_papers, save_days

from paperterm.cli.errors import EXIT_INSTEAD

FEEDS = Path(__file__).parents[1] / "fixtures" / "feeds"
RSS = (FEEDS / "rss-2026-03-02.xml").read_bytes()
EMPTY = (FEEDS / "rss-empty-2026-03-07.xml").read_bytes()
MONDAY, SATURDAY = date(2026, 3, 2), date(2026, 3, 7)


def test_digest_of_an_uncached_date_offline_exits_non_zero_and_says_what_it_shows(cli):
    r = cli("digest", "--date", "2026-02-24", "--offline")
    assert r.returncode == EXIT_INSTEAD
    header = r.stdout.split("\n## ", 1)[0]
    assert "Not the day asked for" in header
    assert "--date 2026-02-24 could not be loaded" in header
    assert "bundled sample day, 2026-02-25" in header
    assert "--date 2026-02-24 could not be loaded" in r.stderr.strip().splitlines()[-1]


def test_date_with_the_api_down_exits_non_zero_in_json_too(cli):
    r = cli("digest", "--date", "2026-02-24", "--format", "json")  # the API is unreachable
    assert r.returncode == EXIT_INSTEAD
    doc = json.loads(r.stdout)
    assert doc["instead"].startswith("--date 2026-02-24 could not be loaded")
    assert doc["papers"]  # the output is still complete, for the day it says


def test_query_with_the_api_down_exits_non_zero(cli):
    r = cli("score", "--query", "mixture of experts", "--json")
    assert r.returncode == EXIT_INSTEAD
    assert "--query 'mixture of experts' could not be loaded" in r.stderr
    r = cli("export", "--query", "mixture of experts", "--all", "--format", "csv", "-o", "-")
    assert r.returncode == EXIT_INSTEAD


def test_an_honoured_date_still_exits_zero(cli, isolated_home):
    save_days(isolated_home.db)  # 2026-02-25 and 2026-03-02
    r = cli("digest", "--date", "2026-03-02", "--offline")  # cached: the day asked for
    assert r.returncode == 0, r.stderr
    assert "Not the day asked for" not in r.stdout


def test_weekend_digest_says_there_was_no_announcement(cli, fake_arxiv):
    fake_arxiv.route("/rss/", Reply(RSS))
    monday = cli("digest", env={"PAPERTERM_TODAY": MONDAY.isoformat()})
    assert monday.returncode == 0 and "## 1. " in monday.stdout
    fake_arxiv.route("/rss/", Reply(EMPTY))
    r = cli("digest", env={"PAPERTERM_TODAY": SATURDAY.isoformat()})
    assert r.returncode == 0
    assert "no announcement" in r.stdout
    assert "Saturdays and Sundays" in r.stdout
    assert "## 1. " not in r.stdout  # Monday's papers are not listed again
    first_title = monday.stdout.split("## 1. ", 1)[1].splitlines()[0]
    assert first_title not in r.stdout
    r = cli("digest", "--format", "json", env={"PAPERTERM_TODAY": SATURDAY.isoformat()})
    doc = json.loads(r.stdout)
    assert doc["papers"] == [] and "2026-03-07" in doc["no_announcement"]


def test_send_posts_nothing_on_a_weekend_nor_for_a_day_not_asked_for(cli, fake_arxiv,
                                                                     isolated_home):
    from support.fakedelivery import WebhookServer

    hook = WebhookServer()
    try:
        isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
        isolated_home.config.write_text(f'[delivery]\nwebhook_url = "{hook.url}"\n',
                                        encoding="utf-8")
        fake_arxiv.route("/rss/", Reply(RSS))
        assert cli("digest", "--send", env={"PAPERTERM_TODAY": MONDAY.isoformat()}
                   ).returncode == 0
        assert len(hook.posts) == 1
        fake_arxiv.route("/rss/", Reply(EMPTY))
        r = cli("digest", "--send", env={"PAPERTERM_TODAY": SATURDAY.isoformat()})
        assert r.returncode == 0 and "nothing sent: no announcement" in r.stderr
        r = cli("digest", "--send", "--date", "2026-02-24", "--offline")
        assert r.returncode == EXIT_INSTEAD
        assert "paperterm: not sent: --date 2026-02-24 could not be loaded" in r.stderr
        assert len(hook.posts) == 1  # only Monday's
    finally:
        hook.close()


def test_a_whole_day_export_of_a_day_not_loaded_writes_nothing(cli, fake_arxiv, tmp_path):
    """`export --date D --all` offline took the most recent cached day instead (not the
    sample day, so the sample-day guard let it through) and merged it into the .bib file."""
    fake_arxiv.route("/rss/", Reply(RSS))
    assert cli("score", "--json", env={"PAPERTERM_TODAY": MONDAY.isoformat()}).returncode == 0
    bib = tmp_path / "refs.bib"
    r = cli("export", "--date", "2026-02-24", "--all", "--offline", "-o", str(bib))
    assert r.returncode == EXIT_INSTEAD, r.stderr
    assert "--date 2026-02-24 could not be loaded" in r.stderr
    assert not bib.exists()


def test_an_uncached_date_falls_back_to_the_nearest_cached_day_not_the_latest(cli,
                                                                               isolated_home):
    """The QA walk: `score --date 2026-02-27 --offline` showed 03-02, "the most recent
    cached day", though 02-25 is nearer."""
    save_days(isolated_home.db)  # 2026-02-25 and 2026-03-02
    for asked in (["--offline"], []):  # offline, and with arXiv unreachable
        r = cli("score", "--date", "2026-02-27", *asked, "--json")
        assert r.returncode == EXIT_INSTEAD
        assert ("--date 2026-02-27 could not be loaded" in r.stderr
                and "this is the nearest cached day, 2026-02-25" in r.stderr), r.stderr
        ids = {json.loads(line)["id"] for line in r.stdout.splitlines()}
        assert ids == {p.id for p in day_papers(date(2026, 2, 25))}


def test_the_nearest_cached_day_on_a_tie_is_the_earlier_one(isolated_home):
    from paperterm.sources.daynav import closest_cached
    from paperterm.store import Store

    store = Store.open(isolated_home.db)
    try:
        papers = day_papers(date(2026, 2, 25))
        for day in (date(2026, 2, 23), date(2026, 2, 25)):
            store.papers.save_day("cs.AI+cs.LG", day, papers, source="rss")
        nearest = [closest_cached(store.papers, "cs.AI+cs.LG", date(2026, 2, d), MONDAY)
                   for d in (20, 24, 26)]
        assert nearest == [date(2026, 2, 23), date(2026, 2, 23), date(2026, 2, 25)]
        # never a day after today
        assert closest_cached(store.papers, "cs.AI+cs.LG", date(2026, 2, 24),
                              date(2026, 2, 24)) == date(2026, 2, 23)
    finally:
        store.close()


def test_a_digest_of_an_old_day_because_arxiv_is_down_says_so_and_exits_5(
        cli, isolated_home, tmp_path):
    """The QA walk: with arXiv unreachable, `digest -o d.md` exited 0 and wrote the last
    cached day's digest with nothing in it saying so."""
    from support.fakedelivery import WebhookServer

    save_days(isolated_home.db)
    out = tmp_path / "d.md"
    r = cli("digest", "-o", str(out), env={"PAPERTERM_TODAY": "2026-03-04"})
    assert r.returncode == EXIT_INSTEAD, r.stderr
    header = out.read_text("utf-8").split("\n## ", 1)[0]
    assert "Not the day asked for" in header
    assert "today's announcement could not be loaded" in header
    assert "the most recent cached day, 2026-03-02" in header
    doc = json.loads(cli("digest", "--format", "json",
                         env={"PAPERTERM_TODAY": "2026-03-04"}).stdout)
    assert doc["instead"].startswith("today's announcement could not be loaded")
    hook = WebhookServer()
    try:
        isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
        isolated_home.config.write_text(f'[delivery]\nwebhook_url = "{hook.url}"\n',
                                        encoding="utf-8")
        r = cli("digest", "--send", env={"PAPERTERM_TODAY": "2026-03-04"})
        assert r.returncode == EXIT_INSTEAD
        assert "paperterm: not sent: today's announcement could not be loaded" in r.stderr
        assert hook.posts == []
    finally:
        hook.close()
