"""The day model without Textual: what shows, in which order, marks from anywhere, and the
observers told once per change."""

from __future__ import annotations

from dataclasses import replace

import pytest

from paperterm.day.listing import FilterState
from paperterm.day.model import DayChange, DayModel, MarkChange
from paperterm.models import Paper


def paper(i: int, title: str, cats: tuple[str, ...] = ("cs.LG",)) -> Paper:
    return Paper(id=f"2602.{i:05d}", version=1, title=title, authors=("A. Author",),
                 abstract=f"abstract {title}", categories=cats, primary_category=cats[0])


@pytest.fixture
def model() -> DayModel:
    m = DayModel.of_papers([paper(1, "Mixture of experts"), paper(2, "Agents that plan"),
                            paper(3, "Bandits", ("stat.ML",))])
    for e, rel in zip(m.entries, (3, 9, 5), strict=True):
        e.set_score(rel, 1, "", "scored")
    return m


def record(model: DayModel) -> list[DayChange]:
    changes: list[DayChange] = []
    model.subscribe(changes.append)
    return changes


def test_a_new_model_shows_every_paper_in_announcement_order(model):
    assert [e.paper.title for e in model.shown] == ["Mixture of experts", "Agents that plan",
                                                     "Bandits"]
    assert model.categories == ["cs.LG", "stat.ML"]
    assert model.by_id["2602.00002"].paper.title == "Agents that plan"


def test_sorting_orders_the_shown_list_and_says_it_was_resorted(model):
    changes = record(model)
    model.set_sort("relevance")  # the default key: recomputed only when asked
    assert changes == []
    model.refilter()
    assert [e.relevance for e in model.shown] == [9, 5, 3]
    model.set_sort("relevance", reverse=True)
    assert [e.relevance for e in model.shown] == [3, 5, 9]
    assert changes[-1] == DayChange(reordered=True, resorted=True)
    model.set_sort("title")
    assert [e.paper.title[0] for e in model.shown] == ["A", "B", "M"]
    assert (model.sort_key, model.reverse) == ("title", False)


def test_filters_narrow_the_shown_list_without_a_resort(model):
    changes = record(model)
    model.set_filters(FilterState(text="agents"))
    assert [e.id for e in model.shown] == ["2602.00002"]
    assert changes == [DayChange(reordered=True, resorted=False)]
    model.set_filters(FilterState(text="agents"))  # the same filters: nothing to tell
    assert len(changes) == 1
    model.set_filters(replace(model.filters, text="", categories=frozenset({"stat.ML"})))
    assert [e.id for e in model.shown] == ["2602.00003"]


def test_marks_from_anywhere_set_the_entries_and_tell_observers_once(model):
    changes = record(model)
    out = model.apply_marks([MarkChange(("2602.00001", "2602.00003"), "starred", True),
                             MarkChange(("2602.00001",), "seen", True),
                             MarkChange(("2602.00002",), "note", "read this"),
                             MarkChange(("2602.00002",), "tags", ("moe", "todo")),
                             MarkChange(("2699.99999",), "starred", True)])  # another day's
    e1, e2, e3 = model.entries
    assert (e1.starred, e1.seen, e3.starred, e2.starred) == (True, True, True, False)
    assert (e2.note, e2.tags) == ("read this", ("moe", "todo"))
    assert len(changes) == 1 and changes[0] is out
    assert out.ids == {"2602.00001", "2602.00002", "2602.00003"}
    assert out.fields == {"starred", "seen", "note", "tags"} and not out.reordered
    assert model.triage_counts() == {"unseen": 2, "starred": 2, "marked": 0}


def test_a_mark_already_set_is_no_change(model):
    changes = record(model)
    model.apply_marks([MarkChange(("2602.00001",), "starred", True)])
    assert model.apply_marks([MarkChange(("2602.00001",), "starred", True)]) is None
    assert len(changes) == 1


def test_a_mark_never_refilters_the_list_under_the_reader(model):
    model.set_filters(FilterState(unseen_only=True))
    assert len(model.shown) == 3
    model.apply_marks([MarkChange(("2602.00001",), "seen", True)])
    assert len(model.shown) == 3  # the row stays until the filters change
    model.refilter()
    assert [e.id for e in model.shown] == ["2602.00002", "2602.00003"]


def test_not_interested_is_kept_per_model_and_can_be_undone(model):
    model.apply_marks([MarkChange(("2602.00002",), "dismissed", True)])
    assert model.dismissed == {"2602.00002"}
    model.apply_marks([MarkChange(("2602.00002",), "dismissed", False)])
    assert model.dismissed == set()


def test_an_unknown_mark_is_an_error(model):
    with pytest.raises(ValueError, match="unknown mark"):
        model.apply_marks([MarkChange(("2602.00001",), "pinned", True)])


def test_unsubscribed_observers_hear_nothing_more(model):
    changes: list[DayChange] = []
    stop = model.subscribe(changes.append)
    model.refilter()
    stop()
    stop()  # twice is harmless
    model.refilter()
    assert len(changes) == 1


# -- the day's state: one owner, every change told once ------------------------------------

def _session():
    from datetime import date
    from pathlib import Path

    from paperterm.day.session import Session
    from paperterm.models import Day, Topic
    from paperterm.settings import ScoringSettings
    from paperterm.settings.config import Config

    papers = [paper(1, "Mixture of experts"), paper(2, "Agents that plan")]
    day = Day(papers=papers, label="2026-02-25", day=date(2026, 2, 25), source="feed")
    return Session(config=Config(), day=day, topic=Topic(name="moe", description="experts"),
                   settings=ScoringSettings(), db_path=Path("unused.sqlite3"),
                   bib_path=Path("unused.bib"))


def test_the_topic_is_the_sessions_and_a_change_is_told_once():
    from paperterm.models import Topic

    m = DayModel.of_session(_session())
    changes = record(m)
    agents = Topic(name="agents", description="planning")
    m.set_topic(agents)
    assert changes == [DayChange(state=frozenset({"topic", "session"}))]
    assert m.topic is agents and m.session.topic is agents  # one copy


def test_a_session_change_is_told_once_and_says_whether_the_topic_changed():
    m = DayModel.of_session(_session())
    changes = record(m)
    topic = m.topic
    new = m.update_session(categories_fixed=True)
    assert new is m.session and new.categories_fixed and m.topic is topic
    assert changes == [DayChange(state=frozenset({"session"}))]


def test_a_model_made_without_a_session_says_so(model):
    with pytest.raises(LookupError):
        _ = model.topic


def test_the_readers_session_changes_only_through_its_owner_which_tells_once():
    from paperterm.day.session import HeldSession

    held = HeldSession(_session())
    told: list = []
    stop = held.subscribe(told.append)
    new = held.update(categories_fixed=True)
    assert held.session is new and new.categories_fixed and told == [new]
    stop()
    held.update(categories_fixed=False)
    assert told == [new] and not held.session.categories_fixed


def test_the_run_state_is_the_models_and_each_change_is_told_once(model):
    from paperterm.scoring.types import RunSummary

    changes = record(model)
    model.set_run(scoring=True, summary=None, scorer_label="openai/gpt-4o-mini")
    assert changes == [DayChange(state=frozenset({"run"}))]
    assert model.run.scoring and model.scorer_label == "openai/gpt-4o-mini"
    model.set_run(scoring=True)  # no change: no news
    assert len(changes) == 1
    progress = RunSummary(model="openai/gpt-4o-mini", total=3)
    model.set_run(summary=progress)
    model.set_run(summary=progress)  # progress again (a run's summary is always news)
    model.set_run(scoring=False)
    assert len(changes) == 4 and model.run.summary is progress and not model.run.scoring


def test_scores_laid_in_place_reorder_the_list_and_are_told_once(model):
    model.set_sort("relevance")
    changes = record(model)
    model.by_id["2602.00001"].set_score(10, 1, "", "scored")  # as score_states lays them
    model.scores_changed(to_top=True)
    assert changes == [DayChange(fields=frozenset({"score"}), reordered=True, resorted=True)]
    assert model.shown[0].id == "2602.00001"
    model.scores_changed(reorder=False)  # the rows repaint, the order stays
    assert changes[-1] == DayChange(fields=frozenset({"score"}))
