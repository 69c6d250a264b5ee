"""What the app itself owns: themes, the key map, the help screen, the command palette,
notices at start, the store's lifetime, quitting."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.command import CommandList
from textual.widgets import Footer

from paperterm.settings.config import Config
from paperterm.tui.bindings import ALL_KEYS
from paperterm.tui.compat import FooterKey
from paperterm.tui.help import HelpScreen
from paperterm.tui.screens.day import DayScreen

ROOT = Path(__file__).resolve().parents[2]


async def test_the_day_screen_is_pushed_on_mount(make_session, make_app, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, DayScreen)
        assert app.focused is app.screen.query_one("#papers")
        assert app.store.available  # opened by the app for the screens


async def test_cycle_theme_and_builtin(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        assert app.theme == "paperterm-dark"
        names = app.theme_cycle()
        assert {"paperterm-dark", "paperterm-light", "paperterm-solarized"} <= set(names)
        assert "nord" in names  # Textual's own themes too
        await pilot.press("T")
        assert app.theme == names[1]
        assert probe(app).said(f"Theme: {names[1]}")
    session = make_session()
    session = replace(session, theme="nord")
    app = make_app(session)
    async with app.run_test(size=size):
        assert app.theme == "nord"
        # Textual's record of the variables in use holds the readable colours applied
        # (review: they were returned but no longer kept there)
        kept = dict(app.theme_variables)
        assert app.get_css_variables()["score-high"]
        assert kept == app.get_css_variables()


async def test_broken_theme_file_is_a_notice(make_session, make_app, probe, size, tmp_path):
    cfg_dir = tmp_path / "cfg"
    (cfg_dir / "themes").mkdir(parents=True)
    (cfg_dir / "themes" / "broken.toml").write_text("name = [unclosed", encoding="utf-8")
    (cfg_dir / "themes" / "mine.toml").write_text(
        (ROOT / "themes" / "paperterm-light.toml").read_text(encoding="utf-8").replace(
            'name = "paperterm-light"', 'name = "mine"'), encoding="utf-8")
    config = Config(theme="broken", path=cfg_dir / "config.toml")
    app = make_app(make_session(config=config))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        assert app.theme == "paperterm-dark"
        assert p.said("broken.toml") and p.said("theme 'broken' not found")
        assert "mine" in app.theme_cycle()


async def test_startup_notices_come_in_order(make_session, make_app, probe, size, until):
    config = Config(keys={"nonsense": "y"})
    app = make_app(make_session(config=config, notices=["from the session"],
                                day_notices=["from the day"]))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(p.notices()) >= 4)
        said = p.notices()
        assert said[0] == "from the day" and said[1] == "from the session"
        assert "unknown action 'nonsense'" in said[2]
        assert said[3].startswith("For LLM scoring: --model")


async def test_an_unusable_database_is_a_notice_and_the_reader_still_works(
        make_session, make_app, probe, size, tmp_path):
    session = make_session()
    session = replace(session, db_path=tmp_path / "no-such-dir" / "file-not-dir")
    session.db_path.parent.write_text("a file where a folder should be", encoding="utf-8")
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        assert not app.store.available
        assert p.said("Stars and seen marks will not be kept")
        await pilot.press("asterisk")  # a star that cannot be kept is not shown as made
        await pilot.pause()
        assert "★" not in p.marks(0)  # (issue 31 item 11)
        assert p.said("Not saved")
        await pilot.press("j")  # the reader still works
        assert p.current is p.shown[1]


async def test_command_palette_runs_actions(make_session, make_app, probe, size, until):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)

        async def run(words: str) -> None:
            await pilot.press("ctrl+p")
            await until(pilot, lambda: app.screen is not p.day)
            await pilot.press(*words)
            await until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is p.day)

        await run("star / unstar")
        await until(pilot, lambda: "★" in p.marks(0))
        await run("last paper")
        await until(pilot, lambda: p.table.cursor == 243)
        await run("quit paperterm")
    assert app.return_code == 0


async def test_palette_provider_lists_every_action(make_session, make_app, size):
    from paperterm.tui.commands import EVALUATE, PapertermCommands

    app = make_app(make_session())
    async with app.run_test(size=size):
        provider = PapertermCommands(app.screen)
        hits = [h async for h in provider.discover()]
        assert [h.text for h in hits] == [k.help for k in ALL_KEYS] + [EVALUATE]
        assert all(h.help.startswith("key: ") for h in hits)


async def test_the_palette_shows_bracketed_text_as_written(make_session, make_app, size,
                                                          until):
    """The Zotero entry read "desktop or web ()": its "[zotero]" was taken for markup."""
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        day = app.screen
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen is not day)
        await pilot.press(*"zotero")
        commands = app.screen.query_one(CommandList)
        await until(pilot, lambda: commands.option_count > 0)
        shown = [str(commands.get_option_at_index(i).prompt) for i in
                 range(commands.option_count)]
        assert any("desktop or web ([zotero])" in text for text in shown), shown
        assert not any("()" in text for text in shown)


async def test_help_scrolls_with_jk_and_its_scrollbar_covers_no_key(make_session, make_app,
                                                                    until):
    app = make_app(make_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        box = app.screen.query_one("#help-box")
        table = app.screen.query_one("#help-table")
        await pilot.pause()
        assert box.show_vertical_scrollbar
        assert table.region.right <= box.vertical_scrollbar.region.x
        assert box.styles.scrollbar_gutter == "stable"  # no reflow when the bar comes
        await pilot.press("j", "j", "j")
        await until(pilot, lambda: box.scroll_y == 3)
        await pilot.press("k")
        await until(pilot, lambda: box.scroll_y == 2)
        await pilot.press("G")  # to the end and back, as in the list
        await until(pilot, lambda: box.scroll_y == box.max_scroll_y > 3)
        await pilot.press("g")
        await until(pilot, lambda: box.scroll_y == 0)


async def test_help_lists_every_binding_and_closes(make_session, make_app, size, until):
    app = make_app(make_session(config=Config(keys={"star": "z"})))
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        table = app.screen.table
        keys = [str(c) for c in table.columns[0].cells]
        actions = [str(c) for c in table.columns[1].cells]
        for spec in ALL_KEYS:
            assert spec.help in actions, spec.help
        star_help = next(s.help for s in ALL_KEYS if s.id == "star")
        assert "z" in keys[actions.index(star_help)]
        assert "ctrl+p" in keys and "j" in keys[actions.index("Next paper")]
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen))


async def test_keys_remap_from_config(make_session, make_app, probe, size):
    config = Config(keys={"star": "z", "down": "n", "nonsense": "y"})
    app = make_app(make_session(config=config))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("n")
        assert p.table.cursor == 1
        await pilot.press("z")
        assert "★" in p.marks(1)
        await pilot.press("asterisk")  # no longer bound
        assert "★" in p.marks(1)
        assert p.said("unknown action 'nonsense'")


async def test_quit(make_session, make_app, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.press("q")
    assert app.return_code == 0
    assert app.store.closed  # closed with the app


async def test_footer_keeps_help_and_quit_on_an_80_column_terminal(make_session, make_app,
                                                                  until):
    app = make_app(make_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        assert footer.compact

        def labels() -> str:  # the keys laid out within the 80 columns
            return " ".join(f"{w.key_display} {w.description}" for w in footer.query(FooterKey)
                            if w.region.width and w.region.right <= 80)

        # waits for the footer's layout (one pause was not always enough under load)
        await until(pilot, lambda: "Help" in labels() and "Quit" in labels(),
                    what="help and quit in the 80-column footer")
        await pilot.resize_terminal(140, 30)
        await until(pilot, lambda: not footer.compact, what="the footer no longer compact")
        # resized while a dialog is open: the day screen catches up when it is back
        day = app.screen
        await pilot.press("question_mark")
        await until(pilot, lambda: app.screen is not day)
        await pilot.resize_terminal(80, 24)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is day and footer.compact)


async def test_the_llm_hint_shows_on_the_first_starts_only(make_session, make_app, probe,
                                                           size, until):
    """The hint toast covered half the abstract at 80x24 for ten seconds on every start."""
    from paperterm.settings.reader_state import HINT_STARTS

    shown = []
    for _ in range(HINT_STARTS + 2):
        app = make_app(make_session())
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda ws=app.workers: all(  # the count is written
                w.is_finished for w in ws if w.name == "hint"))
            shown.append(any(n.startswith("For LLM scoring: --model")
                             for n in p.notices()))
    assert shown == [True] * HINT_STARTS + [False, False]
