"""`ctrl+z` in the reader (issue 19): it undoes the last mark change (star, unstar, not
interested, "mark all above seen") through the marks service, says what it undid, and every
list shows the undone mark at once."""

from __future__ import annotations

from paperterm.store import Store
from paperterm.tui.screens.library import LibraryScreen


def _cached(session) -> None:  # type: ignore[no-untyped-def]
    store = Store.open(session.db_path)  # the loader caches the day it shows
    store.papers.save_day("cs.AI+cs.LG", session.day.day, session.day.papers, source="feed")
    store.close()


async def test_ctrl_z_after_a_star_unstars_it_and_the_header_follows(make_session, make_app,
                                                                    probe, size):
    session = make_session()
    _cached(session)
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.current
        await pilot.press("asterisk")
        assert first.starred and "★" in p.marks(0) and " 1★" in p.header()
        assert p.states([first.id])[first.id].starred
        await pilot.press("ctrl+z")
        assert not first.starred and "★" not in p.marks(0) and "★" not in p.header()
        assert not p.states([first.id])[first.id].starred
        assert p.said(f"Undid: starred {first.id} (")  # with its title
        await pilot.press("ctrl+z")
        assert p.said("Nothing to undo.")
        assert not first.starred


async def test_ctrl_z_after_not_interested_restores_the_paper(make_session, make_app, probe,
                                                             size):
    session = make_session()
    _cached(session)
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        target = p.current
        await pilot.press("d")
        assert p.said("Not interested (moe)")
        assert target.id in app.store.marks.dismissed_ids("moe")
        assert target.id in p.day.model.dismissed
        await pilot.press("ctrl+z")
        assert target.id not in app.store.marks.dismissed_ids("moe")
        assert target.id not in p.day.model.dismissed
        assert p.said(f"Undid: not interested (moe) in {target.id}")


async def test_ctrl_z_after_mark_all_above_seen_unsees_them(make_session, make_app, probe,
                                                           size):
    app = make_app(make_session(), autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("pagedown")  # the first paper is seen as the cursor leaves it
        cursor = p.table.cursor
        above = p.shown[:cursor]
        assert above[0].seen and not any(e.seen for e in above[1:])
        await pilot.press("A")
        assert all(e.seen for e in above)
        assert all(st.seen for st in p.states(e.id for e in above).values())
        await pilot.press("ctrl+z")
        assert p.said(f"Undid: marked {cursor - 1} papers seen")
        assert above[0].seen and not any(e.seen for e in above[1:])  # the cursor's stays
        assert all("•" in p.marks(y) for y in range(1, cursor))
        states = p.states(e.id for e in above)
        assert states[above[0].id].seen
        assert not any(states[e.id].seen for e in above[1:] if e.id in states)


async def test_ctrl_z_in_the_starred_list_gives_the_star_back_on_every_list(
        make_session, make_app, probe, size, until):
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
        await pilot.press("L")
        starred = app.screen
        assert isinstance(starred, LibraryScreen)
        await until(pilot, lambda: len(starred.hits) == 3)
        first = starred.current
        assert first is not None
        results = starred.query_one("#library-results")
        await pilot.press("asterisk")
        assert not p.entry(first.paper.id).starred  # the day list follows at once
        assert "★" not in str(results.get_option_at_index(0).prompt)
        await pilot.press("ctrl+z")
        assert p.said(f"Undid: unstarred {first.paper.id}")
        assert "★" in str(results.get_option_at_index(0).prompt)
        assert p.entry(first.paper.id).starred
        assert app.store.marks.starred_ids() == set(ids)
