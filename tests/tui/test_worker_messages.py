"""The workers' messages: a burst of a run's progress, queued before the reader gets to it,
collapses to the newest (`Message.can_replace`); a replaced run's progress never stands in
for the current run's."""

from __future__ import annotations

import threading

from paperterm.scoring.types import RunSummary
from paperterm.services.scoring import ScoresArrived, ScoringFinished, ScoringProgress
from paperterm.tui.messages import ServiceEvent, StoreChanged


def _progress(worker: threading.Thread, scored: int) -> ServiceEvent:
    return ServiceEvent(worker, ScoringProgress(RunSummary(model="openai/fake-model",
                                                           total=244, scored=scored)))


def test_progress_replaces_only_the_same_runs_progress() -> None:
    run, other = threading.Thread(), threading.Thread()
    older = _progress(run, 1)
    assert older.can_replace(_progress(run, 2))
    assert not older.can_replace(_progress(other, 2))  # another run's totals are not ours
    assert not older.can_replace(ServiceEvent(run, ScoresArrived([])))
    assert not older.can_replace(StoreChanged(run))
    end = ServiceEvent(run, ScoringFinished(RunSummary(model="m")))
    assert not end.can_replace(ServiceEvent(run, ScoringFinished(RunSummary(model="m"))))
    assert StoreChanged(run).can_replace(StoreChanged(run))


async def test_a_burst_of_progress_shows_the_newest(make_session, make_app, probe, size,
                                                     until, fake_scoring, llm_settings,
                                                     monkeypatch):
    import paperterm.scoring as scoring
    from paperterm.tui.screens.day import DayScreen

    monkeypatch.setattr(scoring, "cached_scores", lambda *a, **k: {})
    gate = threading.Event()

    def plan(papers, on_scores, on_progress, run, model):
        fake_scoring.hold(gate, run)  # the run stays under way while the burst is handled
        return RunSummary(model=model, total=len(papers), scored=len(papers))

    fake_scoring.plan = plan
    seen: list[int] = []
    handle = DayScreen.on_service_event

    def spy(self, message):
        if isinstance(message.event, ScoringProgress):
            seen.append(message.event.summary.scored)
        handle(self, message)

    monkeypatch.setattr(DayScreen, "on_service_event", spy)
    app = make_app(make_session(settings=llm_settings))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(fake_scoring.runs) == 1)
        screen = p.day
        worker = screen.scorer._worker
        assert worker is not None
        burst = 50
        for n in range(1, burst + 1):  # all queued before the screen handles one
            screen.post_message(ServiceEvent(worker, ScoringProgress(
                RunSummary(model="openai/fake-model", total=244, scored=n))))
        await until(pilot, lambda: burst in seen)
        assert len(seen) < burst
        assert seen[-1] == burst
        assert screen.model.run.summary is not None
        assert screen.model.run.summary.scored == burst
        await until(pilot, lambda: f"scoring {burst}/244" in p.header())
        gate.set()
        await until(pilot, lambda: "scoring" not in p.header())
