"""Revisions of kept papers (issue 23): a paper starred, saved, noted or by a followed author
comes back in a later day's real feed as a `replace` item with a higher version."""

from __future__ import annotations

from datetime import date

import pytest
from support.feedbuild import day_rows, replacement, rss

from paperterm.sources.feeds import parse_feed
from paperterm.sources.loader import LoadRequest, cached_while_fetching
from paperterm.sources.revisions import revisions, word_diff
from paperterm.store import Store

FEED = "cs.AI+cs.LG"
FIRST, LATER = date(2026, 2, 25), date(2026, 3, 2)


def _days(store: Store, *replaced: dict) -> list:
    """The first real day cached, then the later real day with `replaced` items in it."""
    store.papers.save_day(FEED, FIRST, parse_feed(rss(FIRST, day_rows("2026-02-25"))).papers,
                          source="rss")
    later = parse_feed(rss(LATER, [*day_rows("2026-03-02"), *replaced])).papers
    store.papers.save_day(FEED, LATER, later, source="rss")
    return later


def test_a_starred_paper_revised_is_found_with_its_word_diff(store: Store) -> None:
    row = day_rows("2026-02-25")[0]
    store.marks.set_starred(row["id"], True, topic="t")
    later = _days(store, replacement(row, version=2,
                                     title=row["title"] + " at Scale"))
    found = revisions(store, later)
    assert set(found) == {row["id"]}
    rev = found[row["id"]]
    assert rev.label == "v1→v2" and rev.old.version == 1 and rev.new.version == 2
    assert rev.title_changed and rev.abstract_changed
    assert ("ins", "at Scale") in rev.title_diff()
    assert rev.abstract_diff()[-1] == ("ins", "We add experiments on three more benchmarks.")
    # the earlier version stays in the cache: the diff still works on a later start
    assert store.papers.earlier_versions([rev.new])[row["id"]].abstract == row["abstract"]


def test_only_kept_papers_count_and_notes_and_follows_keep(store: Store) -> None:
    rows = day_rows("2026-02-25")
    starred, noted, saved, followed, ignored = rows[:5]
    store.marks.set_starred(starred["id"], True)
    store.marks.set_note(noted["id"], "read the appendix")
    store.marks.mark_saved([(saved["id"], "key2026")], "/tmp/refs.bib")
    later = _days(store, *(replacement(r, cross=i % 2 == 1) for i, r in enumerate(rows[:5])))
    assert set(revisions(store, later)) == {starred["id"], noted["id"], saved["id"]}
    assert followed["id"] in revisions(store, later, follow=[followed["authors"][0]])
    assert ignored["id"] not in revisions(store, later, follow=[followed["authors"][0]])


def test_a_paper_announced_again_at_the_same_version_is_no_revision(store: Store) -> None:
    row = day_rows("2026-02-25")[0]
    store.marks.set_starred(row["id"], True)
    assert revisions(store, _days(store, {**row, "announce_type": "cross"})) == {}


def test_the_cached_day_shown_while_fetching_keeps_a_kept_papers_revision(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """With replacements hidden by the config, the most recent cached day shown while
    today's announcement loads still has the starred paper's revision (and no other)."""
    rows = day_rows("2026-02-25")
    store.marks.set_starred(rows[0]["id"], True)
    _days(store, replacement(rows[0]), replacement(rows[1]))
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-03")
    day = cached_while_fetching(LoadRequest(categories=["cs.LG", "cs.AI"],
                                            announce_types=["new", "cross"]), store)
    assert day is not None and day.day == LATER
    replaced = [p.id for p in day.papers if p.announce_type == "replace"]
    assert replaced == [rows[0]["id"]]


def test_word_diff_keeps_the_words_and_marks_what_changed() -> None:
    assert word_diff("We study the MoE routing.", "We study sparse MoE routing at scale.") == [
        ("same", "We study"), ("del", "the"), ("ins", "sparse"), ("same", "MoE"),
        ("del", "routing."), ("ins", "routing at scale.")]
