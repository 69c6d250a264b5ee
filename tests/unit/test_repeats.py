"""Repeats (issue 23), from real feeds: a paper announced again on a later day (a cross-list
after its first listing, a replacement) or a near-duplicate under another id (the same title
and first author) is found with the day it was first announced."""

from __future__ import annotations

from datetime import date

import pytest
from support.feedbuild import day_rows, replacement, rss

from paperterm.day.repeats import repeats
from paperterm.sources.feeds import parse_feed
from paperterm.store import Store

FEED = "cs.AI+cs.LG"
FIRST, LATER = date(2026, 2, 25), date(2026, 3, 2)


def _save(store: Store, day: date, rows: list[dict]) -> list:
    papers = parse_feed(rss(day, rows)).papers
    store.papers.save_day(FEED, day, papers, source="rss")
    return papers


def test_a_paper_announced_again_is_a_repeat_of_its_first_day(store: Store) -> None:
    first = day_rows("2026-02-25")
    _save(store, FIRST, first)
    crossed = {**first[3], "announce_type": "cross"}
    later = _save(store, LATER, [*day_rows("2026-03-02")[:30], crossed, replacement(first[4])])
    found = repeats(store, later, LATER)
    assert set(found) == {first[3]["id"], first[4]["id"]}
    assert found[first[3]["id"]].note == "also announced 02-25"
    # the first day itself has no repeats, even once the later day is cached
    assert repeats(store, parse_feed(rss(FIRST, first)).papers, FIRST) == {}


def test_a_near_duplicate_under_another_id_is_folded(store: Store) -> None:
    first = day_rows("2026-02-25")
    _save(store, FIRST, first)
    twin = {**first[5], "id": "2603.01234", "title": first[5]["title"].upper()}
    stranger = {**first[6], "id": "2603.01235", "authors": ["Someone Else"]}
    later = _save(store, LATER, [*day_rows("2026-03-02")[:30], twin, stranger])
    found = repeats(store, later, LATER)
    assert set(found) == {"2603.01234"}
    assert found["2603.01234"].note == f"also announced 02-25 as {first[5]['id']}"


def test_days_of_a_multi_day_view_count_each_paper_on_its_day(store: Store) -> None:
    first = day_rows("2026-02-25")
    a = _save(store, FIRST, first[:10])
    b = _save(store, LATER, [{**first[0], "announce_type": "cross"}, *day_rows("2026-03-02")[:5]])
    rest = [p for p in b if p.id != first[0]["id"]]
    days = {p.id: FIRST.isoformat() for p in a} | {p.id: LATER.isoformat() for p in rest}
    # a view of both days lists the paper once, on its first day: not a repeat
    assert repeats(store, [*a, *rest], None, days) == {}


@pytest.mark.parametrize("later_first", [False, True])
def test_a_near_duplicate_in_a_multi_day_view_is_found_in_either_order(
        store: Store, later_first: bool) -> None:
    """The view lists the later twin before the earlier one (ranked above it): the twin was
    not found, and the two showed as two rows."""
    first = day_rows("2026-02-25")
    a = _save(store, FIRST, first[:10])
    twin = {**first[5], "id": "2603.01234"}
    b = _save(store, LATER, [twin, *day_rows("2026-03-02")[:5]])
    days = {p.id: FIRST.isoformat() for p in a} | {p.id: LATER.isoformat() for p in b}
    papers = [*b, *a] if later_first else [*a, *b]
    found = repeats(store, papers, None, days)
    assert set(found) == {"2603.01234"}
    assert found["2603.01234"].other_id == first[5]["id"]


def test_titles_lower_case_as_sqlite_does():
    """The near-duplicate lookup lower-cases titles in Python as SQLite's lower() does in
    the index (ASCII letters only): a quick path for ASCII titles must not change that."""
    import sqlite3

    from paperterm.store.days import ascii_lower

    conn = sqlite3.connect(":memory:")
    for title in ("Sparse MoE at SCALE", "Über ÄÖÜ Mixture", "ΣΤΑΘΕΡΟΣ Routing", "İstanbul",
                  "plain"):
        (sqlite,) = conn.execute("SELECT lower(?)", (title,)).fetchone()
        assert ascii_lower(title) == sqlite, title
