"""Parsing arXiv RSS and Atom (rss.arxiv.org and the arXiv API), and hostile input."""

from __future__ import annotations

import json
import time
from datetime import date
from pathlib import Path

import pytest

from paperterm.feeds import FeedError, parse_feed, split_authors
from paperterm.models import ANNOUNCE_TYPES

ROOT = Path(__file__).parent.parent
FEEDS = Path(__file__).parent / "fixtures" / "feeds"


def _jsonl(name: str) -> list[dict]:
    lines = (FEEDS / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _assert_same_day(xml: Path, jsonl: str, day: date) -> None:
    parsed = parse_feed(xml.read_bytes())
    expected = _jsonl(jsonl)
    assert parsed.day == day
    assert parsed.skipped == []
    assert len(parsed.papers) == len(expected)
    by_id = {p.id: p for p in parsed.papers}
    assert set(by_id) == {row["id"] for row in expected}
    for row in expected:
        p = by_id[row["id"]]
        got = {
            "id": p.id,
            "version": p.version,
            "title": p.title,
            "authors": list(p.authors),
            "abstract": p.abstract,
            "categories": list(p.categories),
            "primary_category": p.primary_category,
            "announce_type": p.announce_type,
        }
        want = {k: row[k] for k in got}
        assert got == want, row["id"]


@pytest.mark.parametrize(
    ("xml", "jsonl", "day"),
    [
        (ROOT / "examples" / "arxiv-2026-02-25.xml", "day-2026-02-25.jsonl", date(2026, 2, 25)),
        (FEEDS / "atom-2026-02-25.xml", "day-2026-02-25.jsonl", date(2026, 2, 25)),
        (FEEDS / "rss-2026-03-02.xml", "day-2026-03-02.jsonl", date(2026, 3, 2)),
        (FEEDS / "atom-2026-03-02.xml", "day-2026-03-02.jsonl", date(2026, 3, 2)),
    ],
    ids=lambda v: v.name if isinstance(v, Path) else str(v),
)
def test_feed_matches_jsonl_day(xml, jsonl, day):
    _assert_same_day(xml, jsonl, day)


def test_sample_day_has_unversioned_papers():
    # the JSONL has nulls: they must come through as None, not 0 or 1
    nulls = [row["id"] for row in _jsonl("day-2026-02-25.jsonl") if row["version"] is None]
    assert nulls
    parsed = parse_feed((ROOT / "examples" / "arxiv-2026-02-25.xml").read_bytes())
    by_id = {p.id: p for p in parsed.papers}
    assert all(by_id[i].version is None for i in nulls)
    assert all(by_id[i].versioned_id == i for i in nulls)


def test_bundled_sample_is_the_example():
    from paperterm.loader import sample_bytes

    assert sample_bytes() == (ROOT / "examples" / "arxiv-2026-02-25.xml").read_bytes()


def _edge() -> dict:
    parsed = parse_feed((FEEDS / "rss-edge-cases.xml").read_bytes())
    return {"parsed": parsed, "by_id": {p.id: p for p in parsed.papers}}


def test_rss_doi_and_journal_reference():
    p = _edge()["by_id"]["2602.20202"]
    assert p.doi == "10.5555/paperterm.fixture.20202"
    assert p.journal_ref is not None and p.journal_ref.startswith("2025 IEEE 49th Annual")
    assert p.version == 2
    others = [q for q in _edge()["parsed"].papers if q.id != "2602.20202"]
    assert all(q.doi is None and q.journal_ref is None for q in others)


def test_replace_and_replace_cross():
    by_id = _edge()["by_id"]
    assert by_id["2602.20202"].announce_type == "replace"
    assert by_id["2306.00554"].announce_type == "replace-cross"
    assert by_id["2306.00554"].version == 3
    assert by_id["2306.00554"].primary_category == "cs.HC"
    assert {p.announce_type for p in _edge()["parsed"].papers} <= set(ANNOUNCE_TYPES)


def test_affiliations_with_commas_and_tex_accents():
    by_id = _edge()["by_id"]
    assert by_id["2603.00001"].authors == ("Jane Doe", "John Roe", "Ann Lee", "Bob Ray")
    assert by_id["2603.00002"].authors == (
        "Fran\\c{c}ois Chollet",
        "Jos\\'e Hern\\'andez-Orallo",
        'Kurt G\\"odel',
    )


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Jane Doe (MIT, CSAIL), John Roe", ("Jane Doe", "John Roe")),
        ("A. Smith, B. Jones and C. Brown", ("A. Smith", "B. Jones", "C. Brown")),
        ("Solo Author", ("Solo Author",)),
        ("M. M\\\"uller [ETH, Zurich], K. Ng", ('M. M\\"uller', "K. Ng")),
        ("Zoë Ångström, Jürgen Schmidhuber", ("Zoë Ångström", "Jürgen Schmidhuber")),
        ("", ()),
    ],
)
def test_split_authors(text, names):
    assert split_authors(text) == names


def test_duplicates_collapse_to_one_paper():
    parsed = _edge()["parsed"]
    ids = [p.id for p in parsed.papers]
    assert ids.count("2603.00001") == 1
    assert len(ids) == len(set(ids)) == 4


def test_duplicate_keeps_highest_version():
    item = (
        "<item><title>T</title><description>arXiv:2603.00009v{v} Announce Type: {t} "
        "Abstract: a</description><guid>oai:arXiv.org:2603.00009v{v}</guid>"
        "<category>cs.LG</category></item>"
    )
    xml = ("<rss version='2.0'><channel><title>x</title>"
           + item.format(v=1, t="new") + item.format(v=2, t="cross") + "</channel></rss>")
    parsed = parse_feed(xml.encode())
    assert [(p.id, p.version) for p in parsed.papers] == [("2603.00009", 2)]


def test_broken_items_are_skipped_and_reported():
    parsed = _edge()["parsed"]
    assert len(parsed.skipped) == 2
    assert any("2603.00003" in s and "title" in s for s in parsed.skipped)
    assert any("no arXiv id" in s for s in parsed.skipped)
    assert "2603.00003" not in _edge()["by_id"]


def test_weekend_channel_is_empty_with_its_day():
    parsed = parse_feed((FEEDS / "rss-empty-2026-03-07.xml").read_bytes())
    assert parsed.papers == []
    assert parsed.skipped == []
    assert parsed.day == date(2026, 3, 7)


def test_api_atom_with_doi_journal_comment_primary():
    parsed = parse_feed((FEEDS / "api-2026-02-25.xml").read_bytes())
    expected = {row["id"]: row for row in _jsonl("day-2026-02-25.jsonl")}
    assert parsed.day is None  # a search result is not an announcement day
    assert len(parsed.papers) == 5
    for p in parsed.papers:
        row = expected[p.id]
        assert p.title == row["title"]
        assert list(p.authors) == row["authors"]
        assert p.abstract == row["abstract"]
        assert list(p.categories) == row["categories"]
        assert p.primary_category == row["primary_category"]
        assert p.comment == row["arxiv_comment"]
        assert p.announce_type == "new"
        assert p.published == "2026-02-23"
    by_id = {p.id: p for p in parsed.papers}
    assert by_id["2602.20202"].doi == "10.5555/paperterm.fixture.20202"
    assert by_id["2602.20202"].journal_ref.startswith("2025 IEEE 49th")
    assert by_id["2602.20191"].doi == "10.5555/paperterm.fixture.20191"
    assert by_id["2602.20191"].journal_ref is None
    assert by_id["2602.20646"].primary_category == "math.OC"
    assert by_id["2602.20303"].doi is None


# -- hostile and broken input ---------------------------------------------------------------

_ITEM = (
    "<item><title>Title {x}</title><link>https://arxiv.org/abs/2603.00001</link>"
    "<description>arXiv:2603.00001v1 Announce Type: new Abstract: text {x}</description>"
    "<guid>oai:arXiv.org:2603.00001v1</guid><category>cs.LG</category>"
    "<dc:creator xmlns:dc='http://purl.org/dc/elements/1.1/'>A B {x}</dc:creator></item>"
)


def _fields(parsed) -> str:
    return repr([parsed.title, parsed.papers, parsed.skipped])


def test_billion_laughs_is_not_expanded():
    levels = ['<!ENTITY lol0 "lollollollollollollollollollol">']
    for i in range(1, 10):
        levels.append(f'<!ENTITY lol{i} "' + f"&lol{i - 1};" * 10 + '">')
    xml = (
        "<?xml version='1.0'?><!DOCTYPE rss [" + "".join(levels) + "]>"
        "<rss version='2.0'><channel><title>&lol9;</title>"
        + _ITEM.format(x="&lol9;") + "</channel></rss>"
    ).encode()
    start = time.monotonic()
    try:
        parsed = parse_feed(xml)
    except FeedError as exc:
        assert str(exc)
    else:
        assert "lollol" not in _fields(parsed)
    assert time.monotonic() - start < 2


@pytest.mark.parametrize("entity", ['SYSTEM "file:///etc/passwd"',
                                    'SYSTEM "file:///etc/hostname"',
                                    'PUBLIC "-//X//Y" "http://127.0.0.1:1/x.dtd"'])
def test_external_entity_is_not_resolved(entity, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    xml = (
        f"<?xml version='1.0'?><!DOCTYPE rss [<!ENTITY x {entity}>"
        f"<!ENTITY s SYSTEM '{secret.as_uri()}'>]>"
        "<rss version='2.0'><channel><title>feed &x;&s;</title>"
        + _ITEM.format(x="&x;&s;") + "</channel></rss>"
    ).encode()
    try:
        parsed = parse_feed(xml)
    except FeedError:
        return
    text = _fields(parsed)
    assert "TOP-SECRET-CONTENT" not in text
    assert "root:" not in text
    passwd = Path("/etc/passwd")
    if passwd.exists():
        first = passwd.read_text(errors="replace").splitlines()[0]
        assert first not in text
    assert [p.id for p in parsed.papers] == ["2603.00001"]


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"", "empty"),
        (b"  \n\t ", "empty"),
        (b"<rss version='2.0'><channel><item><title>x</title>", "malformed XML"),
        (b"\x00\x01\x02 binary junk", "malformed XML"),
        (b"<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>503</title></head>"
         b"<body>Service Unavailable<br></body></html>", "HTML"),
        (b"<html><body><h1>Rate exceeded.</h1></body></html>", "HTML"),
        (b"<?xml version='1.0'?><opml><body/></opml>", "not an RSS or Atom feed"),
        (b"<rss version='2.0'></rss>", "channel"),
    ],
)
def test_unreadable_input_is_a_feed_error(data, needle):
    with pytest.raises(FeedError) as info:
        parse_feed(data)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)
