"""Repeats in the reader (issue 23): a paper announced on an earlier day keeps its star and
note, shows as seen, is not counted as new in the header; "new to me" hides it; a
near-duplicate under another id says where it was announced."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from support.feedbuild import day_rows, rss

from paperterm.sources.feeds import parse_feed
from paperterm.store import Store

FEED = "cs.AI+cs.LG"


async def test_a_paper_seen_on_an_earlier_day_keeps_its_marks_and_is_not_new(
        make_session, make_app, probe, size, until, tmp_path):
    rows = day_rows("2026-02-25")
    again, twin = rows[0], rows[1]
    # 02-20: the first listing of `again` (starred, noted) and of `twin` under another id
    store = Store.open(tmp_path / "db.sqlite3")
    earlier = [{**again}, {**twin, "id": "2602.10001"}]
    store.papers.save_day(FEED, date(2026, 2, 20), parse_feed(rss(date(2026, 2, 20),
                                                                  earlier)).papers,
                          source="rss")
    store.marks.set_starred(again["id"], True)
    store.marks.set_note(again["id"], "compare with the v1 results")
    store.close()
    papers = parse_feed(rss(date(2026, 2, 25), rows)).papers
    app = make_app(make_session(papers), autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.to_paper(again["id"])
        await until(pilot, lambda: p.preview.entry is not None
                    and p.preview.entry.id == again["id"])
        mark = p.marks(p.table.cursor - int(p.table.scroll_y))
        assert "★" in mark and "•" not in mark  # starred, and shown as seen
        assert "note: compare with the v1 results" in p.meta()
        assert "also announced 02-20" in p.meta()
        assert f"{len(papers) - 2} unseen" in p.header()  # neither counts as new
        p.to_paper(twin["id"])
        await until(pilot, lambda: p.preview.entry is not None
                    and p.preview.entry.id == twin["id"])
        assert "also announced 02-20 as 2602.10001" in p.meta()
        model = p.day.model
        model.set_filters(replace(model.filters, new_only=True))
        await until(pilot, lambda: len(p.shown) == len(papers) - 2)
        assert {again["id"], twin["id"]}.isdisjoint(e.id for e in p.shown)
        assert "new to me" in p.header()


async def test_the_filter_dialog_offers_new_to_me_at_80_columns(make_session, make_app,
                                                                  probe, until):
    from textual.widgets import Checkbox

    from paperterm.tui.filters import FilterScreen

    app = make_app(make_session(), autoscore=False)
    async with app.run_test(size=(80, 24)) as pilot:
        p = probe(app)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        box = app.screen.query_one("#new", Checkbox)
        await until(pilot, lambda: box.region.width > 0, what="the filter panel laid out")
        region = box.region
        assert region.right <= 80 and "New to me" in str(box.label)
        box.value = True
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, FilterScreen))
        assert p.day.model.filters.new_only and len(p.shown) == 244  # nothing seen yet


async def test_a_near_duplicate_in_the_same_view_is_folded_into_one_row(
        make_session, make_app, probe, size, until, tmp_path):
    rows = day_rows("2026-02-25")[:20]
    twin = rows[1]
    first = {**twin, "id": "2602.10001"}
    store = Store.open(tmp_path / "db.sqlite3")
    earlier = parse_feed(rss(date(2026, 2, 20), [first])).papers
    store.papers.save_day(FEED, date(2026, 2, 20), earlier, source="rss")
    later = parse_feed(rss(date(2026, 2, 25), rows)).papers
    store.papers.save_day(FEED, date(2026, 2, 25), later, source="rss")
    store.close()
    session = make_session([*earlier, *later])
    session.day.paper_days = {"2602.10001": "2026-02-20"} | {p.id: "2026-02-25" for p in later}
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(p.shown) == 20)
        shown = {e.id for e in p.shown}
        assert "2602.10001" in shown and twin["id"] not in shown
