"""Parsing arXiv RSS and Atom (rss.arxiv.org and the arXiv API), and hostile input."""

from __future__ import annotations

import json
import time
from datetime import date
from pathlib import Path

import pytest

from paperterm.models import ANNOUNCE_TYPES
from paperterm.sources.feeds import FeedError, parse_feed, split_authors
from paperterm.text.hygiene import clean_text

ROOT = Path(__file__).parents[2]
FEEDS = Path(__file__).parents[1] / "fixtures" / "feeds"


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
    from paperterm.sources.loader import sample_bytes

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
    start = time.process_time()  # CPU time: what an expansion costs, whatever the load
    try:
        parsed = parse_feed(xml)
    except FeedError as exc:
        assert str(exc)
    else:
        assert "lollol" not in _fields(parsed)
    assert time.process_time() - start < 2


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


# -- text hygiene at ingest -----------------------------------------------------------------

_DIRTY_RSS = """<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/"
     version="2.0"><channel><title>cs.LG\u200b updates</title>
<pubDate>Tue, 03 Mar 2026 00:00:00 -0500</pubDate>
<item><title>\u009b1;31mRed\u009b0m Title\u202e with\u2066 hidden\u2069 bits\u200b</title>
<link>https://arxiv.org/abs/2603.00001</link>
<description>arXiv:2603.00001v1 Announce Type: new Abstract: An \u009d abstract\u200b with
 \u202ereversed\u202c text and &#x9b;2J a clear-screen.</description>
<guid>oai:arXiv.org:2603.00001v1</guid><category>cs.LG\u200b</category>
<arxiv:DOI>10.5555/x\u2066</arxiv:DOI>
<dc:creator>Jane\u200b Doe\u009b0m, \u202eJohn Roe (Univ.\u2066 X), Ann\u200d Lee</dc:creator>
</item></channel></rss>"""

_DIRTY_ATOM = """<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
<title>arXiv Query</title><updated>2026-03-03T00:00:00-05:00</updated>
<entry><id>http://arxiv.org/abs/2603.00001v1</id><title>A\u009b2J\u202e Title\u200b</title>
<summary>An abstract\u2067 here\u009d.</summary><published>2026-03-01T00:00:00Z</published>
<author><name>Jane\u200b Doe</name></author><author><name>\u202eJohn Roe</name></author>
<arxiv:comment>9\u200b pages</arxiv:comment><arxiv:primary_category term="cs.LG\u200b"/>
<category term="cs.LG\u200b"/><category term="stat\u202e.ML"/>
</entry></feed>"""


def test_rss_item_text_is_cleaned_when_parsed():
    parsed = parse_feed(_DIRTY_RSS.encode("utf-8"))
    assert parsed.skipped == []
    assert parsed.title == "cs.LG updates"
    (p,) = parsed.papers
    assert p.title == "Red Title with hidden bits"
    assert p.abstract == "An abstract with reversed text and a clear-screen."
    assert p.authors == ("Jane Doe", "John Roe", "Ann Lee")
    assert p.categories == ("cs.LG",) and p.primary_category == "cs.LG"
    assert p.doi == "10.5555/x"
    assert all(clean_text(v) == v for v in _texts(p))


def test_atom_entry_text_is_cleaned_when_parsed():
    (p,) = parse_feed(_DIRTY_ATOM.encode("utf-8")).papers
    assert p.title == "A Title"
    assert p.abstract == "An abstract here."
    assert p.authors == ("Jane Doe", "John Roe")
    assert p.categories == ("cs.LG", "stat.ML") and p.primary_category == "cs.LG"
    assert p.comment == "9 pages"
    assert all(clean_text(v) == v for v in _texts(p))


@pytest.mark.parametrize("esc", ["\x1b", "&#27;", "&#x1b;"])
def test_a_raw_escape_character_makes_the_feed_unreadable(esc):
    # XML 1.0 cannot carry ESC at all: such a feed is refused, never half-read
    data = _DIRTY_RSS.replace("Red", f"{esc}[31mRed").encode("utf-8")
    with pytest.raises(FeedError, match="malformed XML"):
        parse_feed(data)


def _texts(p) -> list[str]:
    values = [p.id, p.title, p.abstract, p.primary_category, p.announce_type, *p.authors,
              *p.categories, p.doi, p.journal_ref, p.comment, p.published]
    return [v for v in values if v is not None]
