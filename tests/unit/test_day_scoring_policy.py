"""The day's scoring policy without Textual (`day.scoring.DayScoring`): which job's events
count, cached first and the rest queued, the queued -> scored / failed / unsent transitions,
local stand-ins, a stale ranking taught again, and rescore-later."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from paperterm.day.model import DayChange, DayModel
from paperterm.day.scoring import LOCAL, LOCAL_RANKING, DayScoring
from paperterm.models import Paper
from paperterm.scoring.halt import Halt
from paperterm.scoring.types import RunSummary, Score


def paper(i: int) -> Paper:
    return Paper(id=f"2602.{i:05d}", version=1, title=f"Paper {i}", authors=("A. Author",),
                 abstract="abstract", categories=("cs.LG",), primary_category="cs.LG")


PAPERS = [paper(i) for i in range(1, 5)]
IDS = [p.id for p in PAPERS]
TOPIC = SimpleNamespace(name="moe")  # compared by identity only


def score(i: int, relevance: int | None, status: str = "scored", **kw: object) -> Score:
    return Score(IDS[i], 1, relevance, 1 if relevance is not None else None, "why",
                 status, **kw)  # type: ignore[arg-type]


def make(use_llm: bool = True) -> tuple[DayScoring[object], DayModel, list[DayChange]]:
    model = DayModel.of_papers(PAPERS)
    model._session = SimpleNamespace(  # type: ignore[assignment]
        topic=TOPIC, settings=SimpleNamespace(use_llm=use_llm))
    changes: list[DayChange] = []
    model.subscribe(changes.append)
    return DayScoring(model), model, changes


def statuses(model: DayModel) -> list[str]:
    return [model.by_id[i].status for i in IDS]


def test_only_the_run_under_way_counts_and_a_cancelled_one_is_forgotten():
    day, model, _ = make()
    first, second = object(), object()
    day.run_started(first)
    assert model.run.scoring and day.counts(first)
    day.run_started(second)  # a replacing run: the first one's late events are dropped
    assert not day.counts(first) and day.counts(second)
    day.run_cancelled()
    assert not model.run.scoring and not day.counts(second)


def test_cached_scores_show_first_and_only_the_rest_is_queued():
    day, model, _ = make()
    todo = day.show_cached(PAPERS, {IDS[0]: score(0, 8)})
    assert [p.id for p in todo] == IDS[1:]
    day.queue(todo)
    assert statuses(model) == ["cached", "queued", "queued", "queued"]
    assert model.by_id[IDS[0]].relevance == 8


def test_scores_wait_for_the_flush_and_a_failure_never_hides_a_score():
    day, model, changes = make()
    day.queue(PAPERS)
    day.scores_arrived([score(0, 7)])
    assert statuses(model)[0] == "queued" and not changes  # nothing until the flush
    day.scores_arrived([score(1, 5), score(0, None, "unscored", error="boom")])
    assert day.flush()
    assert statuses(model)[:2] == ["scored", "scored"]  # the later failure hides nothing
    assert model.by_id[IDS[0]].relevance == 7
    assert changes[-1].reordered  # sorted by relevance: the order may change
    assert not day.flush()  # nothing pending: no repaint


def test_a_flush_keeps_the_order_when_the_sort_cannot_depend_on_scores():
    day, model, changes = make()
    model.sort_key = "title"
    day.scores_arrived([score(0, 7)])
    assert day.flush()
    assert changes[-1] == DayChange(fields=frozenset({"score"}), reordered=False)


def test_progress_counts_only_while_a_run_is_under_way():
    day, model, _ = make()
    day.progress(RunSummary(model="m", scored=3))
    assert model.run.summary is None
    day.run_started(object())
    day.progress(RunSummary(model="m", scored=3))
    assert model.run.summary is not None and model.run.summary.scored == 3


def test_a_failed_run_shows_what_it_scored_and_fails_the_rest():
    day, model, _ = make()
    day.queue(PAPERS)
    day.run_started(job := object())
    day.scores_arrived([score(0, 9)])
    day.failed("auth failed")
    assert statuses(model) == ["scored", "failed", "failed", "failed"]
    assert model.by_id[IDS[1]].error == "auth failed"
    assert not model.run.scoring and not day.counts(job)
    assert day.provisional_needed("the model could not score")
    assert model.run.scorer_label == "local scorer, provisional (the model could not score)"


def test_a_finished_run_fails_what_it_did_not_report_and_says_the_prefilter():
    day, model, _ = make()
    day.queue(PAPERS)
    day.run_started(object())
    day.scores_arrived([score(0, 9), score(1, 2)])
    end = day.finished(RunSummary(model="m", prefiltered=2, saved_tokens=1234,
                                  notices=["a note"]))
    assert statuses(model) == ["scored", "scored", "failed", "failed"]
    assert model.by_id[IDS[2]].error == "no score returned"
    assert end.notes == [
        ("Prefilter: 2 papers not sent (local score shown), about 1,234 tokens saved",
         "information", 8), ("a note", "warning", None)]
    assert model.run.summary is not None and not model.run.scoring


def test_a_soft_halt_leaves_the_papers_never_sent_unsent():
    day, model, _ = make()
    day.queue(PAPERS)
    stopped = "budget of $0.01 reached"
    end = day.finished(RunSummary(model="m", stopped=stopped, halted=Halt.BUDGET))
    assert statuses(model) == ["unsent"] * 4
    assert end.notes == [(f"Scoring {stopped}", "warning", 12)]


def test_rescore_later_adds_only_papers_without_a_model_score_and_runs_them_at_the_end():
    day, _, _ = make()
    day.show_cached(PAPERS, {IDS[0]: score(0, 8)})
    day.show_local([score(1, 4, "scored")])
    day.queue([PAPERS[2]])
    said = day.rescore_later(PAPERS)  # 0 cached, 1 local, 2 queued, 3 unscored
    assert said == "Scoring is running (1 papers queued): 2 more will be scored when it finishes."
    day.rescore_later(PAPERS)  # asked twice: each paper once
    assert [p.id for p in day.rescore_next] == [IDS[1], IDS[3]]
    end = day.finished(RunSummary(model="m"))
    assert [p.id for p in end.later] == [IDS[1], IDS[3]]
    assert day.rescore_next == []
    assert day.rescore_later([PAPERS[0]]) == "Scoring is running: 0 papers queued."


def test_a_halted_run_does_not_score_the_papers_asked_for_later():
    day, _, _ = make()
    day.rescore_later(PAPERS)
    end = day.finished(RunSummary(model="m", stopped="cancelled", halted=Halt.CANCELLED))
    assert end.later == [] and day.rescore_next == []


def test_a_local_ranking_counts_only_from_the_ranking_followed_and_only_when_new():
    day, model, changes = make(use_llm=False)
    day.rank_job = job = object()
    scores = [score(i, 9 - i, "local", fine=float(9 - i)) for i in range(4)]
    assert not day.ranked(object(), TOPIC, scores)  # a replaced ranking
    assert not day.ranked(job, SimpleNamespace(), scores)  # another topic
    assert not day.ranked(job, TOPIC, None)
    assert day.ranked(job, TOPIC, scores)
    assert statuses(model) == ["local"] * 4 and model.run.scorer_label == LOCAL
    n = len(changes)
    assert not day.ranked(job, TOPIC, scores)  # nothing new: the rows stay
    assert len(changes) == n


def test_with_a_model_a_local_ranking_never_replaces_the_scores():
    day, model, _ = make(use_llm=True)
    day.rank_job = job = object()
    assert not day.ranked(job, TOPIC, [score(0, 9, "local")])
    assert not day.stale(job, TOPIC)
    assert statuses(model)[0] == "none"


def test_a_stale_blend_is_ranked_again_only_for_the_ranking_followed():
    day, model, _ = make(use_llm=False)
    day.rank_job = job = object()
    assert not day.stale(object(), TOPIC)
    assert not day.stale(job, SimpleNamespace())
    assert day.stale(job, TOPIC)
    assert model.run.scorer_label == LOCAL_RANKING


def test_stand_ins_are_laid_under_queued_papers_from_the_stand_in_ranking_followed():
    day, model, changes = make()
    day.queue(PAPERS)
    day.provisional_job = job = object()
    local = [score(i, 6, "local", fine=6.0) for i in range(4)]
    assert not day.provisional(object(), TOPIC, local, to_top=lambda: True)
    assert not day.provisional(job, TOPIC, None, to_top=lambda: True)
    assert day.provisional(job, TOPIC, local, to_top=lambda: True)
    assert statuses(model) == ["queued"] * 4  # the status stays: only the value is laid
    assert model.by_id[IDS[0]].relevance == 6
    assert changes[-1].resorted
    # the same again: no change, and the cursor is not asked about
    assert not day.provisional(job, TOPIC, local, to_top=lambda: pytest.fail("asked"))


def test_no_provisional_ranking_when_every_paper_was_scored():
    day, model, _ = make()
    day.show_cached(PAPERS, {i: Score(i, 1, 5, 1, "", "cached") for i in IDS})
    assert not day.provisional_needed("not all scored by the model")
    assert model.run.scorer_label == ""


def test_a_key_missing_fails_the_papers_to_send_with_the_reason():
    day, model, _ = make()
    day.cannot_send(PAPERS[1:], "no API key")
    assert statuses(model) == ["none", "failed", "failed", "failed"]
    assert model.by_id[IDS[1]].error == "no API key"


def test_a_topic_switch_forgets_jobs_pending_scores_and_rescore_later():
    day, model, _ = make()
    day.show_cached(PAPERS, {IDS[0]: score(0, 8)})
    day.rank_job = day.provisional_job = object()
    day.scores_arrived([score(1, 3)])
    day.rescore_later(PAPERS)
    day.switch_topic()
    assert (day.rank_job, day.provisional_job, day.pending, day.rescore_next) == (
        None, None, [], [])
    assert statuses(model) == ["none"] * 4
    assert not day.flush()


@pytest.mark.parametrize("status", ["local", "prefilter"])
def test_queued_replaces_a_local_or_prefilter_value_but_not_a_model_score(status):
    day, model, _ = make()
    model.by_id[IDS[0]].set_score(3, None, "", status)
    model.by_id[IDS[1]].set_score(7, 2, "", "scored")
    day.queue(PAPERS[:2])
    assert statuses(model)[:2] == ["queued", "scored"]
