"""`a` in the reader (issue 13, item 6): the current paper's summary in a modal, asked for
on a worker thread through the real engine and litellm to the fake server, then cached."""

from __future__ import annotations

from paperterm.settings import ScoringSettings
from paperterm.tui.screens.summary import SummaryScreen


async def test_a_shows_the_summary_of_the_current_paper(make_session, make_app, probe, size,
                                                       until, example_papers, monkeypatch):
    from support.fakellm import FakeLLM, expected_summary, is_summary_request

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    papers = example_papers[:5]
    with FakeLLM() as llm:
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url, scorer="local")
        app = make_app(make_session(papers, settings=settings))
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await pilot.press("j")
            paper = p.current.paper
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                        and app.screen.text is not None, 60)
            screen = app.screen
            assert screen.text == expected_summary(paper.id)
            body = str(screen.query_one("#summary-body").render())
            assert expected_summary(paper.id)[:30] in body
            asked = [r for r in llm.requests if is_summary_request(r)]
            assert len(asked) == 1 and llm.ids_of(asked[0]) == [paper.id]
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, SummaryScreen))
            # again: from the cache, no request
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                        and app.screen.text is not None, 60)
            assert "cached" in str(app.screen.query_one("#summary-foot").render())
            assert llm.count == 1


async def test_a_without_a_model_says_how_to_get_one(make_session, make_app, probe, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("a")
        await pilot.pause()
        assert not isinstance(app.screen, SummaryScreen)
        assert p.said("Summaries need a model")
