"""Enrichment in the reader (issue 14, item 4): the Signal column, preview lines, the
upvote and citation sorts and the with-code filter from what is cached; the config's
`enrich` fetching in the background, never with --offline."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import Checkbox

from paperterm.settings.config import Config
from paperterm.sources.loader import LoadRequest
from paperterm.store import Store
from paperterm.tui.filters import FilterScreen

TOP, SECOND = "2602.20175", "2602.20191"


def _cache(session) -> None:  # type: ignore[no-untyped-def]
    store = Store.open(session.db_path)
    cache = store.enrichment
    cache.put_enrichment("hf", {TOP: {"upvotes": 42, "github": "https://github.com/x/moe",
                                      "stars": 310},
                                SECOND: {"upvotes": 3}})
    cache.put_enrichment("s2", {SECOND: {"citations": 17, "h_index": 31, "tldr": "Short."}})
    store.close()


async def test_cached_enrichment_shows_sorts_and_filters(make_session, make_app, probe, size,
                                                         until):
    session = make_session()
    _cache(session)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        assert "Signal" in p.columns()
        for _ in range(10):  # `s` reaches the enrichment sorts once there is enrichment
            if p.day.sort_key == "upvotes":
                break
            await pilot.press("s")
        assert p.day.sort_key == "upvotes"
        # one notice for the burst of `s`, once it ends
        await until(pilot, lambda: p.said("Sorted by Hugging Face upvotes"))
        assert [e.id for e in p.shown[:2]] == [TOP, SECOND]
        assert "⎇ ▲42" in p.row(0) and "▲3 17c" in p.row(1)
        links = p.preview.links_text().plain  # under the abstract, with the links
        assert "▲ 42 upvotes on Hugging Face, ★ 310 GitHub stars" in links
        assert "Code: https://github.com/x/moe" in links
        await pilot.press("s")
        assert p.day.sort_key == "citations" and p.shown[0].id == SECOND
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        app.screen.query_one("#code", Checkbox).value = True
        await pilot.press("ctrl+s")
        await until(pilot, lambda: [e.id for e in p.shown] == [TOP])
        assert "code" in p.header()


async def test_no_enrichment_no_signal_column(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        assert "Signal" not in p.columns() and not p.table.with_signals
        seen = set()
        for _ in range(8):
            await pilot.press("s")
            seen.add(p.day.sort_key)
        assert "upvotes" not in seen and "citations" not in seen


async def test_config_enrich_fetches_in_the_background(make_session, make_app, probe, size,
                                                       until, fake_enrich):
    app = make_app(make_session(config=Config(enrich=["links", "hf", "s2"])))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: p.entry(TOP).signals is not None
                    and p.entry(TOP).signals.citations == 17)
        assert p.entry(TOP).signals.upvotes == 42 and "Signal" in p.columns()
        assert p.entry("2602.20197").signals.code == ("https://github.com/zhh6425/CalibRL",)
    assert fake_enrich.hf_calls and fake_enrich.s2_calls


async def test_config_enrich_offline_asks_no_one(make_session, make_app, probe, size, until,
                                                 fake_enrich):
    session = make_session(config=Config(enrich=["links", "hf", "s2"]))
    session = replace(session, request=LoadRequest(["cs.LG"], ["new"], offline=True))
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: p.entry("2602.20197").signals is not None)
        assert p.entry(TOP).signals is None or p.entry(TOP).signals.upvotes is None
    assert fake_enrich.hf_calls == [] and fake_enrich.s2_calls == []
