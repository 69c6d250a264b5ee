"""The SQLite cache: schema, migrations, round-trips, user state, broken files."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from paperterm.models import Paper
from paperterm.sources.feeds import parse_feed
from paperterm.store import APP_ID, SCHEMA_VERSION, Store, StoreError
from paperterm.store.schema import _MIGRATIONS, statements
from paperterm.text.hygiene import clean_text

FEEDS = Path(__file__).parents[1] / "fixtures" / "feeds"
DAY = date(2026, 3, 3)


def _paper(pid: str = "2603.00001", version: int | None = 1, **kw) -> Paper:
    base = dict(
        id=pid, version=version, title=f"Title of {pid}", authors=("Zoë Ångström", "B. Ray"),
        abstract="An abstract with $x^2$ and ümlauts.", categories=("cs.LG", "stat.ML"),
        primary_category="cs.LG", announce_type="new",
    )
    base.update(kw)
    return Paper(**base)


def test_fresh_database_schema_and_wal(tmp_path):
    path = tmp_path / "db" / "p.sqlite3"
    s = Store.open(path)
    assert s.notice is None
    assert s.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert s.conn.execute("PRAGMA application_id").fetchone()[0] == APP_ID
    assert s.conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"
    s.close()
    # reopening an up-to-date database changes nothing
    s = Store.open(path)
    assert s.notice is None
    assert s.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    s.close()


def _v1_database(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    for stmt in statements(_MIGRATIONS[0]):
        conn.execute(stmt)
    conn.execute("PRAGMA user_version=1")
    conn.execute(f"PRAGMA application_id={APP_ID}")
    conn.execute(
        "INSERT INTO papers VALUES ('2601.00001', 2, 'Old title', '[\"A\"]', 'abs', "
        "'[\"cs.LG\"]', 'cs.LG', NULL, NULL, NULL, NULL, 1.0)"
    )
    conn.execute("INSERT INTO announcements VALUES ('cs.AI+cs.LG', '2026-01-05', 0, "
                 "'2601.00001', 2, 'new')")
    conn.execute("INSERT INTO user_state (id, starred) VALUES ('2601.00001', 1)")
    conn.close()


def test_migration_v1_to_v2_keeps_data(tmp_path):
    path = tmp_path / "p.sqlite3"
    _v1_database(path)
    s = Store.open(path)
    assert s.notice is None
    assert s.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {r[0] for r in s.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"scores", "score_requests", "papers", "user_state"} <= tables
    papers = s.papers.day_papers("cs.AI+cs.LG", date(2026, 1, 5))
    assert [(p.id, p.version, p.title, p.authors) for p in papers] == [
        ("2601.00001", 2, "Old title", ("A",))
    ]
    assert s.marks.starred_ids() == {"2601.00001"}
    s.close()


def test_save_and_load_day_round_trips_every_field(tmp_path):
    papers = [
        _paper("2603.00001", 1, doi="10.5555/x", journal_ref="J. Tests 1 (2026)",
               comment="9 pages", published="2026-03-01"),
        _paper("2603.00002", None, announce_type="cross", categories=("math.OC", "cs.LG"),
               primary_category="math.OC"),
        _paper("2306.00554", 3, announce_type="replace-cross"),
        _paper("hep-th/9901001", 4, announce_type="replace", authors=()),
        _paper("2603.00003", 1, authors=('O"Brien, J. ], [x', "Ünal \\ Çelik", "[]")),
    ]
    s = Store.open(tmp_path / "p.sqlite3")
    s.papers.save_day("cs.AI+cs.LG", DAY, papers, source="rss", fetched_for=DAY)
    assert s.papers.day_papers("cs.AI+cs.LG", DAY) == papers
    assert s.papers.latest_day("cs.AI+cs.LG") == DAY
    assert s.papers.fetch_record("cs.AI+cs.LG", DAY)["day"] == DAY.isoformat()
    assert s.papers.day_papers("cs.LG", DAY) == []
    s.close()
    s = Store.open(tmp_path / "p.sqlite3")  # survives reopening
    assert s.papers.day_papers("cs.AI+cs.LG", DAY) == papers
    s.close()


def test_text_is_cleaned_when_papers_enter_the_store(tmp_path):
    esc = "\x1b"
    dirty = _paper(
        "2603.00009", 1,
        title=f"{esc}[31mRed{esc}[0m title\u202e with\u2066 bidi\u200b",
        authors=(f"Jane{esc}]0;pwned\x07 Doe", "\u202eJohn\x9b2J Roe", "\u200b"),
        abstract=f"An abstract{esc}[2J\x9d with\u200b hidden\nlines",
        categories=("cs.LG\u200b", "stat.ML"), primary_category="cs.LG\u200b",
        doi="10.5555/x\u2066", journal_ref=f"{esc}[0m", comment="9 pages\x07",
    )
    s = Store.open(tmp_path / "p.sqlite3")
    s.papers.save_day("cs.LG", DAY, [dirty], source="feed")
    (p,) = s.papers.day_papers("cs.LG", DAY)
    s.close()
    assert p.title == "Red title with bidi"
    assert p.authors == ("Jane Doe", "John Roe")
    assert p.abstract == "An abstract with hidden lines"
    assert p.categories == ("cs.LG", "stat.ML") and p.primary_category == "cs.LG"
    assert (p.doi, p.journal_ref, p.comment) == ("10.5555/x", None, "9 pages")
    texts = [p.title, p.abstract, p.primary_category, *p.authors, *p.categories, p.doi, p.comment]
    assert all(clean_text(t) == t for t in texts)


def test_a_dirty_feed_item_is_clean_in_the_store(tmp_path):
    feed = (FEEDS / "rss-edge-cases.xml").read_text(encoding="utf-8")
    dirty = feed.replace("Affiliations, Accents", "\u009b1;31mAffiliations\u202e, Accents\u200b")
    dirty = dirty.replace("Jane Doe (MIT", "Jane\u2066 Doe\u009d (MIT")
    dirty = dirty.replace("A made-up paper whose author list", "A made-up\u200b paper\u009b2J "
                          "whose author list")
    parsed = parse_feed(dirty.encode("utf-8"))
    s = Store.open(tmp_path / "p.sqlite3")
    s.papers.save_day("cs.AI+cs.LG", DAY, parsed.papers, source="feed")
    stored = {p.id: p for p in s.papers.day_papers("cs.AI+cs.LG", DAY)}
    s.close()
    clean = {p.id: p for p in parse_feed(feed.encode("utf-8")).papers}
    assert stored["2603.00001"] == clean["2603.00001"]
    assert stored["2603.00001"].title == "Affiliations, Accents and Duplicates in Author Lists"
    assert stored["2603.00001"].authors[0] == "Jane Doe"


def test_real_day_round_trips(tmp_path):
    parsed = parse_feed((FEEDS / "rss-2026-03-02.xml").read_bytes())
    s = Store.open(tmp_path / "p.sqlite3")
    s.papers.save_day("cs.AI+cs.LG", parsed.day, parsed.papers, source="rss")
    assert s.papers.day_papers("cs.AI+cs.LG", parsed.day) == parsed.papers
    s.close()


def test_every_version_is_kept(tmp_path):
    s = Store.open(tmp_path / "p.sqlite3")
    v1 = _paper(version=1, title="First title")
    v2 = _paper(version=2, title="Revised title", announce_type="replace")
    s.papers.save_day("cs.LG", date(2026, 3, 2), [v1], source="rss")
    s.papers.save_day("cs.LG", DAY, [v2], source="rss")
    rows = s.conn.execute(
        "SELECT version, title FROM papers WHERE id=? ORDER BY version", (v1.id,)
    ).fetchall()
    assert [tuple(r) for r in rows] == [(1, "First title"), (2, "Revised title")]
    assert s.papers.day_papers("cs.LG", date(2026, 3, 2)) == [v1]
    assert s.papers.day_papers("cs.LG", DAY) == [v2]
    assert s.papers.paper_count() == 2
    assert s.papers.latest_day("cs.LG") == DAY
    assert s.papers.latest_day("cs.LG", before=date(2026, 3, 2)) == date(2026, 3, 2)
    s.close()


def test_resaving_a_day_replaces_its_list_and_keeps_known_doi(tmp_path):
    s = Store.open(tmp_path / "p.sqlite3")
    a, b = _paper("2603.00001", doi="10.5555/a"), _paper("2603.00002")
    s.papers.save_day("cs.LG", DAY, [a, b], source="rss")
    s.papers.save_day("cs.LG", DAY, [replace(a, doi=None)], source="rss")
    assert s.papers.day_papers("cs.LG", DAY) == [a]  # the DOI seen before is not forgotten
    s.close()


def test_user_state(tmp_path):
    s = Store.open(tmp_path / "p.sqlite3")
    ids = ["2603.00001", "2603.00002", "2603.00003"]
    assert s.marks.states(ids) == {}
    s.marks.mark_seen(ids[:2])
    first_seen = s.conn.execute("SELECT seen_at FROM user_state WHERE id=?", (ids[0],)).fetchone()
    s.marks.mark_seen(ids[:1])  # seeing again keeps the first time
    again = s.conn.execute("SELECT seen_at FROM user_state WHERE id=?", (ids[0],)).fetchone()
    assert first_seen[0] == again[0]
    s.marks.set_starred(ids[1], True)
    s.marks.set_starred(ids[2], True)
    s.marks.set_starred(ids[2], False)
    s.marks.mark_saved([(ids[0], "doe2026affiliations")], tmp_path / "refs.bib")
    states = s.marks.states(ids)
    assert states[ids[0]].seen and not states[ids[0]].starred and states[ids[0]].saved
    assert states[ids[0]].bib_key == "doe2026affiliations"
    assert states[ids[1]].seen and states[ids[1]].starred and not states[ids[1]].saved
    assert not states[ids[2]].seen and not states[ids[2]].starred
    assert s.marks.starred_ids() == {ids[1]}
    s.close()
    s = Store.open(tmp_path / "p.sqlite3")
    assert s.marks.starred_ids() == {ids[1]}
    assert s.marks.states([ids[0]])[ids[0]].saved
    s.close()


def test_many_states_at_once(tmp_path):
    s = Store.open(tmp_path / "p.sqlite3")
    ids = [f"2603.{i:05d}" for i in range(1200)]
    s.marks.mark_seen(ids)
    assert len(s.marks.states(ids)) == 1200
    s.close()


def _broken_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".broken-*"))


def _assert_moved_aside(path: Path, original: bytes, s: Store) -> None:
    copies = [c for c in _broken_copies(path) if not c.name.endswith(("-wal", "-shm"))]
    assert len(copies) == 1
    assert copies[0].read_bytes() == original
    assert s.notice is not None
    assert str(copies[0]) in s.notice
    assert s.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    s.papers.save_day("cs.LG", DAY, [_paper()], source="rss")  # the fresh database works
    assert s.papers.day_papers("cs.LG", DAY) == [_paper()]


def test_corrupt_file_is_moved_aside(tmp_path):
    path = tmp_path / "p.sqlite3"
    original = os.urandom(8192)
    path.write_bytes(original)
    s = Store.open(path)
    _assert_moved_aside(path, original, s)
    s.close()


def test_foreign_sqlite_database_is_moved_aside(tmp_path):
    path = tmp_path / "p.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, url TEXT)")
    conn.execute("INSERT INTO moz_bookmarks (url) VALUES ('https://example.org')")
    conn.commit()
    conn.close()
    original = path.read_bytes()
    s = Store.open(path)
    _assert_moved_aside(path, original, s)
    assert "another program" in s.notice
    s.close()
    copy = _broken_copies(path)[0]
    rows = sqlite3.connect(copy).execute("SELECT url FROM moz_bookmarks").fetchall()
    assert rows == [("https://example.org",)]


def test_two_broken_files_in_the_same_second_are_both_kept(tmp_path):
    path = tmp_path / "p.sqlite3"
    first, second = os.urandom(4096), os.urandom(4096)
    path.write_bytes(first)
    Store.open(path).close()
    path.unlink()
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)
    path.write_bytes(second)
    Store.open(path).close()
    kept = {c.read_bytes() for c in _broken_copies(path) if not c.name.endswith(("wal", "shm"))}
    assert kept == {first, second}


def test_newer_schema_is_a_clear_error_and_the_file_is_left_alone(tmp_path):
    path = tmp_path / "p.sqlite3"
    Store.open(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 5}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError) as info:
        Store.open(path)
    message = str(info.value)
    assert "newer" in message and "upgrade" in message.lower()
    assert str(SCHEMA_VERSION + 5) in message
    assert path.read_bytes() == before
    assert _broken_copies(path) == []


def test_damaged_pages_are_detected_on_open(tmp_path):
    path = tmp_path / "p.sqlite3"
    s = Store.open(path)
    papers = [_paper(f"2603.{i:05d}", abstract="x" * 2000) for i in range(300)]
    s.papers.save_day("cs.LG", DAY, papers, source="rss")
    s.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = s.conn.execute("PRAGMA page_size").fetchone()[0]
    s.close()
    data = bytearray(path.read_bytes())
    data[page * 3 : page * 6] = b"\xab" * (page * 3)  # the header survives, a b-tree does not
    path.write_bytes(bytes(data))
    s = Store.open(path)
    _assert_moved_aside(path, bytes(data), s)
    assert "\n" not in s.notice
    s.close()


def _statements_on_open(path, monkeypatch) -> list[str]:
    """Open a Store and return the SQL it ran (to see whether the integrity scan ran)."""
    import sqlite3

    seen: list[str] = []
    real_connect = sqlite3.connect

    def traced(*args, **kwargs):
        conn = real_connect(*args, **kwargs)
        conn.set_trace_callback(seen.append)
        return conn

    monkeypatch.setattr("paperterm.store.db.sqlite3.connect", traced)
    store = Store.open(path)
    monkeypatch.setattr("paperterm.store.db.sqlite3.connect", real_connect)
    store.conn.set_trace_callback(None)
    store.close()
    return seen


def test_integrity_scan_only_when_the_file_may_be_damaged(tmp_path, monkeypatch):
    path = tmp_path / "p.sqlite3"
    s = Store.open(path)
    s.papers.save_day("cs.LG", DAY, [_paper("2603.00001")], source="rss")
    s.close()
    # unchanged since paperterm closed it cleanly: no full scan on start-up
    assert not any("quick_check" in q for q in _statements_on_open(path, monkeypatch))
    # a session that did not close (killed): the WAL still holds data, so scan
    crashed = Store.open(path)
    crashed.papers.save_day("cs.LG", DAY, [_paper("2603.00002")], source="rss")
    assert any("quick_check" in q for q in _statements_on_open(path, monkeypatch))
    crashed.conn.close()  # the process dies: no clean close is recorded
    assert any("quick_check" in q for q in _statements_on_open(path, monkeypatch))
    # that open closed cleanly: quiet again
    assert not any("quick_check" in q for q in _statements_on_open(path, monkeypatch))
    # changed behind paperterm's back (restored, edited): scan
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert any("quick_check" in q for q in _statements_on_open(path, monkeypatch))


def test_a_close_that_wrote_nothing_leaves_the_clean_close_record_alone(tmp_path):
    """The reader's start closes the session's store before opening its own: a close after
    reading only must not rewrite (and fsync) the record (it holds already)."""
    path = tmp_path / "p.sqlite3"
    s = Store.open(path)
    s.papers.save_day("cs.LG", DAY, [_paper("2603.00001")], source="rss")
    s.close()
    marker = path.with_name(path.name + ".clean")
    before, recorded = marker.stat(), marker.read_text(encoding="ascii")
    reader = Store.open(path)
    assert reader.papers.day_papers("cs.LG", DAY)
    reader.close()
    after = marker.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    writer = Store.open(path)  # a close after a write records the new state
    writer.marks.set_starred("2603.00001", True)
    writer.close()
    assert marker.read_text(encoding="ascii") != recorded


def test_a_day_reads_back_in_announcement_order_not_id_order(tmp_path):
    s = Store.open(tmp_path / "p.sqlite3")
    ids = ["2603.00009", "2603.00001", "2603.00005", "2603.00002"]
    s.papers.save_day("cs.LG", DAY, [_paper(i) for i in ids], source="rss")
    assert [p.id for p in s.papers.day_papers("cs.LG", DAY)] == ids
    s.close()


def test_a_paper_restored_from_the_cache_is_the_paper_saved():
    p = _paper("2603.00007", doi="10.1/x", comment="12 pages")
    fields = {name: getattr(p, name) for name in Paper.__dataclass_fields__}
    restored = Paper.restored(**fields)
    assert restored == p and hash(restored) == hash(p) and repr(restored) == repr(p)
    assert replace(restored, title="T").title == "T"
    with pytest.raises(TypeError):  # never a paper missing a field
        Paper.restored(**{k: v for k, v in fields.items() if k != "doi"})
