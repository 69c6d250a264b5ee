"""Problems found by using the reader in a real terminal: narrow screens, an empty day, keys
remapped onto each other, a header that must never hide the scoring cost."""

from __future__ import annotations

from test_tui_app import QuietApp, make_ctx, notices, row_text

from paperterm.config import Config
from paperterm.scoring.types import RunSummary
from paperterm.tui.help import help_table
from paperterm.tui.paper_list import layout


def topbar(app) -> str:
    """The header line as the terminal shows it: cut at the screen's width."""
    bar = app.query_one("#topbar")
    return bar.render().plain[: bar.size.width]


async def test_header_keeps_progress_tokens_and_cost_on_narrow_screens(tmp_path):
    app = QuietApp(make_ctx(tmp_path), autoscore=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash", *"model", "enter")
        app.scoring = True
        app.summary = RunSummary(model="openai/gpt-4o-mini", total=244, scored=80,
                                 prompt_tokens=26800, cost=0.0054)
        app.update_header()
        await pilot.pause()
        text = topbar(app)
        assert "80/244" in text and "26.8k" in text and "$0.0054" in text, text
        assert "moe" in text
        app.scoring = False
        app.summary = RunSummary(model="openai/gpt-4o-mini", total=244, scored=244,
                                 prompt_tokens=80400, cost=0.0159)
        app.update_header()
        await pilot.pause()
        assert "$0.0159" in topbar(app)
    app = QuietApp(make_ctx(tmp_path), autoscore=False)
    async with app.run_test(size=(140, 30)) as pilot:  # the long form fits: nothing cut
        app.summary = RunSummary(model="openai/gpt-4o-mini", total=244, scored=244,
                                 prompt_tokens=80400, cost=0.0159)
        app.update_header()
        await pilot.pause()
        assert topbar(app).rstrip().endswith("$0.0159")


async def test_header_counts_cached_scores_shown_before_the_run(tmp_path):
    app = QuietApp(make_ctx(tmp_path), autoscore=False)
    async with app.run_test(size=(140, 30)) as pilot:
        for e in app.entries[:160]:
            e.set_score(5, 5, "", "cached")
        for e in app.entries[160:]:
            e.set_score(6, 6, "", "scored")
        app.summary = RunSummary(model="m", total=84, scored=84)
        app.update_header()
        await pilot.pause()
        assert "84 scored, 160 cached" in topbar(app)


async def test_empty_day_explains_itself(tmp_path):
    app = QuietApp(make_ctx(tmp_path, papers=[], day_notices=["No announcements on weekends."]))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        meta = app.preview.meta_text().plain
        assert "No papers" in meta and "weekends" in meta
        assert "No paper matches" not in meta


async def test_columns_fit_a_narrow_terminal(tmp_path):
    for width in (60, 80):
        cols = layout(width - 1)
        assert cols[-1][1] + cols[-1][2] <= width - 1, width  # nothing beyond the edge
        assert any(c.key == "marks" for c, _, _ in cols)
        title = next(w for c, _, w in cols if c.key == "title")
        assert title >= 24, (width, title)
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("asterisk")
        assert "★" in row_text(app, 0)
        header = app.query_one("#columns").render().plain
        assert "Marks" in header or "★" in header


async def test_remapping_onto_another_actions_key_is_a_notice(tmp_path):
    config = Config(keys={"star": "s"})
    app = QuietApp(make_ctx(tmp_path, config=config))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("s")
        assert app.current.starred and app.sort_key == "relevance"
        said = " ".join(notices(app))
        assert "sort" in said and "star" in said, said
        rows = {str(r[2]): str(r[0]) for r in _help_rows(app.keymap)}
        assert rows["sort"] == "", rows  # the help no longer claims s sorts
        assert rows["star"] == "s"


def _help_rows(keymap):
    table = help_table(keymap)
    cells = [list(c.cells) for c in table.columns]
    return list(zip(*cells, strict=True))
