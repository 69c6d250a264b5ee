"""Scores on the day screen: local scores, LLM runs on a worker thread (a fake facade, then
the real engine against a fake server), their messages, stale runs, rescoring, topics."""

from __future__ import annotations

import threading

from paperterm.models import Paper
from paperterm.scoring.halt import Halt
from paperterm.scoring.types import RunSummary, Score
from paperterm.services.scoring import ScoringFinished
from paperterm.settings import ScoringSettings
from paperterm.tui.paper_list import PaperTable


def _no_cache(monkeypatch) -> None:
    import paperterm.scoring as scoring

    monkeypatch.setattr(scoring, "cached_scores", lambda *a, **k: {})


async def test_live_scores_coalesce_and_keep_the_cursor(make_session, make_app, probe, size,
                                                        until, fake_scoring, llm_settings,
                                                        monkeypatch):
    _no_cache(monkeypatch)
    gate = threading.Event()

    def plan(papers, on_scores, on_progress, run, model):
        fake_scoring.hold(gate, run)
        for i in range(0, len(papers), 20):  # 13 batches at once
            on_scores([Score(p.id, p.version, 10 - (i // 20 + k) % 10, 5, f"reason {i + k}",
                             "scored") for k, p in enumerate(papers[i:i + 20])])
        return RunSummary(model=model, total=len(papers), scored=len(papers))

    fake_scoring.plan = plan
    rebuilds = {"n": 0}
    original = PaperTable.set_entries

    def counting(self, entries, **kwargs):
        rebuilds["n"] += 1
        original(self, entries, **kwargs)

    monkeypatch.setattr(PaperTable, "set_entries", counting)
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(fake_scoring.runs) == 1)
        # issue 22: ranked locally meanwhile (provisional, "~"), never a column of "…"
        assert all(p.first_cell(y).startswith("~") for y in range(len(p.rows())))
        assert "scoring" in p.header()
        await pilot.press(*["j"] * 12)
        reading = p.current
        before = rebuilds["n"]
        gate.set()
        await until(pilot, lambda: "scoring" not in p.header())
        assert rebuilds["n"] - before < 13  # coalesced, not one rebuild per batch
        assert p.current is reading and p.cursor_visible()
        rels = [e.relevance for e in p.shown]
        assert None not in rels and rels == sorted(rels, reverse=True)
        assert "reason" in p.meta()
        assert "244 scored" in p.header()  # (a narrow header leaves out "0 cached")


async def test_failed_scores_show_bang_and_reason(make_session, make_app, probe, size, until,
                                                  fake_scoring, llm_settings, monkeypatch):
    _no_cache(monkeypatch)
    gate = threading.Event()

    def plan(papers, on_scores, on_progress, run, model):
        first = papers[0]
        on_scores([Score(first.id, first.version, None, None, "", "unscored",
                         error="the model's answer had no score for it")])
        fake_scoring.hold(gate, run)
        return RunSummary(model=model, stopped="test over")

    fake_scoring.plan = plan
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: fake_scoring.runs)
        first = p.entry(fake_scoring.runs[0].ids[0])
        await until(pilot, lambda: first.status == "failed")
        await pilot.pause()
        assert p.first_cell(0).startswith("~")  # the others: ranked locally meanwhile
        p.to_paper(first.id)  # it keeps its local score, provisional (issue 22)
        await pilot.pause()
        assert p.first_cell(p.row_of(first.id) - int(p.table.scroll_y)).startswith("~")
        assert "answer had no score" in p.meta()
        gate.set()
        await until(pilot, lambda: p.said("Scoring stopped: test over"))
        # issue 10, item 11: what the model did not score keeps a local score, provisional;
        # what the run never sent is "not sent", not "failed"
        await until(pilot, lambda: first.relevance is not None)
        first = p.entry(fake_scoring.runs[0].ids[0])
        assert first.status == "failed" and first.relevance is not None
        never = [e for e in p.day.entries if e is not first]
        assert all(e.status == "unsent" and e.relevance is not None for e in never)
        assert all(p.first_cell(y).startswith("~") for y in range(5))
        assert "not sent" in p.header() and "provisional" in p.header()
        rels = [e.relevance for e in p.shown]
        assert rels == sorted(rels, reverse=True)  # still ranked


async def test_hostile_reason_and_notice(make_session, make_app, probe, size, until,
                                         fake_scoring, llm_settings, monkeypatch):
    _no_cache(monkeypatch)
    fake_scoring.scores_for = lambda paper: (9, 9)

    def plan(papers, on_scores, on_progress, run, model):
        on_scores([Score(p.id, p.version, 9, 9, "[b]great[/b] \x1b[5mfit", "scored")
                   for p in papers])
        return RunSummary(model=model, total=len(papers), scored=len(papers))

    fake_scoring.plan = plan
    app = make_app(make_session(settings=llm_settings,
                                notices=["[red]weekend[/] \x1b[31m no announcements"]))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: "great" in p.meta())
        assert "[b]great[/b] fit" in p.meta() and "\x1b" not in p.meta()
        assert p.said("[red]weekend[/]") and not p.said("\x1b")


async def test_llm_scoring_starts_itself_with_cache_first(make_session, make_app, probe, size,
                                                          until, fake_scoring, llm_settings,
                                                          monkeypatch):
    import paperterm.scoring as scoring

    session = make_session(settings=llm_settings)
    papers = session.day.papers

    def cached(store, asked, topic, settings):
        assert settings.model == llm_settings.model and topic.name == "moe"
        return {p.id: Score(p.id, p.version, 7, 3, "cached reason", "cached")
                for p in asked[:50]}

    monkeypatch.setattr(scoring, "cached_scores", cached)
    gate = threading.Event()
    summary = RunSummary(model=llm_settings.model, prompt_tokens=12000,
                         completion_tokens=3000, cost=0.0123)

    def plan(todo, on_scores, on_progress, run, model):
        fake_scoring.hold(gate, run)
        fake_scoring.in_batches(todo, on_scores, on_progress, run, model)
        summary.total = summary.scored = len(todo)
        return summary

    fake_scoring.plan = plan
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.pause()
        assert all(p.entry(x.id).status == "cached" for x in papers[:50])
        # cached scores as they are, the rest ranked locally meanwhile (issue 22)
        cells = [p.first_cell(y) for y in range(len(p.rows()))]
        assert "7" in cells and all(c == "7" or c.startswith("~") for c in cells), cells
        assert all(p.entry(x.id).status == "queued" for x in papers[50:])
        assert "scoring" in p.header()
        gate.set()
        await until(pilot, lambda: "scoring" not in p.header())
        assert [r.ids for r in fake_scoring.runs] == [[x.id for x in papers[50:]]]
        assert all(p.entry(x.id).relevance == 4 for x in papers[50:])
        header = p.header()
        assert "194 scored, 50 cached" in header
        assert "15.0k tokens" in header and "$0.0123" in header
        assert not p.said("--model")


async def test_scoring_error_and_budget_are_notices(make_session, make_app, probe, size, until,
                                                    fake_scoring, llm_settings, monkeypatch):
    from paperterm.scoring import ScoringError

    _no_cache(monkeypatch)

    def fails(papers, on_scores, on_progress, run, model):
        raise ScoringError("authentication failed: set OPENAI_API_KEY")

    fake_scoring.plan = fails
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: p.said("OPENAI_API_KEY"))
        assert "OPENAI_API_KEY" in p.notices("error")[-1]
        assert all(e.status == "failed" for e in p.day.entries)
        await until(pilot, lambda: p.first_cell(0).startswith("~"))  # ranked, provisionally
        assert "scoring" not in p.header() and "provisional" in p.header()
        assert "the model did not score it" in p.meta() and "provisional" in p.meta()

    def crashes(papers, on_scores, on_progress, run, model):
        raise ValueError("boom")

    fake_scoring.plan = crashes
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: p.said("scoring failed: ValueError: boom"))

    def half(papers, on_scores, on_progress, run, model):
        on_scores([Score(x.id, x.version, 5, 5, "ok", "scored") for x in papers[:10]])
        return RunSummary(model=model, halted=Halt.BUDGET, stopped=(
            "stopped before a request that could exceed the budget of $0.01; spent $0.0092"))

    fake_scoring.plan = half
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)  # issue 22: not "budget reached", nor "stopped: stopped"
        await until(pilot, lambda: p.said("Scoring stopped before a request that could exceed "
                                          "the budget of $0.01; spent $0.0092"))
        assert sum(e.status == "scored" for e in p.day.entries) == 10
        assert sum(e.status == "unsent" for e in p.day.entries) == 234  # not "failed"
        assert "234 not sent" in p.header()


async def test_rescore_local_and_llm(make_session, make_app, probe, size, until, fake_scoring,
                                     monkeypatch):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        before = p.rows()
        await pilot.press("r")
        assert p.rows() == before
        assert "--model" in p.notices()[-1]
        assert fake_scoring.runs == []

    _no_cache(monkeypatch)
    fake_scoring.scores_for = lambda paper: (8, 2)
    failing = {"on": False}

    def plan(papers, on_scores, on_progress, run, model):
        status = "unscored" if failing["on"] else "scored"
        on_scores([Score(x.id, x.version, None if failing["on"] else 8, 2, "llm", status,
                         error="boom" if failing["on"] else None) for x in papers])
        return RunSummary(model=model, total=len(papers))

    fake_scoring.plan = plan
    failing["on"] = True  # the first run fails every paper
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    app = make_app(make_session(settings=ScoringSettings(model="openai/fake")))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: p.first_cell(0).startswith("~")
                    and "scoring" not in p.header())
        assert [len(r.ids) for r in fake_scoring.runs] == [244]
        await pilot.press("slash", *"mixture", "enter")
        shown = len(p.shown)
        failing["on"] = False
        await pilot.press("r")  # only the shown papers are asked again
        await until(pilot, lambda: len(fake_scoring.runs) == 2 and "scoring" not in p.header())
        assert [len(r.ids) for r in fake_scoring.runs] == [244, shown]
        assert all(e.relevance == 8 for e in p.shown)
        assert all(p.first_cell(y) == "8" for y in range(min(shown, len(p.rows()))))


async def _pick_topic(pilot, app, until, name: str) -> None:
    from textual.command import CommandList

    day = app.screen
    await pilot.press("t")
    await until(pilot, lambda: app.screen is not day)
    await pilot.press(*name)
    await until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
    await pilot.press("enter")
    await until(pilot, lambda: app.screen is day)


async def test_switch_topic_with_picker(make_session, make_app, probe, size, until):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        before = {e.id: e.relevance for e in p.day.entries}
        await _pick_topic(pilot, app, until, "agents")
        await until(pilot, lambda: "agents" in p.header())
        assert p.said("Topic: agents")
        after = {e.id: e.relevance for e in p.day.entries}
        assert after != before and all(v is not None for v in after.values())


async def test_a_replaced_run_cannot_paint_over_the_new_one(make_session, make_app, probe, size,
                                                            until, fake_scoring, llm_settings,
                                                            monkeypatch):
    """Switching topic while a run is under way: whatever the old run sends afterwards (its
    scores, progress, its end) is recognised by its worker and dropped."""
    from textual.worker import get_current_worker

    from paperterm.tui.screens.day import DayScreen

    _no_cache(monkeypatch)
    old_gate = threading.Event()
    workers = []

    def plan(papers, on_scores, on_progress, run, model):
        workers.append(get_current_worker())
        if run.topic.name == "moe":  # the first run: blocked until the switch is done
            old_gate.wait(10)
            on_scores([Score(x.id, x.version, 1, 1, "stale", "scored") for x in papers])
            on_progress(RunSummary(model="stale-run", total=999, scored=999))
            return RunSummary(model="stale-run", total=len(papers), scored=len(papers),
                              stopped="stale")
        on_scores([Score(x.id, x.version, 9, 9, "fresh", "scored") for x in papers])
        return RunSummary(model=model, total=len(papers), scored=len(papers))

    fake_scoring.plan = plan
    ended = []  # the workers whose last message (ScoringFinished) the screen has handled
    handle = DayScreen.on_service_event

    def spy(self, message):
        if isinstance(message.event, ScoringFinished):
            ended.append(message.worker)
        handle(self, message)

    monkeypatch.setattr(DayScreen, "on_service_event", spy)
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(fake_scoring.runs) == 1)
        await _pick_topic(pilot, app, until, "agents")
        await until(pilot, lambda: len(ended) == 1 and "scoring" not in p.header())
        assert ended == [workers[1]]
        assert p.first_cell(0) == "9" and "agents" in p.header()
        old_gate.set()  # the old run now sends its scores, progress and end
        await until(pilot, lambda: workers[0] in ended)
        assert all(e.relevance == 9 and e.reason == "fresh" for e in p.day.entries)
        assert p.first_cell(0) == "9"
        assert "stale" not in p.header() and not p.said("stale")
        assert "244 scored" in p.header()


# -- the real engine against a fake OpenAI-compatible server -------------------------------------


async def test_llm_scoring_end_to_end_with_fake_server(make_session, make_app, probe, size,
                                                       until, example_papers, monkeypatch):
    from support.fakellm import Behaviour, FakeLLM, expected_scores

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    papers: list[Paper] = example_papers[:40]
    with FakeLLM() as llm:
        llm.push(Behaviour(), Behaviour(drop=(papers[5].id,)))  # one paper left out
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url,
                                   batch_size=10, concurrency=2)
        app = make_app(make_session(papers, settings=settings))
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: llm.count > 0 and not p.day.scoring, 60)
            assert llm.count >= 4  # 40 papers in batches of 10, plus the re-asked one
            scored = [e for e in p.day.entries if e.relevance is not None]
            assert len(scored) >= 39
            for e in scored:
                assert (e.relevance, e.novelty) == expected_scores(e.id)
            rels = [e.relevance for e in p.shown if e.relevance is not None]
            assert rels == sorted(rels, reverse=True)
            assert "tokens" in p.header()
        # a second start reads everything from the cache: no request at all
        before = llm.count
        app = make_app(make_session(papers, settings=settings))
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await pilot.pause()
            cached = [e for e in p.day.entries if e.status == "cached"]
            assert len(cached) >= 39
            await until(pilot, lambda: not p.day.scoring, 60)
        assert llm.count - before <= 1  # at most the one paper that was left out


async def test_llm_auth_failure_is_a_notice(make_session, make_app, probe, size, until,
                                            example_papers, monkeypatch):
    from support.fakellm import Behaviour, FakeLLM

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLM() as llm:
        llm.default = Behaviour(status=401, error_message="Incorrect API key provided")
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url, batch_size=5)
        app = make_app(make_session(example_papers[:10], settings=settings))
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: llm.count > 0 and not p.day.scoring, 60)
            assert p.notices("error", "warning"), p.notices()
            assert all(e.status == "failed" for e in p.day.entries)
            await until(pilot, lambda: p.first_cell(0).startswith("~"))  # provisional


async def test_quitting_cancels_the_run_under_way(make_session, make_app, size, until,
                                                  fake_scoring, llm_settings, monkeypatch):
    _no_cache(monkeypatch)
    never = threading.Event()

    def plan(papers, on_scores, on_progress, run, model):
        assert not fake_scoring.hold(never, run)  # only the cancel ends it
        on_scores([Score(x.id, x.version, 1, 1, "late", "scored") for x in papers])
        return RunSummary(model=model)

    fake_scoring.plan = plan
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: len(fake_scoring.runs) == 1)
        await pilot.press("q")
    assert app.return_code == 0
    run = fake_scoring.runs[0]
    assert run.cancel is not None and run.cancel.is_set()
    assert run.returned.wait(5)  # and its late messages to the closed app do no harm


async def test_rescore_while_scoring_never_cancels_paid_requests(
        make_session, make_app, probe, size, until, example_papers, monkeypatch):
    """Issue 9, item 12: `r` during a run adds only papers not yet queued (scored when the
    run ends) and never cancels requests in flight."""
    from support.fakellm import Behaviour, FakeLLM

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    papers: list[Paper] = example_papers[:20]
    with FakeLLM(Behaviour(delay=0.6)) as llm:
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url,
                                   batch_size=5, concurrency=2)
        app = make_app(make_session(papers, settings=settings))
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await until(pilot, lambda: llm.count >= 1, 15)
            await pilot.press("r")
            assert p.day.scoring  # the run goes on
            assert "Scoring is running" in p.notices()[-1]
            await until(pilot, lambda: not p.day.scoring, 60)
            assert all(e.relevance is not None for e in p.day.entries)
        assert sorted(llm.requested_ids()) == sorted(x.id for x in papers)  # none paid twice
        assert llm.max_in_flight <= 2


async def test_missing_key_ranks_locally_provisional_without_a_run(
        make_session, make_app, probe, size, until, fake_scoring, monkeypatch):
    """Issue 10, item 11: no key -> said at once, no run, the list ranked by the local
    scorer and labelled provisional."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    _no_cache(monkeypatch)
    app = make_app(make_session(settings=ScoringSettings(model="openai/gpt-4o-mini")))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: p.first_cell(0).startswith("~"))
        assert any("OPENAI_API_KEY is not set" in n for n in p.notices("error"))
        assert fake_scoring.runs == []
        assert "local scorer, provisional (no API key)" in p.header()
        rels = [e.relevance for e in p.shown]
        assert None not in rels and rels == sorted(rels, reverse=True)
        assert "provisional" in p.meta() and "OPENAI_API_KEY" in p.meta()


async def test_ctrl_r_forces_a_rescore_of_the_shown_papers(make_session, make_app, probe,
                                                          size, until, fake_scoring,
                                                          llm_settings, monkeypatch):
    _no_cache(monkeypatch)
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(fake_scoring.runs) == 1 and not p.day.scoring)
        assert not fake_scoring.runs[0].fresh
        fake_scoring.scores_for = lambda paper: (3, 3)
        await pilot.press("slash", *"mixture", "enter")
        shown = [e.id for e in p.shown]
        await pilot.press("ctrl+r")
        await until(pilot, lambda: len(fake_scoring.runs) == 2 and not p.day.scoring)
        run = fake_scoring.runs[1]
        assert run.fresh and sorted(run.ids) == sorted(shown)
        assert all(p.entry(i).relevance == 3 for i in shown)
        assert p.said("cached scores ignored")


async def test_an_api_key_in_the_models_extra_parameters_counts(
        make_session, make_app, probe, size, until, fake_scoring, monkeypatch):
    from paperterm.settings import ModelOptions

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    _no_cache(monkeypatch)
    model = "openai/gpt-4o-mini"
    settings = ScoringSettings(model=model,
                               models={model: ModelOptions(extra={"api_key": "sk-x"})})
    app = make_app(make_session(settings=settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(fake_scoring.runs) == 1 and not p.day.scoring)
        assert not any("is not set" in n for n in p.notices())
