"""Start-up does not grow with the cache (issue 11 item 7): every query paperterm runs from
loading today's cached day to the reader's first screen reads through an index (no full
scan of any table), checked with SQLite's own query plans."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import replace
from datetime import date

import pytest

from paperterm.sources.loader import LoadRequest, load_day, loads_without_network
from paperterm.store import Store
from paperterm.store.db import Database

DAY = date(2026, 2, 25)
FEED = "cs.AI+cs.LG"
# what a plan may scan whole: subqueries, constants, table-valued functions, the full-text
# index (searched by MATCH) and our own CTEs; also any table the plan derived (MATERIALIZE)
ALLOWED = re.compile(r"SCAN (CONSTANT ROW|\(subquery|json_each|paper_fts|top\b)"
                     # partial indexes: only the starred, saved or read-and-not-kept rows
                     r"|SCAN \w+ USING (COVERING )?INDEX user_state_(starred|saved|skipped)\b"
                     # lists the user made by hand (follows, learn, not interested): they
                     # grow with what the user did, not with the cache
                     r"|SCAN (followed_authors|\w+ USING (COVERING )?INDEX "
                     r"sqlite_autoindex_(positives|dismissals)_1)\b")


@pytest.fixture
def traced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement run on any paperterm database connection from now on."""
    seen: list[str] = []
    opened = Database.__init__

    def init(self, path):  # type: ignore[no-untyped-def]
        opened(self, path)
        self.conn.set_trace_callback(seen.append)

    monkeypatch.setattr(Database, "__init__", init)
    return seen


def full_scans(db, statements: list[str]) -> list[tuple[str, str]]:
    """(plan line, statement) for every SELECT whose plan scans a whole table or index."""
    c = sqlite3.connect(db)
    bad = []
    for sql in dict.fromkeys(statements):
        if not sql.lstrip().upper().startswith(("SELECT", "WITH")):
            continue
        # the placeholders outside string literals (an expanded title may hold a "?")
        params = [None] * re.sub(r"'(?:[^']|'')*'", "", sql).count("?")
        plan = [row[3] for row in c.execute("EXPLAIN QUERY PLAN " + sql, params)]
        derived = {d.split()[1] for d in plan if d.startswith(("MATERIALIZE ", "CO-ROUTINE "))}
        for detail in plan:
            if (detail.startswith("SCAN ") and not ALLOWED.match(detail)
                    and detail.split()[1] not in derived):
                bad.append((detail, " ".join(sql.split())[:160]))
    c.close()
    return bad


async def test_every_start_up_query_uses_an_index(make_session, make_app, size, until,
                                                  traced, monkeypatch):
    monkeypatch.setenv("PAPERTERM_TODAY", DAY.isoformat())
    session = make_session()
    papers = session.day.papers
    store = Store.open(session.db_path)
    store.papers.save_day(FEED, date(2026, 2, 24), papers[100:], source="rss")
    store.papers.save_day(FEED, DAY, papers, source="rss", fetched_for=DAY)
    store.marks.set_starred(papers[0].id, True)
    store.marks.set_note(papers[1].id, "a note")
    store.marks.set_tags(papers[1].id, ["to-read"])
    store.marks.mark_seen([p.id for p in papers[:10]])
    store.close()
    traced.clear()
    req = LoadRequest(categories=["cs.LG", "cs.AI"], announce_types=["new", "cross"])
    store = Store.open(session.db_path)
    assert loads_without_network(req, store)
    day = load_day(req, store)
    store.close()
    assert len(day.papers) == len(papers)
    session = replace(session, day=day)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.screen.query("#papers")
                    and app.screen.entries[0].status == "local")  # type: ignore[attr-defined]
    assert len(traced) > 10
    assert full_scans(session.db_path, traced) == []


def test_a_multi_day_view_reads_only_its_days(make_session, traced, monkeypatch):
    """`--since` / this week: the papers of those days through the day index (the old
    query computed every cached paper's first day)."""
    monkeypatch.setenv("PAPERTERM_TODAY", DAY.isoformat())
    session = make_session()
    store = Store.open(session.db_path)
    store.papers.save_day(FEED, date(2026, 2, 24), session.day.papers[:50], source="rss")
    store.papers.save_day(FEED, DAY, session.day.papers[50:], source="rss", fetched_for=DAY)
    traced.clear()
    req = LoadRequest(categories=["cs.LG", "cs.AI"], announce_types=["new", "cross"],
                      since=DAY, offline=True)
    day = load_day(req, store)
    store.close()
    assert len(day.papers) == len(session.day.papers) - 50
    assert full_scans(session.db_path, traced) == []
