"""Issue 32 (low): `t` with a paid model started a full paid run with no estimate. Over
config `confirm_cost`, the switch shows the estimate (papers, tokens, dollars), ranks
locally, and asks: `r` scores with the model."""

from __future__ import annotations

from paperterm.models import Paper
from paperterm.settings import ScoringSettings
from paperterm.settings.config import Config
from paperterm.topics import resolve_topic


async def test_a_costly_topic_switch_shows_the_estimate_and_waits_for_r(
        make_session, make_app, probe, size, until, example_papers, monkeypatch):
    from support.fakellm import FakeLLM

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    papers: list[Paper] = example_papers[:40]
    with FakeLLM() as llm:
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url,
                                   batch_size=10, concurrency=2)
        config = Config(confirm_cost=0.000001)
        app = make_app(make_session(papers, settings=settings, config=config))
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: llm.count > 0 and not p.day.scoring, 60)
            before = llm.count
            p.day.topics.switch(resolve_topic("agents", config).topic)
            await pilot.pause()
            assert llm.count == before and not p.day.scoring  # nothing sent yet
            said = " ".join(text for text, _ in app.said) + p.header_notice()
            assert "would score 40 papers: about" in said and "tokens" in said
            assert "$" in said and "press r to score with the model" in said
            assert all(e.relevance is not None for e in p.day.entries)  # ranked locally
            await pilot.press("r")
            await until(pilot, lambda: llm.count > before and not p.day.scoring, 60)
            assert llm.count >= before + 4
