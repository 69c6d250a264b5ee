"""Issue 32 item 1, on screen: after a budget stop the reader's list shows the papers the
model did not reach with their local value ("~7") in the order `score --json` and the
digest rank them (`day.scores.local_stand_ins`, `default_ranks`)."""

from __future__ import annotations

from paperterm.day.scores import default_ranks, local_stand_ins
from paperterm.scoring.types import Score
from paperterm.settings import ScoringSettings
from paperterm.store import Store


async def test_after_a_budget_stop_the_list_is_in_the_one_order(
        make_session, make_app, probe, size, until, example_papers, monkeypatch):
    from support.fakellm import FakeLLM

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    papers = example_papers[:60]
    with FakeLLM() as llm:
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url,
                                   budget=0.000001)
        session = make_session(papers, settings=settings)
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: not p.day.scoring and all(
                e.relevance is not None for e in p.day.entries), 60)
            assert llm.count == 0  # the budget stopped it before any request
            shown = [e.id for e in p.shown]
            cells = [p.first_cell(y) for y in range(5)]
    assert all(c.startswith("~") for c in cells)  # said to be local, as `score_from` says
    store = Store.open(session.db_path)
    try:
        unscored = {x.id: Score(x.id, x.version, None, None, "", "unscored", "budget")
                    for x in papers}
        kept = local_stand_ins(store, papers, session.topic, unscored, day=session.day.label)
    finally:
        store.close()
    ranks = default_ranks(papers, list(kept.values()))
    assert shown == sorted(ranks, key=ranks.__getitem__)


async def test_after_a_budget_stop_the_list_shows_the_day_s_blend(
        make_session, make_app, probe, size, until, example_papers, monkeypatch,
        embedding_model):
    """The stand-in the list shows is the day's blend (`stand_in_ranking`, what `score
    --json` prints), not the keyword-only score."""
    from support.fakellm import FakeLLM

    from paperterm.scoring.local import rank_locally

    monkeypatch.setenv("PAPERTERM_LOCAL_RANKING", "thread")  # the real model, in this process
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    papers = example_papers[:60]
    with FakeLLM() as llm:
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url,
                                   budget=0.000001)
        session = make_session(papers, settings=settings)
        store = Store.unavailable("none: the reader ranks the day itself, from a worker")
        try:
            # what the same day shows without a model (`day.scores.stand_in_ranking`)
            blend = {s.paper_id: s.relevance for s in rank_locally(
                store, papers, session.topic, day=session.day.label) or []}
            keywords = {s.paper_id: s.relevance for s in rank_locally(
                store, papers, session.topic, day=session.day.label, keywords_only=True)
                or []}
        finally:
            store.close()
        assert blend != keywords  # else this test tells nothing
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: not p.day.scoring and {
                e.id: e.relevance for e in p.day.entries} == blend, 60)
            assert {e.status for e in p.day.entries} == {"unsent"}
