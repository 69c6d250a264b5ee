"""Issue 31 in the reader: item 11 (a mark that cannot be saved is never shown as made),
item 6 (a huge abstract's word diff never holds the keys), item 7 (quitting never waits
long for a writer)."""

from __future__ import annotations


async def test_a_star_that_cannot_be_saved_is_not_shown(make_session, make_app, probe, size,
                                                        until):
    session = make_session()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.current
        await until(pilot, lambda: app.store.available)
        app.store.db.conn.execute("PRAGMA query_only = ON")  # the database turned read-only
        await pilot.press("asterisk")
        await until(pilot, lambda: p.notices("error"))
        assert "★" not in p.marks(0), "a star that was not saved is shown as made"
        assert any("could not save" in n for n in p.notices("error"))
        await pilot.press("asterisk")  # again, now that the session keeps no marks
        await until(pilot, lambda: any("Not saved" in n for n in p.notices("error")))
        assert "★" not in p.marks(0)
    app.store.close()
    assert not p.states([first.id]).get(first.id, None) or not p.states(
        [first.id])[first.id].starred
