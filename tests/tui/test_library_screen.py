"""The library in the reader (issue 11): search over every cached day, the Starred view,
similar papers and the note editor, driven with Pilot against a real SQLite cache."""

from __future__ import annotations

from support.olderday import older_day
from support.waiting import until_the_clock_moves

from paperterm.store import Store
from paperterm.tui.screens.library import LibraryScreen
from paperterm.tui.screens.note_editor import NoteEditor


async def test_search_screen_finds_papers_of_other_days_and_stars_them(
        make_session, make_app, size, until):
    session = make_session()
    older_day(session.db_path)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.press("F")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        await pilot.press(*"larvae")
        await until(pilot, lambda: len(screen.hits) == 2)
        assert screen.hits[0].paper.id == "2602.00001"  # the title match ranks first
        assert screen.hits[0].day == "2026-02-02"
        detail = str(screen.query_one("#library-detail").render())
        assert "Ada Lovelace" in detail and "zebrafish" in detail
        await pilot.press("enter", "asterisk")  # focus the results, star the first
        assert "2602.00001" in app.store.marks.starred_ids()
        await pilot.press("escape")
        assert not isinstance(app.screen, LibraryScreen)
        await pilot.press("L")  # the Starred view: every day
        starred = app.screen
        assert isinstance(starred, LibraryScreen)
        assert [h.paper.id for h in starred.hits] == ["2602.00001"]
        await pilot.press("m")  # similar to the starred paper
        similar = app.screen
        assert isinstance(similar, LibraryScreen) and similar.mode == "similar"
        assert [h.paper.id for h in similar.hits][:1] == ["2602.00002"]


async def test_note_editor_saves_note_and_tags_that_search_then_finds(
        make_session, make_app, size, until):
    session = make_session()
    store = Store.open(session.db_path)  # the loader caches the day it shows
    store.papers.save_day("cs.AI+cs.LG", session.day.day, session.day.papers, source="feed")
    store.close()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        pid = app.screen.current.id  # type: ignore[attr-defined]
        await pilot.press("n")
        assert isinstance(app.screen, NoteEditor)
        await pilot.press(*"okapi idea", "enter", *"second line")
        app.screen.query_one("#note-tags").value = "Reading Group"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, NoteEditor))
        assert app.store.marks.note(pid) == "okapi idea\nsecond line"
        assert app.store.marks.tags([pid]) == {pid: ["reading-group"]}
        await pilot.press("F", *"okapi")
        await until(pilot, lambda: [h.paper.id for h in app.screen.hits] == [pid])


async def test_similar_shows_the_score_of_the_current_model_not_an_old_cached_one(
        make_session, make_app, size, until):

    from paperterm.scoring.prompt import PROMPT_VERSION
    from paperterm.settings import ScoringSettings
    from paperterm.store import ScoreRow

    session = make_session(settings=ScoringSettings(model="new/model"))
    older_day(session.db_path)
    store = Store.open(session.db_path)
    for model, relevance in (("new/model", 9), ("old/model", 5)):  # the old one cached last
        store.scores.save_scores([ScoreRow("2602.00002", 1, relevance, 3, model)],
                                 topic_fp=session.topic.fingerprint, model=model,
                                 prompt_version=PROMPT_VERSION, n_papers=1, prompt_tokens=1,
                                 completion_tokens=1, cost=0.0)
        until_the_clock_moves()  # the next score is cached later
    store.close()
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        await app.push_screen(LibraryScreen("similar", paper_id="2602.00001"))
        screen = app.screen
        await until(pilot, lambda: isinstance(screen, LibraryScreen) and bool(screen.hits))
        hit = next(h for h in screen.hits if h.paper.id == "2602.00002")
        assert hit.relevance == 9


def _cached(session) -> None:  # type: ignore[no-untyped-def]
    store = Store.open(session.db_path)  # the loader caches the day it shows
    store.papers.save_day("cs.AI+cs.LG", session.day.day, session.day.papers, source="feed")
    store.close()


async def test_a_star_given_in_search_shows_in_the_day_list_at_once(make_session, make_app,
                                                                   probe, size, until):
    """issue 19, "views go stale": a paper starred or saved from the search screen showed
    unstarred and unsaved in the day list, and the header counted 0 starred, until a
    restart."""
    session = make_session()
    _cached(session)
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        target = p.shown[0].paper
        await pilot.press("F")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        word = max((w for w in target.title.split() if w.isalpha()), key=len)
        await pilot.press(*word.lower())
        found = lambda: [h.paper.id for h in screen.hits]  # noqa: E731
        await until(pilot, lambda: target.id in found())
        await pilot.press("enter", *["down"] * found().index(target.id))
        assert screen.current is not None and screen.current.paper.id == target.id
        await pilot.press("asterisk", "b")  # star it, save it to the .bib file
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is p.day)
        assert p.entry(target.id).starred and p.entry(target.id).saved
        assert "★" in p.marks(0) and "✓" in p.marks(0)
        assert " 1★" in p.header()


async def test_star_twice_in_the_starred_list_toggles_the_same_row(make_session, make_app,
                                                                  probe, size, until):
    """issue 19, "Starred list loses stars": `*` removed the row, the cursor landed on the
    next paper and a second `*` unstarred that one. The row stays, shown unstarred."""
    session = make_session()
    _cached(session)
    ids = [p.id for p in session.day.papers[:3]]
    store = Store.open(session.db_path)
    for pid in ids:
        store.marks.set_starred(pid, True)
    store.close()
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        in_day_list = lambda: {e.id for e in p.day.entries if e.starred}  # noqa: E731
        assert in_day_list() == set(ids)
        await pilot.press("L")
        starred = app.screen
        assert isinstance(starred, LibraryScreen)
        await until(pilot, lambda: len(starred.hits) == 3)
        first = starred.current
        assert first is not None
        await pilot.press("asterisk")
        assert len(starred.hits) == 3 and starred.current is first  # the row stays
        assert first.paper.id not in app.store.marks.starred_ids()
        assert in_day_list() == set(ids) - {first.paper.id}  # no other paper changed
        assert "★" not in str(starred.query_one("#library-results").get_option_at_index(0)
                              .prompt)
        await pilot.press("asterisk")  # the same paper again: starred again
        assert app.store.marks.starred_ids() == set(ids)
        assert in_day_list() == set(ids)
        assert all("★" in str(starred.query_one("#library-results").get_option_at_index(i)
                              .prompt) for i in range(3))
        await pilot.press("escape", "L")
        assert len(app.screen.hits) == 3


async def test_marks_set_by_another_program_show_when_the_reader_regains_focus(
        make_session, make_app, probe, size, until):
    from textual import events

    session = make_session()
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        target = p.shown[2]
        assert not target.starred
        other = Store.open(session.db_path)  # e.g. `paperterm star ID` in another terminal
        other.marks.set_starred(target.id, True)
        other.close()
        app.post_message(events.AppFocus())
        await until(pilot, lambda: target.starred)
        assert "★" in p.marks(2)


async def test_a_star_given_in_search_ranks_the_day_again_and_marks_it_seen(
        make_session, make_app, probe, size, until, embedding_model, ranking_cpu):
    """A star given in the search screen changed the day list's marks but not its ranking
    (a star in the day list ranks again: what the local ranking learns from), and left the
    paper unseen (a star in the day list marks it seen): one score everywhere."""
    session = make_session()
    _cached(session)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        child = ranking_cpu(app)  # the blend is made there: its CPU is the deadline
        await until(pilot, lambda: any("close to the topic" in e.reason for e in p.shown),
                    seconds=30, cpu=child, what="the blend")
        target = next(e for e in p.shown if e.paper.title.startswith("MoBiQuant"))
        before = target.fine
        await pilot.press("F", *"mobiquant")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        await until(pilot, lambda: target.id in [h.paper.id for h in screen.hits])
        await pilot.press("enter", *["down"] * [h.paper.id for h in screen.hits].index(
            target.id))
        assert screen.current is not None and screen.current.paper.id == target.id
        await pilot.press("asterisk", "escape")
        await until(pilot, lambda: app.screen is p.day)
        await until(pilot, lambda: target.fine != before, seconds=30, cpu=child,
                    what="the ranking after the star")
        assert target.fine > before
        assert target.starred and target.seen


async def test_search_at_80x24_gives_the_results_room_and_star_and_unstar_say_so(
        make_session, make_app, until):
    """At 80x24 the search screen showed 3 result rows over a 14-line detail pane with blank
    lines; `*` in the library said nothing when it unstarred."""
    session = make_session()
    store = Store.open(session.db_path)
    store.papers.save_day("cs.AI+cs.LG", session.day.day, session.day.papers, source="feed")
    store.close()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("F", *"model")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        await until(pilot, lambda: len(screen.hits) >= 10)
        await pilot.pause()
        results = screen.query_one("#library-results")
        detail = screen.query_one("#library-detail")
        assert results.region.height >= 6, (results.region, detail.region)
        assert detail.region.height <= 24 * 45 // 100 + 1
        await pilot.press("enter", "asterisk")
        pid = screen.current.paper.id
        await until(pilot, lambda: pid in app.store.marks.starred_ids())
        await until(pilot, lambda: any(m.startswith("Starred under topic") for m, _ in app.said))
        await pilot.press("asterisk")
        await until(pilot, lambda: pid not in app.store.marks.starred_ids())
        await until(pilot, lambda: any(m.startswith("Unstarred") for m, _ in app.said))
