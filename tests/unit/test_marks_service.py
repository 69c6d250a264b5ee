"""The marks service (issue 19): one entry point for every mark, each recorded under the topic
it was made under, changes published as `MarkChange`s, undo of the last one, reload of what
another process changed. Real SQLite through the store."""

from __future__ import annotations

import sqlite3

import pytest

from paperterm.day.marks import MarkChange, PaperMarks
from paperterm.scoring.local import rank_locally
from paperterm.services.marks import MarksService
from paperterm.settings.config import Config
from paperterm.store import APP_ID, Store
from paperterm.store.schema import _MIGRATIONS, statements
from paperterm.topics import resolve_topic

DAY = "2026-02-25"


@pytest.fixture
def store(db, day):
    s = Store.open(db)
    s.papers.save_day("cs.LG+cs.AI", None, day, source="test")
    yield s
    s.close()


@pytest.fixture
def published():
    return []


@pytest.fixture
def marks(store, published):
    service = MarksService(store, "moe")
    service.subscribe(published.extend)
    return service


def kinds(store: Store, topic: str) -> dict[str, str]:
    return {e.id: e.kind for e in store.marks.training_examples(topic)}


def test_a_star_is_published_kept_for_every_topic_and_teaches_its_own(store, marks, published,
                                                                     day):
    a, b = day[0].id, day[1].id
    assert marks.star([a, b]) == [MarkChange((a, b), "starred", True)]
    assert published == [MarkChange((a, b), "starred", True)]
    assert store.marks.starred_ids() == {a, b}  # one reading list
    assert kinds(store, "moe") == {a: "starred", b: "starred"}
    assert kinds(store, "agents") == {}
    assert marks.toggle_star([a]) == [MarkChange((a,), "starred", False)]
    assert store.marks.starred_ids() == {b}
    assert marks.marks([a, b]) == {a: PaperMarks(), b: PaperMarks(starred=True)}


def test_unsubscribe_stops_the_calls(store, day):
    got: list[MarkChange] = []
    service = MarksService(store, "moe")
    unsubscribe = service.subscribe(got.extend)
    service.star([day[0].id])
    unsubscribe()
    service.unstar([day[0].id])
    assert got == [MarkChange((day[0].id,), "starred", True)]


def test_undo_a_star_says_what_it_undid_and_publishes_the_reverse(store, marks, published, day):
    pid = day[0].id
    marks.star([pid])
    marks.mark_seen([day[5].id])  # the cursor passing by: not an undo step
    published.clear()
    said = marks.undo()
    assert said is not None
    assert said.startswith(f"Undid: starred {pid} (")
    assert day[0].title.split()[0] in said
    assert published == [MarkChange((pid,), "starred", False)]
    assert store.marks.starred_ids() == set()
    assert marks.undo() is None  # nothing more to undo


def test_undo_an_unstar_gives_the_star_back_under_its_topic(store, marks, day):
    pid = day[0].id
    marks.star([pid])
    marks.switch_topic("agents")
    marks.unstar([pid])
    said = marks.undo()
    assert said is not None and said.startswith(f"Undid: unstarred {pid} (")
    assert store.marks.starred_ids() == {pid}
    assert kinds(store, "moe") == {pid: "starred"}  # still teaches moe, not agents
    assert kinds(store, "agents") == {}


def test_undo_not_interested_and_bulk_seen(store, marks, published, day):
    a, b, c = (p.id for p in day[:3])
    marks.mark_seen([a])  # already seen before the bulk mark: stays seen
    marks.set_dismissed([c], True)
    assert store.marks.dismissed_ids("moe") == {c}
    marks.mark_seen([a, b, c], undoable=True)
    published.clear()
    assert marks.undo() == "Undid: marked 2 papers seen"
    assert published == [MarkChange((b, c), "seen", False)]
    states = store.marks.states([a, b, c])
    assert states[a].seen and not states[b].seen and not states[c].seen
    said = marks.undo()
    assert said is not None and said.startswith(f"Undid: not interested (moe) in {c}")
    assert store.marks.dismissed_ids("moe") == set()
    assert published[-1] == MarkChange((c,), "dismissed", False)


def test_undo_interested_again(store, marks, day):
    pid = day[2].id
    marks.toggle_dismissed([pid])
    marks.toggle_dismissed([pid])
    assert store.marks.dismissed_ids("moe") == set()
    assert marks.undo() is not None
    assert store.marks.dismissed_ids("moe") == {pid}


def test_notes_and_tags_are_published_as_stored(store, marks, published, day):
    pid = day[0].id
    marks.set_note(pid, "first line\r\nsecond  \n")
    marks.set_tags(pid, ["Reading Group", "moe", "moe", " "])
    assert published == [MarkChange((pid,), "note", "first line\nsecond"),
                         MarkChange((pid,), "tags", ("moe", "reading-group"))]
    assert store.marks.note(pid) == "first line\nsecond"
    assert store.marks.tags([pid]) == {pid: ["moe", "reading-group"]}
    # like every mark, each records the topic it was made under
    assert [r[0] for r in store.conn.execute("SELECT topic FROM notes WHERE id=?",
                                             (pid,))] == ["moe"]
    assert {r[0] for r in store.conn.execute("SELECT topic FROM tags WHERE id=?",
                                             (pid,))} == {"moe"}


def test_saved_one_by_one_teaches_the_topic_a_bulk_save_none(store, marks, published, day,
                                                              tmp_path):
    a, b = day[0].id, day[1].id
    marks.mark_saved([(a, "keya")], tmp_path / "refs.bib")
    marks.mark_saved([(b, "keyb")], tmp_path / "refs.bib", one_by_one=False)
    assert published == [MarkChange((a,), "saved", True), MarkChange((b,), "saved", True)]
    states = store.marks.states([a, b])
    assert states[a].saved and states[b].saved
    assert kinds(store, "moe") == {a: "saved"}


def test_reload_publishes_what_another_process_changed(store, marks, published, day, db):
    a, b, c = (p.id for p in day[:3])
    marks.marks([a, b, c])
    marks.star([a])
    published.clear()
    other = Store.open(db)  # another process's connection
    try:
        other.marks.set_starred(a, False)
        other.marks.set_starred(b, True, topic="moe")
        other.marks.set_note(c, "from the CLI")
    finally:
        other.close()
    assert marks.reload([a, b, c]) == published == [
        MarkChange((a,), "starred", False), MarkChange((b,), "starred", True),
        MarkChange((c,), "note", "from the CLI")]
    assert marks.reload([a, b, c]) == []  # nothing new since


def test_writes_go_through_the_given_writer(store, day):
    done: list[str] = []

    def write(what, op):
        done.append(what)
        op(store)

    service = MarksService(store, "moe", write=write)
    service.star([day[0].id])
    service.mark_seen([day[1].id])
    assert [w.split(" (")[0] for w in done] == [f"the star of {day[0].id}", "the seen marks"]
    assert store.marks.starred_ids() == {day[0].id}


def test_stars_under_moe_leave_the_agents_ranking_alone(store, marks, day):
    """The defect: three stars given while reading moe moved the agents ranking (on the old
    code, 192 of the sample day's 244 papers changed value)."""
    agents = resolve_topic("agents", Config()).topic
    moe = resolve_topic("moe", Config()).topic
    before = {s.paper_id: s.fine for s in rank_locally(store, day, agents, day=DAY)}
    moe_before = {s.paper_id: s.fine for s in rank_locally(store, day, moe, day=DAY)}
    experts = [p.id for p in day if "expert" in p.title.lower()][:3]
    assert len(experts) == 3
    marks.star(experts)
    marks.mark_seen(experts)
    after = {s.paper_id: s.fine for s in rank_locally(store, day, agents, day=DAY)}
    assert after == before
    moe_after = {s.paper_id: s.fine for s in rank_locally(store, day, moe, day=DAY)}
    assert sum(moe_after[k] != moe_before[k] for k in moe_before) > 10  # moe did learn


def test_marks_from_before_topics_are_kept_but_teach_no_topic(tmp_path, day):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for script in _MIGRATIONS[:11]:  # a database as schema version 11 left it
        for stmt in statements(script):
            conn.execute(stmt)
    conn.execute("PRAGMA user_version=11")
    conn.execute(f"PRAGMA application_id={APP_ID}")
    a, b = day[0].id, day[1].id
    conn.execute("INSERT INTO user_state (id, starred, seen_at) VALUES (?, 1, 1.0)", (a,))
    conn.execute("INSERT INTO user_state (id, saved_at, bib_key) VALUES (?, 2.0, 'k')", (b,))
    conn.execute("INSERT INTO positives VALUES ('2401.00001', 'bib:x', 'T', 'A', 3.0)")
    conn.close()
    s = Store.open(path)
    try:
        s.papers.save_day("cs.LG+cs.AI", None, day, source="test")
        assert s.marks.starred_ids() == {a}
        assert s.marks.states([b])[b].saved
        assert [p.id for p in s.library.positives("bib:x")] == ["2401.00001"]
        assert kinds(s, "moe") == kinds(s, "agents") == {}
    finally:
        s.close()


def test_undo_reaches_across_a_topic_switch(store, marks, published, day):
    """Switching topic emptied the undo list: a star given under moe could not be taken
    back after `t` (stars are one reading list across topics)."""
    pid, other = day[0].id, day[1].id
    marks.star([pid])
    marks.set_dismissed([other], True)
    marks.switch_topic("agents")
    assert marks.undo() is not None  # not interested (moe), taken back under moe
    assert other not in store.marks.dismissed_ids("moe")
    assert marks.undo() is not None
    assert store.marks.states([pid])[pid].starred is False
    assert published[-1] == MarkChange((pid,), "starred", False)
    assert marks.undo() is None
