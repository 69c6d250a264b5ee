"""`Z` in the reader: the marked papers (or the current one) go to Zotero on a worker thread,
the list staying live meanwhile; failures are a notice."""

from __future__ import annotations

import threading

import pytest
from support.fakezotero import FakeZoteroConnector

from paperterm.settings.config import Config, ZoteroConfig


async def test_z_sends_the_marked_papers_without_blocking_the_list(
        make_session, make_app, probe, size, until, monkeypatch: pytest.MonkeyPatch):
    gate = threading.Event()
    fake = FakeZoteroConnector(gate=gate)
    monkeypatch.setenv("PAPERTERM_ZOTERO_CONNECTOR_URL", fake.url)
    config = Config(zotero=ZoteroConfig(collection="MoE"))
    app = make_app(make_session(config=config))
    try:
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            first, second = p.shown[0], p.shown[1]
            await pilot.press("x", "x", "Z")
            await until(pilot, lambda: [c for c, _ in fake.calls] == ["getSelectedCollection",
                                                                     "saveItems"])
            await pilot.press("j", "j")  # Zotero still busy: the list answers
            assert p.current is p.shown[4]  # marking went on to the third paper
            assert not p.said("Sent 2 papers")
            gate.set()
            await until(pilot, lambda: p.said("Sent 2 papers to Zotero (collection MoE)"))
            assert not first.marked and not second.marked
            # sent in announcement order (as the .bib and RIS exports), not the sort's
            announced = [e.paper.abs_url for e in p.day.model.entries
                         if e is first or e is second]
    finally:
        gate.set()
        fake.close()
    assert [i["url"] for i in fake.items] == announced
    assert len(announced) == 2
    assert list(fake.sessions.values()) == ["C9"]


async def test_z_without_zotero_is_an_error_notice_and_keeps_the_marks(
        make_session, make_app, probe, size, until, monkeypatch: pytest.MonkeyPatch):
    from support.fakearxiv import closed_port

    monkeypatch.setenv("PAPERTERM_ZOTERO_CONNECTOR_URL", f"http://127.0.0.1:{closed_port()}")
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("x", "Z")
        await until(pilot, lambda: p.said("Not sent to Zotero: Zotero is not running"))
        assert p.shown[0].marked
        assert ("error" in [sev for m, sev in app.said if "Not sent" in m])


async def test_z_again_on_a_paper_sent_before_sends_nothing_and_says_so(
        make_session, make_app, probe, size, until, monkeypatch: pytest.MonkeyPatch):
    fake = FakeZoteroConnector()
    monkeypatch.setenv("PAPERTERM_ZOTERO_CONNECTOR_URL", fake.url)
    app = make_app(make_session())
    try:
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            urls = [p.shown[0].paper.abs_url, p.shown[1].paper.abs_url]
            await pilot.press("Z")  # the current paper
            await until(pilot, lambda: p.said("Sent 1 paper to Zotero"))
            await pilot.press("x", "x", "k", "k", "Z")  # it again, and the next one
            await until(pilot, lambda: p.said("Sent 1 paper to Zotero (the collection "
                                              "selected in Zotero); 1 sent there before"))
            await pilot.press("Z")
            await until(pilot, lambda: p.said("Nothing sent to Zotero (desktop): the paper "
                                              "was sent there before"))
    finally:
        fake.close()
    assert [i["url"] for i in fake.items] == urls


async def test_z_stopped_part_way_says_so_and_z_again_does_not_duplicate(
        make_session, make_app, probe, size, until, monkeypatch: pytest.MonkeyPatch):
    fake = FakeZoteroConnector()
    fake.session_down = True  # saved, but not moved into the collection
    monkeypatch.setenv("PAPERTERM_ZOTERO_CONNECTOR_URL", fake.url)
    app = make_app(make_session(config=Config(zotero=ZoteroConfig(collection="MoE"))))
    try:
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await pilot.press("x", "Z")
            await until(pilot, lambda: p.said("Zotero stopped part-way: Zotero connector "
                                              "updateSession: HTTP 500"))
            assert not p.said("Not sent to Zotero")
            assert p.shown[0].marked
            fake.session_down = False
            await pilot.press("Z")
            await until(pilot, lambda: p.said("Nothing sent to Zotero (desktop): the paper "
                                              "was sent there before"))
    finally:
        fake.close()
    assert len(fake.items) == 1
