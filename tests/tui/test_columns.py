"""The list's columns give the title the width (issue 10, item 12): no empty novelty column,
short type and marks, categories never cut mid-name (whole, or their archive and "…"), the
title at least 45% of 80 columns."""

from __future__ import annotations

from dataclasses import replace

from paperterm.tui.columns import CAT_MAX, Shape, category_label, layout


def widths(cols) -> dict[str, int]:
    return {c.key: w for c, _x, w in cols}


def test_the_title_gets_45_percent_of_80_columns_in_every_shape():
    for shape in (Shape(), Shape(novelty=False), Shape(cat_width=5),
                  Shape(novelty=True, cat_width=15), Shape(novelty=False, cat_width=15)):
        cols = layout(79, shape)  # 80 columns less the scrollbar
        assert widths(cols)["title"] >= 0.45 * 80, (shape, widths(cols))
        end = cols[-1][1] + cols[-1][2]
        assert end <= 79, shape
        assert {"rel", "title", "marks"} <= set(widths(cols)), shape


def test_no_novelty_column_without_novelty_scores():
    assert "nov" not in widths(layout(120, Shape(novelty=False)))
    assert "nov" in widths(layout(120, Shape(novelty=True)))


def test_category_column_fits_the_longest_name_or_goes():
    w = widths(layout(120, Shape(cat_width=15)))
    assert w["cat"] == 15
    assert all(w.get("cat", 15) == 15 for w in
               (widths(layout(n, Shape(cat_width=15))) for n in range(40, 130)))


async def test_local_scores_show_no_novelty_column_and_full_categories(make_session, make_app,
                                                                       probe, example_papers):
    papers = list(example_papers)
    papers[0] = replace(papers[0], primary_category="physics.comp-ph",
                        categories=("physics.comp-ph",))
    app = make_app(make_session(papers))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        p = probe(app)
        header = p.columns()
        assert "Nov" not in header and "Title" in header  # local scorer: no novelty
        cols = {c.key: (x, w) for c, x, w in p.table.columns()}
        assert cols["title"][1] >= 36
        row = p.row_of(papers[0].id)
        p.table.move_to(row)
        await pilot.pause()
        y = row - int(p.table.scroll_y)
        if "cat" in cols:  # too long for the column: its archive, a whole word, and "…"
            x, w = cols["cat"]
            assert p.row(y)[x:x + w].strip() == "physics…"
            assert w <= CAT_MAX  # one long name does not widen the column for all
        assert "physics.com…" not in p.row(y)
        assert "physics.comp-ph" in p.meta()  # in full in the preview


async def test_novelty_column_shows_when_the_model_scores(make_session, make_app, probe,
                                                          fake_scoring, llm_settings, until):
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=(80, 24)) as pilot:
        p = probe(app)
        await until(pilot, lambda: fake_scoring.runs and not p.day.scoring)
        assert "Nov" in p.columns()
        assert next(w for c, _x, w in p.table.columns() if c.key == "title") >= 36


async def test_footer_keys_that_do_not_fit_whole_are_hidden(make_session, make_app):
    from paperterm.tui.compat import FooterKey

    app = make_app(make_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = list(app.screen.query(FooterKey))
        palette = next(k for k in keys if k.has_class("-command-palette"))
        shown = [k for k in keys if k.display and k is not palette]
        assert len(shown) >= 4 and len(shown) < len(keys) - 1
        for k in shown:  # each whole, left of the palette key
            assert k.region.right <= palette.region.x, k.description
        await pilot.resize_terminal(140, 24)
        await pilot.pause()
        # the everyday keys, but undo: it shows once there is a mark to take back
        wide_only = {"library_search", "starred_view", "previous_day", "next_day",
                     "not_interested"}
        assert all(k.display for k in app.screen.query(FooterKey)
                   if k.action != "app.undo" and k.action not in wide_only)
        await pilot.resize_terminal(200, 24)
        await pilot.pause()
        # every key (the library's and the days' too, issue 32), but undo
        assert all(k.display for k in app.screen.query(FooterKey) if k.action != "app.undo")


async def test_the_footer_shows_not_interested_where_it_has_room(make_session, make_app,
                                                                 until):
    """A new-user walk: `d` (not interested) never showed in the footer, even at 200
    columns. It shows last, once every other key does; never instead of one. (Waits for
    the footer's layout: under load one pause was not enough for its keys to have a
    width.)"""
    from paperterm.tui.compat import FooterKey

    def shown(app) -> list[str]:
        return [f"{k.key_display} {k.description}" for k in app.screen.query(FooterKey)
                if k.display and k.region.width]

    app = make_app(make_session())
    async with app.run_test(size=(200, 24)) as pilot:
        await until(pilot, lambda: "t Topic" in shown(app), what="the footer laid out")
        await until(pilot, lambda: "d Not interested" in shown(app),
                    what="`d` in the footer at 200 columns")
        await pilot.resize_terminal(120, 24)
        await until(pilot, lambda: "d Not interested" not in shown(app)
                    and "t Topic" in shown(app), what="`d` gone at 120 columns, `t` kept")


def test_a_long_category_shows_whole_or_as_its_archive_with_an_ellipsis():
    assert category_label("cs.LG", 9) == "cs.LG" and category_label("astro-ph", 9) == "astro-ph"
    assert category_label("cond-mat.mtrl-sci", 17) == "cond-mat.mtrl-sci"
    assert category_label("cond-mat.mtrl-sci", 10) == "cond-mat…"
    assert category_label("physics.comp-ph", 8) == "physics…"


async def test_the_footer_is_rebuilt_only_when_its_keys_change(make_session, make_app, probe,
                                                               until):
    """Textual rebuilt every footer key on each bindings signal (three identical rebuilds
    while the reader started)."""
    from paperterm.tui.compat import FooterKey

    app = make_app(make_session())
    async with app.run_test(size=(140, 24)) as pilot:
        await pilot.pause()
        before = list(app.screen.query(FooterKey))
        for _ in range(3):
            app.screen.refresh_bindings()
            await pilot.pause()
        assert list(app.screen.query(FooterKey)) == before  # the same widgets, not rebuilt
        await pilot.press("slash")  # typing a search: the list's keys are not shown
        await until(pilot, lambda: len(app.screen.query(FooterKey)) < len(before))
        await pilot.press("escape")
        await until(pilot, lambda: [k.description for k in app.screen.query(FooterKey)]
                    == [k.description for k in before])


async def test_long_categories_show_whole_or_with_an_ellipsis_and_sorting_marks_the_column(
        make_session, make_app, probe, example_papers):
    """Sorted by category at 100 and 200 columns, "astro-ph.IM" showed as "astro-ph" and
    "cond-mat.mtrl-sci" as "cond-mat", with no "…": two categories read as one."""
    papers = list(example_papers)
    for i, name in enumerate(("astro-ph.IM", "cond-mat.mtrl-sci", "astro-ph.CO")):
        papers[i] = replace(papers[i], primary_category=name, categories=(name,))
    app = make_app(make_session(papers))
    async with app.run_test(size=(100, 30)) as pilot:
        p = probe(app)
        for _ in range(10):
            if p.day.query_one("#columns").sort_key == "category":
                break
            await pilot.press("s")
            await pilot.pause()
        assert p.day.query_one("#columns").sort_key == "category"
        for size in (100, 200):
            await pilot.resize_terminal(size, 30)
            await pilot.pause()
            cols = {c.key: (x, w) for c, x, w in p.table.columns()}
            x, w = cols["cat"]
            header = p.columns()
            assert header[x:x + w].rstrip()[-1] in "▲▼", (size, header[x:x + w])
            shown = {p.row(y)[x:x + w].strip() for y in range(len(p.table.entries))}
            if size == 200:
                assert {"astro-ph.IM", "astro-ph.CO", "cond-mat.mtrl-sci"} <= shown
            else:
                assert "astro-ph" not in shown and "cond-mat" not in shown, shown
                assert {"astro-ph.IM", "astro-ph.CO"} <= shown or "astro-ph…" in shown
