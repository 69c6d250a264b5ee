"""The first ranked view shows the top of the ranking (issue 10, item 1): until the user moves,
and after a re-rank (scores finished, sort change, topic switch)."""

from __future__ import annotations

import paperterm.scoring as scoring


def _no_cache(monkeypatch) -> None:
    monkeypatch.setattr(scoring, "cached_scores", lambda *a, **k: {})


async def test_after_llm_scoring_finishes_the_top_paper_is_shown(
        make_session, make_app, probe, size, until, fake_scoring, llm_settings, monkeypatch):
    _no_cache(monkeypatch)
    # the first paper in announcement order (where the cursor starts) scores lowest
    fake_scoring.scores_for = lambda p: (1, 1) if p.id == first_id else (10 - hash(p.id) % 9,
                                                                        5)
    app = make_app(make_session(settings=llm_settings))
    first_id = app.session.day.papers[0].id
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: not p.day.scoring and len(fake_scoring.runs) == 1
                    and all(e.relevance is not None for e in p.shown))  # every score shown
        await pilot.pause()
        top = max(e.relevance for e in p.shown)
        assert p.table.cursor == 0 and int(p.table.scroll_y) == 0
        assert p.current.relevance == top
        assert p.first_cell(0) == str(top)
        assert p.current.id != first_id


async def test_once_the_user_moves_the_cursor_stays_on_the_paper(
        make_session, make_app, probe, size, until, fake_scoring, llm_settings, monkeypatch):
    _no_cache(monkeypatch)
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("j", "j")
        reading = p.current
        await until(pilot, lambda: not p.day.scoring and len(fake_scoring.runs) == 1
                    and all(e.relevance is not None for e in p.shown))  # every score shown
        await pilot.pause()
        assert p.current is reading


async def test_sort_change_and_topic_switch_go_to_the_top(make_session, make_app, probe, size,
                                                          until):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("pagedown", "pagedown", "j")
        assert p.table.cursor > 0
        await pilot.press("s")
        assert p.table.cursor == 0 and int(p.table.scroll_y) == 0
        await pilot.press("pagedown", "S")
        assert p.table.cursor == 0 and int(p.table.scroll_y) == 0
        await pilot.press("pagedown", "j")
        from paperterm.topics import resolve_topic

        p.day.switch_topic(resolve_topic("agents", app.session.config).topic)
        await pilot.pause()
        assert p.table.cursor == 0 and int(p.table.scroll_y) == 0
