"""Problems found by using the reader in a real terminal: narrow screens, an empty day, keys
remapped onto each other, a header that must never hide the scoring cost."""

from __future__ import annotations

import threading

from paperterm.scoring.types import RunSummary, Score
from paperterm.settings.config import Config
from paperterm.tui.help import help_table
from paperterm.tui.paper_list import layout


async def test_header_keeps_progress_tokens_and_cost_on_narrow_screens(
        make_session, make_app, probe, until, fake_scoring, llm_settings, monkeypatch):
    import paperterm.scoring as scoring

    monkeypatch.setattr(scoring, "cached_scores", lambda *a, **k: {})
    gate = threading.Event()

    def plan(papers, on_scores, on_progress, run, model):
        on_progress(RunSummary(model=model, total=244, scored=80, prompt_tokens=26800,
                               cost=0.0054))
        fake_scoring.hold(gate, run)
        on_scores([Score(p.id, p.version, 5, 5, "", "scored") for p in papers])
        return RunSummary(model=model, total=244, scored=244, prompt_tokens=80400,
                          cost=0.0159)

    fake_scoring.plan = plan
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=(80, 24)) as pilot:
        p = probe(app)
        await pilot.press("slash", *"model", "enter")
        await until(pilot, lambda: "80/244" in p.header())
        text = p.header()
        assert "80/244" in text and "26.8k" in text and "$0.0054" in text, text
        assert "moe" in text
        gate.set()
        await until(pilot, lambda: "$0.0159" in p.header())
    fake_scoring.runs.clear()
    gate.clear()
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=(170, 30)) as pilot:  # the long form fits: nothing cut
        p = probe(app)
        gate.set()
        await until(pilot, lambda: "scoring" not in p.header())
        assert p.header().rstrip().endswith("$0.0159")
        assert "244 scored, 0 cached" in p.header()


async def test_header_counts_cached_scores_shown_before_the_run(
        make_session, make_app, probe, until, fake_scoring, llm_settings, monkeypatch):
    import paperterm.scoring as scoring

    monkeypatch.setattr(scoring, "cached_scores", lambda store, papers, *a: {
        p.id: Score(p.id, p.version, 5, 5, "", "cached") for p in papers[:160]})
    fake_scoring.scores_for = lambda paper: (6, 6)
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=(140, 30)) as pilot:
        p = probe(app)
        await until(pilot, lambda: "scoring" not in p.header())
        assert [len(r.ids) for r in fake_scoring.runs] == [84]
        assert "84 scored, 160 cached" in p.header()


async def test_empty_day_explains_itself(make_session, make_app, probe):
    app = make_app(make_session(papers=[], day_notices=["No announcements on weekends."]))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        meta = probe(app).meta()
        assert "No papers" in meta and "weekends" in meta
        assert "No paper matches" not in meta


async def test_columns_fit_a_narrow_terminal(make_session, make_app, probe):
    for width in (60, 80):
        cols = layout(width - 1)
        assert cols[-1][1] + cols[-1][2] <= width - 1, width  # nothing beyond the edge
        assert any(c.key == "marks" for c, _, _ in cols)
        title = next(w for c, _, w in cols if c.key == "title")
        assert title >= 24, (width, title)
    app = make_app(make_session())
    async with app.run_test(size=(60, 20)) as pilot:
        p = probe(app)
        await pilot.press("asterisk")
        assert "★" in p.marks(0)
        assert "Mark" in p.columns()


async def test_remapping_onto_another_actions_key_is_a_notice(make_session, make_app, probe,
                                                              size):
    config = Config(keys={"star": "s"})
    app = make_app(make_session(config=config))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("s")
        assert "★" in p.marks(0) and "sort relevance" in p.header()
        said = " ".join(p.notices())
        assert "sort" in said and "star" in said, said
        rows = {str(r[2]): str(r[0]) for r in _help_rows(app.keymap)}
        assert rows["sort"] == "", rows  # the help no longer claims s sorts
        assert rows["star"] == "s"


def _help_rows(keymap):
    table = help_table(keymap)
    cells = [list(c.cells) for c in table.columns]
    return list(zip(*cells, strict=True))
