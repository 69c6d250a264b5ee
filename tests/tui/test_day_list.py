"""The day screen's list: launch, moving, the preview, sorting, filtering, hostile text."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual import events
from textual.widgets import Checkbox, Input, SelectionList

from paperterm.day.listing import SORT_KEYS, SORT_LABELS
from paperterm.store import Store
from paperterm.text.sort_text import title_key
from paperterm.tui.filters import FilterScreen
from paperterm.tui.screens.day import DayScreen

# -- launch ------------------------------------------------------------------------------------


async def test_launch_local_scorer_ranks_and_says_how_to_enable_llm(make_session, make_app,
                                                                    probe, size):
    app = make_app(make_session(day_notices=["arXiv unreachable: showing the cache"],
                                source="cache"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        assert len(p.shown) == 244
        rels = [e.relevance for e in p.shown]
        assert all(r is not None for r in rels)
        assert rels == sorted(rels, reverse=True)
        assert p.first_cell(0) == str(rels[0])  # the best paper is drawn first
        header = p.header()
        assert "moe" in header and "2026-02-25" in header and "[cached]" in header
        assert "244/244" in header and "sort relevance" in header and "local scorer" in header
        assert p.said("--model openai/gpt-4o-mini") and p.said("arXiv unreachable")
        assert p.current is p.shown[0]
        assert p.preview.entry is p.shown[0]


async def test_movement_keys(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        t = p.table
        await pilot.press("j", "j", "down")
        assert t.cursor == 3
        await pilot.press("k", "up")
        assert t.cursor == 1
        await pilot.press("G")
        assert t.cursor == 243 and p.cursor_visible()
        await pilot.press("g")
        assert t.cursor == 0 and t.scroll_y == 0
        await pilot.press("pagedown")
        page = t.cursor
        assert page > 5 and p.cursor_visible()
        await pilot.press("pagedown", "pageup")
        assert t.cursor == page
        await pilot.press("end")
        assert t.cursor == 243
        await pilot.press("home")
        assert t.cursor == 0
        await pilot.press("j")
        assert p.preview.entry is p.shown[1]


async def test_click_row_moves_cursor(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.click("#papers", offset=(10, 4))
        assert probe(app).table.cursor == 4


async def test_expand_collapse_abstract_and_tab_focus(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        long = max(p.shown, key=lambda e: len(e.paper.abstract))
        p.to_paper(long.id)
        await pilot.pause()
        pv = p.preview
        assert pv.entry is long
        assert pv.collapsible and not pv.expanded
        assert pv.query_one("#pv-abstract").has_class("collapsed")
        await pilot.press("enter")
        assert pv.expanded and not pv.query_one("#pv-abstract").has_class("collapsed")
        await pilot.press("space")
        assert not pv.expanded
        await pilot.press("tab")
        assert app.focused is pv
        await pilot.press("space")  # works from the preview too
        assert pv.expanded
        await pilot.press("tab")
        assert app.focused is p.table
        await pilot.press("j")  # another paper starts collapsed
        assert not pv.expanded


async def test_inline_tex_readable(make_session, make_app, probe, example_papers, size):
    papers = example_papers
    papers[0] = replace(papers[0], title="Good$\\to$Minor in $O(N^2)$ with $\\alpha$-nets",
                        abstract="We use $\\alpha=0.5$ and $\\mathcal{O}(n)$ memory.")
    app = make_app(make_session(papers))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.to_paper(papers[0].id)
        await pilot.pause()
        assert "Good→Minor in O(N²) with α-nets" in p.meta()
        assert "α=0.5" in p.abstract() and "𝒪(n)" in p.abstract()


# -- sorting ------------------------------------------------------------------------------


async def test_sort_cycle_reverse_and_cursor_goes_to_the_top(make_session, make_app, probe,
                                                              size, until):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        seen_keys = []
        offered = [k for k in SORT_KEYS if k not in ("novelty", "combined")]  # local scorer
        for _ in offered:
            await pilot.press("pagedown", "j")  # moved off the top, the view scrolled
            await pilot.press("s")
            seen_keys.append(p.day.sort_key)
            assert f"sort {SORT_LABELS[p.day.sort_key]}" in p.header()
            # a re-rank: the top of the new order shows (issue 10, item 1)
            assert p.current is p.shown[0] and int(p.table.scroll_y) == 0
        assert set(seen_keys) == set(offered)
        assert p.day.sort_key == "relevance"
        assert "sort relevance ▼" in p.header() and "Rel▼" in p.columns()
        await pilot.press("s")  # title: A-Z is ascending
        assert p.day.sort_key == "title" and "Title▲" in p.columns()
        assert "sort title ▲" in p.header()
        keys = [title_key(e.paper.title) for e in p.shown]
        assert keys == sorted(keys)
        await pilot.press("S")
        assert p.day.reverse and "sort title ▼" in p.header() and "Title▼" in p.columns()
        assert [title_key(e.paper.title) for e in p.shown] == sorted(keys, reverse=True)
        assert p.current is p.shown[0] and p.cursor_visible()
        await pilot.press("s", "s")  # order of announcement, no longer reversed
        assert p.day.sort_key == "order" and not p.day.reverse
        assert [e.order for e in p.shown] == list(range(244))
        assert "sort announcement order ▲" in p.header()


async def test_a_burst_of_sort_keys_gives_one_notice(make_session, make_app, probe, size,
                                                    until, monkeypatch):
    # the keys stop coming when the test says so (the pending notice's timer is fired), not
    # after a delay a loaded machine could exceed between two keys of the burst
    monkeypatch.setattr(DayScreen, "SORT_NOTICE_DELAY", 3600.0)
    app = make_app(make_session())

    def keys_stop() -> None:
        sorting = p.day.sorting
        assert sorting._notice_timer is not None, "no notice pending after the sort keys"
        sorting._notice_timer.stop()
        sorting._say()

    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("s", "S")  # title (no novelty sorts with the local scorer), reversed
        assert not p.said("Sorted by")  # nothing during the burst
        keys_stop()
        await until(pilot, lambda: p.said("Sorted by"))
        sorted_notices = [m for m in p.notices() if m.startswith("Sorted by")]
        assert sorted_notices == ["Sorted by title ▼"]
        await pilot.press("s")
        keys_stop()
        await until(pilot, lambda: len([m for m in p.notices() if "Sorted by" in m]) == 2)
        assert p.notices()[-1] == "Sorted by category ▲"


async def test_header_click_sorts_and_toggles(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        xs = {c.key: x for c, x, _ in p.table.columns()}
        await pilot.click("#columns", offset=(xs["title"] + 1, 0))
        assert p.day.sort_key == "title" and not p.day.reverse
        await pilot.click("#columns", offset=(xs["title"] + 1, 0))
        assert p.day.sort_key == "title" and p.day.reverse
        await pilot.click("#columns", offset=(xs["cat"] + 1, 0))
        assert p.day.sort_key == "category" and not p.day.reverse
        cats = [e.paper.primary_category for e in p.shown]
        assert cats == sorted(cats)
        await pilot.click("#columns", offset=(xs["rel"] + 1, 0))
        assert p.day.sort_key == "relevance" and "sort relevance" in p.header()


# -- filters ------------------------------------------------------------------------------


async def test_text_filter_live_and_escape_clears(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("slash")
        assert app.focused.id == "search"
        await pilot.press(*"mixture")
        n_mixture = len(p.shown)
        assert 0 < n_mixture < 244
        assert all("mixture" in e.search for e in p.shown)
        assert f"{n_mixture}/244" in p.header()
        await pilot.press("space", *"experts")
        assert len(p.shown) <= n_mixture
        assert all("mixture" in e.search and "experts" in e.search for e in p.shown)
        assert '"mixture experts"' in p.header()
        await pilot.press("escape")
        assert len(p.shown) == 244 and p.day.filters.text == "" and p.search_value() == ""
        assert "filter:" not in p.header()
        assert app.focused is p.table
        # author names are searched too
        author = p.day.entries[5].paper.authors[-1]
        await pilot.press("slash", *author.split()[-1].lower(), "enter")
        assert p.day.entries[5] in p.shown
        assert app.focused is p.table
        await pilot.press("escape")
        assert len(p.shown) == 244


async def test_filter_panel_combined_with_text(make_session, make_app, probe, size, until):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("slash", *"model", "enter")
        by_text = len(p.shown)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        screen = app.screen
        screen.query_one("#min-relevance", Input).value = "3"
        screen.query_one("#types", SelectionList).select("new")
        screen.query_one("#categories", SelectionList).select("cs.LG")
        screen.query_one("#starred", Checkbox).value = False
        await pilot.click("#apply")
        await until(pilot, lambda: not isinstance(app.screen, FilterScreen))
        f = p.day.filters
        assert f.min_relevance == 3 and f.announce_types == {"new"} and f.text == "model"
        assert 0 < len(p.shown) < by_text
        for e in p.shown:
            assert e.relevance >= 3 and e.paper.announce_type == "new"
            assert "cs.LG" in e.paper.categories and "model" in e.search
        header = p.header()
        assert "rel≥3" in header and "type new" in header and "cat cs.LG" in header
        # starred only
        await pilot.press("asterisk")
        starred = p.current
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        app.screen.query_one("#starred", Checkbox).value = True
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, FilterScreen))
        assert p.shown == [starred]
        assert "1/244" in p.header()
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        await pilot.click("#clear")
        await until(pilot, lambda: not isinstance(app.screen, FilterScreen))
        assert p.day.filters.min_relevance is None and not p.day.filters.starred_only
        assert p.day.filters.text == "model" and len(p.shown) == by_text
        # escape in the panel cancels
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, FilterScreen))
        assert len(p.shown) == by_text


async def test_unseen_only_filter(make_session, make_app, probe, example_papers, size, until):
    session = make_session()
    store = Store(session.db_path)
    store.marks.mark_seen([p.id for p in example_papers[:10]])  # read on an earlier start
    store.close()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        assert sum(e.seen for e in p.day.entries) == 10
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        app.screen.query_one("#unseen", Checkbox).value = True
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, FilterScreen))
        assert len(p.shown) == 234 and all(not e.seen for e in p.shown)
        assert "unseen" in p.header() and "234/244" in p.header()
        assert all("•" in p.marks(y) for y in range(len(p.rows())))  # all drawn are unseen


async def test_empty_day_and_no_matches(make_session, make_app, probe, size):
    app = make_app(make_session(papers=[], day_notices=["No announcements on weekends."]))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("j", "enter", "asterisk", "x", "b", "o", "c", "s", "r")
        assert p.current is None
        assert "0/0" in p.header()
        assert p.said("weekends")
        assert not (app.session.bib_path).exists()
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("slash", *"zzzqqqxxx")
        assert p.shown == [] and p.current is None
        assert "No paper matches" in p.meta()
        await pilot.press("escape")
        assert p.current is not None


@pytest.mark.parametrize("n", [5000])
async def test_five_thousand_rows_filter_and_sort(make_session, make_app, probe, until,
                                                  example_papers, size, n):
    papers = [replace(example_papers[i % 244], id=f"2602.{i:05d}") for i in range(n)]
    app = make_app(make_session(papers))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        assert len(p.shown) == n
        # a big day is ranked in the background; the final ranking keeps the cursor's paper
        await until(pilot, lambda: "ranking" not in p.header(), 60)
        await pilot.press("G")
        assert p.table.cursor == n - 1 and p.cursor_visible()
        await pilot.press("s", "slash", *"expert", "escape")
        assert len(p.shown) == n and p.day.sort_key == "title"


# -- hostile text and fast typing -------------------------------------------------------------


async def test_hostile_text_is_literal(make_session, make_app, probe, hostile_papers, size):
    papers = hostile_papers
    app = make_app(make_session(papers))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.to_paper(papers[0].id)
        await pilot.pause()
        cell = p.row(p.table.cursor - int(p.table.scroll_y))
        assert "[bold red]x[/] [link=http://e]y z" in cell
        assert "\x1b" not in cell and "[i]Mallory" in cell
        meta = p.meta()
        assert "[bold red]x[/] [link=http://e]y z" in meta
        assert "[i]Mallory, Eve [/]" in meta
        assert "\x1b" not in meta and "\x07" not in meta and "pwned" not in meta
        abstract = p.abstract()
        assert "[blink]markup[/blink]" in abstract and "unmatched [ bracket" in abstract
        assert not any(ch in abstract for ch in "\x1b\x07\x9b")
        # no cell of the row carries a hostile style or link
        for seg in p.table.render_line(p.table.cursor - int(p.table.scroll_y)):
            assert seg.style is None or not seg.style.link
        svg = app.export_screenshot()
        assert "[bold red]x[/]" in svg.replace("&#160;", " ")
        await pilot.press("slash", *"mallory", "enter")
        assert p.shown == [p.entry(papers[0].id)]


async def test_keys_typed_right_after_slash_go_to_the_search_box(make_session, make_app, probe,
                                                                 size, until):
    """A fast typist's keys are queued before "/" is handled: none may reach the list
    (where "b" would save and "q" would quit)."""
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        for ch in "/mobiquant":
            app.post_message(events.Key("slash" if ch == "/" else ch, ch))
        await until(pilot, lambda: p.search_value() == "mobiquant")
        assert app.is_running
        assert [e.paper.id for e in p.shown] == ["2602.20191"]
        assert not app.session.bib_path.exists()
        # "/" inside the search box is text, not a new search
        await pilot.press("slash")
        assert p.search_value() == "mobiquant/"


async def test_keys_typed_right_after_enter_in_the_search_box_go_to_the_list(
        make_session, make_app, probe, size, until):
    """`/ word enter j x` typed in one burst: enter keeps the filter and hands the keys that
    follow to the list (they were queued before enter was handled)."""
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        await pilot.press("slash", *"quantization")
        await until(pilot, lambda: len(p.shown) < 244)
        shown = len(p.shown)
        for key, ch in (("enter", "\r"), ("j", "j"), ("x", "x")):
            app.post_message(events.Key(key, ch))
        await until(pilot, lambda: len(p.shown) > 1 and p.shown[1].marked)
        assert p.search_value() == "quantization"
        assert len(p.shown) == shown
        assert app.focused is p.table
        assert p.table.cursor == 2  # marking the second paper went on to the third
        assert p.marks(1).startswith("+") and not p.marks(0).startswith("+")
