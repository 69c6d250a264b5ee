"""The theme chosen with `T` is remembered across starts (issue 10, item 16), unless
`--theme` is given or the config's `theme` changed since."""

from __future__ import annotations

from dataclasses import replace

from paperterm.settings.reader_state import state_file


async def test_the_theme_chosen_with_T_is_used_at_the_next_start(make_session, make_app,
                                                                 size, probe, until):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: len(probe(app).shown) > 0)  # the day screen takes keys
        await pilot.press("T")
        await until(pilot, lambda: app.theme != "paperterm-dark")
        chosen = app.theme
        assert chosen != "paperterm-dark"
    assert state_file().is_file()
    again = make_app(make_session())
    async with again.run_test(size=size):
        assert again.theme == chosen
    flagged = make_session()
    flagged = replace(flagged, theme="nord")  # --theme wins over the remembered choice
    app = make_app(flagged)
    async with app.run_test(size=size):
        assert app.theme == "nord"
    session = make_session()
    session = replace(session, config=replace(session.config,  # config edited
                                              theme="paperterm-solarized"))
    app = make_app(session)
    async with app.run_test(size=size):
        assert app.theme == "paperterm-solarized"


async def test_an_unreadable_state_file_is_ignored(make_session, make_app, size, probe,
                                                   until):
    state_file().parent.mkdir(parents=True, exist_ok=True)
    state_file().write_text("{not json", encoding="utf-8")
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        assert app.theme == "paperterm-dark"
        await until(pilot, lambda: len(probe(app).shown) > 0)  # the day screen takes keys
        await pilot.press("T")
        await until(pilot, lambda: app.theme != "paperterm-dark")
    assert app.theme in state_file().read_text(encoding="utf-8")
