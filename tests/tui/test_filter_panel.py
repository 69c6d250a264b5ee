"""The filter panel (`f`, issue 22): enter applies (on a checkbox too), every checkbox and
button shows at 80x24, categories have "only this" and "none", and the panel counts the
papers the filters leave as they change."""

from __future__ import annotations

from textual.widgets import Checkbox, Input, SelectionList

from paperterm.tui.filters import FilterScreen


def _on_screen(screen, selector: str) -> bool:  # type: ignore[no-untyped-def]
    region = screen.query_one(selector).region
    return (region.height > 0 and region.y >= 0
            and region.bottom <= screen.size.height and region.right <= screen.size.width)


async def test_enter_on_a_checkbox_applies_the_filters(make_session, make_app, probe, until):
    app = make_app(make_session())
    async with app.run_test(size=(80, 24)) as pilot:
        p = probe(app)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        panel = app.screen
        starred = panel.query_one("#starred", Checkbox)
        starred.value = True
        starred.focus()
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, FilterScreen))
        assert p.day.filters.starred_only and p.shown == []


async def test_every_checkbox_and_button_shows_at_80x24(make_session, make_app, until):
    app = make_app(make_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        await pilot.pause()
        panel = app.screen
        for selector in ("#unseen", "#new", "#starred", "#code", "#apply", "#clear", "#cancel",
                         "#min-relevance", "#filter-count", "#categories", "#types"):
            assert _on_screen(panel, selector), selector


async def test_the_panel_counts_what_the_filters_leave_as_they_change(
        make_session, make_app, probe, until):
    app = make_app(make_session())
    async with app.run_test(size=(120, 40)) as pilot:
        p = probe(app)
        total = len(p.day.entries)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        panel = app.screen

        def count() -> str:
            return str(panel.query_one("#filter-count").render())

        assert count() == f"{total} of {total} papers match"
        panel.query_one("#min-relevance", Input).value = "7"
        high = sum((e.relevance or 0) >= 7 for e in p.day.entries)
        await until(pilot, lambda: count().startswith(f"{high} of {total}"))
        panel.query_one("#starred", Checkbox).value = True
        await until(pilot, lambda: count() == f"0 of {total} papers match: nothing would show")


async def test_categories_only_this_and_none(make_session, make_app, probe, until):
    app = make_app(make_session())
    async with app.run_test(size=(120, 40)) as pilot:
        p = probe(app)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FilterScreen))
        panel = app.screen
        categories = panel.query_one("#categories", SelectionList)
        categories.focus()
        await pilot.press("down", "down")  # the third category
        third = categories.get_option_at_index(categories.highlighted).value
        await pilot.press("space", "down", "space")  # two ticked
        assert len(categories.selected) == 2
        await pilot.press("up", "o")  # only this one
        assert categories.selected == [third]
        count = str(panel.query_one("#filter-count").render())
        with_it = sum(third in e.paper.categories for e in p.day.entries)
        assert count.startswith(f"{with_it} of ")
        await pilot.press("n")
        assert categories.selected == []
        await pilot.press("o", "enter")  # enter applies from the list
        await until(pilot, lambda: not isinstance(app.screen, FilterScreen))
        assert p.day.filters.categories == {third}
        assert len(p.shown) == with_it
