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


# -- item 17: only a version higher than any known is a revision --------------------------------


def test_a_stale_version_after_a_newer_one_is_no_revision(cli, tmp_path):
    from datetime import date

    from support.feedbuild import day_rows, replacement, rss

    first = day_rows("2026-02-25")
    kept = first[0]
    d1, d2, d3 = tmp_path / "d1.xml", tmp_path / "d2.xml", tmp_path / "d3.xml"
    d1.write_bytes(rss(date(2026, 2, 25), first))
    later = day_rows("2026-03-02")
    d2.write_bytes(rss(date(2026, 3, 2), [*later[:40], replacement(kept, version=3)]))
    d3.write_bytes(rss(date(2026, 3, 3), [*later[40:80], replacement(kept, version=2)]))
    assert cli("score", "--feed", str(d1), "--json").returncode == 0
    assert cli("star", kept["id"]).returncode == 0
    r = cli("digest", "--feed", str(d2), "--format", "json")
    assert [(x["id"], x["revised_from"]) for x in json.loads(r.stdout)["revised"]] == [
        (kept["id"], 1)]
    r = cli("digest", "--feed", str(d3), "--format", "json")  # v2 comes late: v3 is known
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["revised"] == [], r.stdout
    md = cli("digest", "--feed", str(d3)).stdout
    assert "v1→v2" not in md


# -- item 18: NFC and NFD are the same text (repeats, search, dedup) -----------------------------


def _nf(form: str, text: str) -> str:
    import unicodedata

    return unicodedata.normalize(form, text)


TITLE = "Régularisation des modèles à experts: une étude"


def _twins(store, nfd_first: bool):  # type: ignore[no-untyped-def]
    from datetime import date

    from support.feedbuild import day_rows, rss

    from paperterm.sources.feeds import parse_feed

    first = day_rows("2026-02-25")
    one = {**first[5], "title": _nf("NFD" if nfd_first else "NFC", TITLE)}
    twin = {**first[5], "id": "2603.01234", "title": _nf("NFC" if nfd_first else "NFD", TITLE)}
    early = parse_feed(rss(date(2026, 2, 25), [*first[:5], one])).papers
    store.papers.save_day("cs.AI+cs.LG", date(2026, 2, 25), early, source="rss")
    later = parse_feed(rss(date(2026, 3, 2), [*day_rows("2026-03-02")[:10], twin])).papers
    store.papers.save_day("cs.AI+cs.LG", date(2026, 3, 2), later, source="rss")
    return one, later


def test_titles_differing_only_in_normalisation_are_repeats(store):
    from datetime import date

    from paperterm.day.repeats import repeats

    one, later = _twins(store, nfd_first=True)
    found = repeats(store, later, date(2026, 3, 2))
    assert "2603.01234" in found and found["2603.01234"].other_id == one["id"]


def test_an_older_cache_holding_nfd_titles_still_folds(store):
    from datetime import date

    from paperterm.day.repeats import repeats

    one, later = _twins(store, nfd_first=True)
    # a cache written before titles were normalised on the way in: the NFD title as it came
    store.conn.execute("UPDATE papers SET title = ? WHERE id = ?", (_nf("NFD", TITLE), one["id"]))
    found = repeats(store, later, date(2026, 3, 2))
    assert "2603.01234" in found


def test_search_finds_either_form(cli, store):
    _twins(store, nfd_first=True)
    store.close()
    for form in ("NFC", "NFD"):
        r = cli("search", _nf(form, "régularisation modèles"), "--json")
        assert r.returncode == 0, r.stderr
        assert {"2603.01234"} <= {x["id"] for x in json.loads(r.stdout)}, form
