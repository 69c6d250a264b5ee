"""`paperterm zotero`: papers sent to Zotero desktop through its local connector protocol
(a local server speaking it), filed into the chosen collection; or to a zotero.org web
library through the web API v3 (a local server speaking it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.fakezotero import FakeZoteroConnector, FakeZoteroWeb

from paperterm.sources.feeds import parse_feed

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"


@pytest.fixture
def zotero(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeZoteroConnector]:
    fake = FakeZoteroConnector()
    monkeypatch.setenv("PAPERTERM_ZOTERO_CONNECTOR_URL", fake.url)
    yield fake
    fake.close()


def test_papers_go_to_the_named_collection(cli, zotero):
    proc = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191", "2602.20175",
               "--collection", "moe")
    assert proc.returncode == 0, proc.stderr
    assert "sent 2 papers to Zotero (collection moe)" in proc.stderr
    assert [c for c, _ in zotero.calls] == ["getSelectedCollection", "saveItems",
                                            "updateSession"]
    assert list(zotero.sessions.values()) == ["C9"]
    item = next(i for i in zotero.items if i["url"] == "https://arxiv.org/abs/2602.20191")
    assert item["itemType"] == "preprint" and item["title"].startswith("MoBiQuant")
    assert item["creators"][0]["creatorType"] == "author" and item["creators"][0]["lastName"]
    assert item["archiveID"] == "arXiv:2602.20191v1" and item["date"].startswith("2026")
    assert item["attachments"][0]["url"] == "https://arxiv.org/pdf/2602.20191v1"


def test_without_a_collection_zotero_files_them_where_it_points(cli, zotero):
    proc = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191")
    assert proc.returncode == 0, proc.stderr
    assert [c for c, _ in zotero.calls] == ["saveItems"]
    assert "selected in Zotero" in proc.stderr


def test_an_unknown_collection_lists_the_real_ones_and_saves_nothing(cli, zotero):
    proc = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191", "--collection", "nope")
    assert proc.returncode == 1 and "arXiv inbox, MoE" in proc.stderr
    assert zotero.items == []


def test_zotero_not_running_is_one_clear_line(cli, monkeypatch):
    from support.fakearxiv import closed_port

    monkeypatch.setenv("PAPERTERM_ZOTERO_CONNECTOR_URL", f"http://127.0.0.1:{closed_port()}")
    proc = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191")
    assert proc.returncode == 1 and "Zotero is not running" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") <= 2


@pytest.fixture
def zotero_web(monkeypatch: pytest.MonkeyPatch, isolated_home) -> Iterator[FakeZoteroWeb]:
    fake = FakeZoteroWeb(key="k3y", library="/users/475425")
    monkeypatch.setenv("PAPERTERM_ZOTERO_API_URL", fake.url)
    monkeypatch.setenv("ZOTERO_API_KEY", "k3y")
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('[zotero]\nlibrary_id = "475425"\n', encoding="utf-8")
    yield fake
    fake.close()


def test_web_sends_items_and_linked_pdfs_into_the_named_collection(cli, zotero_web):
    proc = cli("zotero", "--web", "--feed", str(FEED), "--ids", "2602.20191", "2602.20175",
               "--collection", "moe")
    assert proc.returncode == 0, proc.stderr
    assert "sent 2 papers to Zotero (user library 475425, collection moe)" in proc.stderr
    created = zotero_web.created()
    papers = [d for d in created if d["itemType"] == "preprint"]
    pdfs = [d for d in created if d["itemType"] == "attachment"]
    assert {d["url"] for d in papers} == {"https://arxiv.org/abs/2602.20191",
                                          "https://arxiv.org/abs/2602.20175"}
    assert all(d["collections"] == ["EFGH6789"] for d in papers)
    assert all("id" not in d and "attachments" not in d for d in papers)
    assert {d["parentItem"] for d in pdfs} == {d["key"] for d in papers}
    assert all(d["linkMode"] == "linked_url" and d["url"].startswith("https://arxiv.org/pdf/")
               for d in pdfs)


def test_config_send_to_web_makes_web_the_default_and_desktop_overrides(cli, zotero_web,
                                                                        isolated_home, zotero):
    isolated_home.config.write_text('[zotero]\nsend_to = "web"\nlibrary_id = 475425\n'
                                    'collection = "arXiv inbox"\n', encoding="utf-8")
    proc = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191")
    assert proc.returncode == 0, proc.stderr
    assert [d["collections"] for d in zotero_web.created() if d["itemType"] == "preprint"] \
        == [["ABCD2345"]]
    proc = cli("zotero", "--desktop", "--feed", str(FEED), "--ids", "2602.20175")
    assert proc.returncode == 0, proc.stderr
    assert [i["url"] for i in zotero.items] == ["https://arxiv.org/abs/2602.20175"]
    assert list(zotero.sessions.values()) == ["C7"]  # the configured collection, by name


def test_web_waits_out_a_429_with_retry_after(cli, zotero_web):
    zotero_web.throttle = 2
    proc = cli("zotero", "--web", "--feed", str(FEED), "--ids", "2602.20191")
    assert proc.returncode == 0, proc.stderr
    assert len(zotero_web.created()) == 2


def test_web_library_is_spoken_by_pyzotero(cli, zotero_web):
    proc = cli("zotero", "--web", "--feed", str(FEED), "--ids", "2602.20191",
               "--collection", "MoE")
    assert proc.returncode == 0, proc.stderr
    assert zotero_web.agents and all(a.startswith("Pyzotero/") for a in zotero_web.agents)
    assert [m for m, _ in zotero_web.requests] == ["GET", "POST", "POST"]


@pytest.mark.parametrize("collection", [(), ("--collection", "MoE")])  # a write, a read
def test_web_gives_up_on_a_retry_after_too_long_to_wait(cli, zotero_web, collection):
    zotero_web.throttle, zotero_web.retry_after = 1, "3600"
    proc = cli("zotero", "--web", "--feed", str(FEED), "--ids", "2602.20191", *collection)
    assert proc.returncode == 1 and "HTTP 429: too many requests" in proc.stderr
    assert len(zotero_web.requests) == 1 and zotero_web.created() == []


def test_web_unreachable_is_one_line(cli, zotero_web, monkeypatch):
    from support.fakearxiv import closed_port

    monkeypatch.setenv("PAPERTERM_ZOTERO_API_URL", f"http://127.0.0.1:{closed_port()}")
    proc = cli("zotero", "--web", "--feed", str(FEED), "--ids", "2602.20191")
    assert proc.returncode == 1 and "cannot reach the Zotero web API" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") <= 2


@pytest.mark.parametrize(("env", "config", "expected"), [
    ({"ZOTERO_API_KEY": ""}, '[zotero]\nlibrary_id = "475425"\n', "set ZOTERO_API_KEY"),
    ({"ZOTERO_API_KEY": "wrong"}, '[zotero]\nlibrary_id = "475425"\n', "HTTP 403"),
    ({}, "", "set library_id under [zotero]"),
    ({}, '[zotero]\nlibrary_id = "99"\n', "no user library 99"),
    ({}, '[zotero]\nlibrary_id = "475425"\ncollection = "nope"\n', "arXiv inbox, MoE"),
])
def test_web_problems_are_one_clear_line_and_create_nothing(cli, zotero_web, isolated_home,
                                                            monkeypatch, env, config,
                                                            expected):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    isolated_home.config.write_text(config, encoding="utf-8")
    proc = cli("zotero", "--web", "--feed", str(FEED), "--ids", "2602.20191")
    assert proc.returncode == 1 and expected in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") <= 2
    assert zotero_web.created() == []


def test_bad_zotero_config_is_named(cli, isolated_home):
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('[zotero]\nsend_to = "cloud"\n', encoding="utf-8")
    proc = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191")
    assert proc.returncode != 0
    assert "[zotero] key 'send_to': expected one of desktop, web" in proc.stderr


def test_a_paper_goes_to_a_library_once_unless_resent(cli, zotero):
    """Sending the starred papers from cron every morning must not pile up duplicates."""
    first = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191", "2602.20175")
    assert first.returncode == 0 and "sent 2 papers" in first.stderr
    again = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191", "2602.20175",
                "2602.20224")
    assert again.returncode == 0, again.stderr
    assert ("sent 1 paper to Zotero (the collection selected in Zotero); 2 sent there "
            "before, not again (--resend sends them again)") in again.stderr
    assert [i["url"] for i in zotero.items].count("https://arxiv.org/abs/2602.20191") == 1
    assert len(zotero.items) == 3
    calls = len(zotero.calls)
    nothing = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191")
    assert nothing.returncode == 0
    assert "nothing sent to Zotero (desktop): the paper was sent there before" in nothing.stderr
    assert len(zotero.calls) == calls  # Zotero was not even asked
    resent = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191", "--resend")
    assert resent.returncode == 0 and "sent 1 paper to Zotero" in resent.stderr
    assert len(zotero.items) == 4


def test_the_record_is_per_library_and_a_failed_send_records_nothing(cli, zotero_web,
                                                                     zotero, isolated_home):
    assert cli("zotero", "--desktop", "--feed", str(FEED), "--ids", "2602.20191").returncode == 0
    bad = cli("zotero", "--web", "--feed", str(FEED), "--ids", "2602.20191",
              "--collection", "nope")
    assert bad.returncode == 1 and zotero_web.created() == []
    web = cli("zotero", "--web", "--feed", str(FEED), "--ids", "2602.20191")
    assert web.returncode == 0 and "sent 1 paper to Zotero (user library 475425" in web.stderr
    assert [d["url"] for d in zotero_web.created() if d["itemType"] == "preprint"] == [
        "https://arxiv.org/abs/2602.20191"]
    twice = cli("zotero", "--web", "--feed", str(FEED), "--ids", "2602.20191")
    assert "nothing sent to Zotero (user library 475425)" in twice.stderr


def test_a_web_send_stopped_part_way_records_what_it_added(cli, zotero_web):
    """zotero.org failing after the first batch of 50: those 50 exist in the library, so a
    retry must send only the other 10 (it sent all 60 again: 50 duplicates)."""
    ids = [p.id for p in parse_feed(FEED.read_bytes()).papers[:60]]
    zotero_web.posts_before_outage = 1
    first = cli("zotero", "--web", "--feed", str(FEED), "--ids", *ids)
    assert first.returncode == 1 and "Traceback" not in first.stderr
    assert "HTTP 500" in first.stderr
    assert "50 of 60 papers were added first; sending again sends only the other 10" \
        in first.stderr, first.stderr
    assert len(zotero_web.created()) == 50
    zotero_web.posts_before_outage = None
    again = cli("zotero", "--web", "--feed", str(FEED), "--ids", *ids)
    assert again.returncode == 0, again.stderr
    assert "sent 10 papers to Zotero (user library 475425" in again.stderr
    assert "50 sent there before, not again" in again.stderr
    urls = [d["url"] for d in zotero_web.created() if d["itemType"] == "preprint"]
    assert sorted(urls) == sorted(f"https://arxiv.org/abs/{i}" for i in ids)


def test_desktop_saved_but_not_filed_is_recorded_and_said(cli, zotero):
    """saveItems worked, moving them into the collection did not: the items exist (in the
    collection Zotero had selected), so they are recorded and the message says where."""
    zotero.session_down = True
    first = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191", "--collection", "moe")
    assert first.returncode == 1 and "Traceback" not in first.stderr
    assert ("updateSession: HTTP 500; the papers were saved into the collection selected in "
            "Zotero, not moe; they are not sent there again (unless --resend)"
            ) in first.stderr, first.stderr
    zotero.session_down = False
    again = cli("zotero", "--feed", str(FEED), "--ids", "2602.20191", "--collection", "moe")
    assert "nothing sent to Zotero (desktop): the paper was sent there before" in again.stderr
    assert len(zotero.items) == 1


def test_starred_needs_only_the_store_never_the_rss_feed(cli, zotero, fake_arxiv):
    assert cli("score", "--feed", str(FEED), "--scorer", "local").returncode == 0
    assert cli("star", "2602.20191").returncode == 0
    proc = cli("zotero", "--starred")
    assert proc.returncode == 0, proc.stderr
    assert fake_arxiv.requests == []  # arXiv was never asked
    assert "unreachable" not in proc.stderr and "sample" not in proc.stderr
    assert [i["url"] for i in zotero.items] == ["https://arxiv.org/abs/2602.20191"]
