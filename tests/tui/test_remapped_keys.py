"""Remapped keys (issue 22): a key taken from another action is said at start, and a quit
key remapped (even to ctrl+q, Textual's own) keeps its footer hint, right after help."""

from __future__ import annotations

from paperterm.settings.config import Config
from paperterm.tui.compat import FooterKey


def _footer(app) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(k.key_display, k.description) for k in app.screen.query(FooterKey)
            if k.display]


async def test_star_on_s_says_it_took_s_from_sort(make_session, make_app, probe, until):
    app = make_app(make_session(config=Config(keys={"star": "s"})))
    async with app.run_test(size=(80, 24)) as pilot:
        p = probe(app)
        await until(pilot, lambda: p.said("takes 's' from sort"))


async def test_quit_remapped_to_ctrl_q_keeps_its_footer_hint(make_session, make_app, until):
    app = make_app(make_session(config=Config(keys={"quit": "ctrl+q"})))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: len(_footer(app)) > 2)
        assert _footer(app)[:2] == [("?", "Help"), ("^q", "Quit")]
        await pilot.press("ctrl+q")
    assert app.return_code == 0


async def test_quit_remapped_to_another_key_stays_first_at_80_columns(make_session, make_app,
                                                                    until):
    app = make_app(make_session(config=Config(keys={"quit": "Q"})))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: len(_footer(app)) > 2)
        assert _footer(app)[:2] == [("?", "Help"), ("Q", "Quit")]


async def test_ctrl_q_still_quits_from_the_search_box(make_session, make_app, until):
    app = make_app(make_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash", "a")
        await pilot.press("ctrl+q")
    assert app.return_code == 0
