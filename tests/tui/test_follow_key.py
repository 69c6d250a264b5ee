"""Following an author from the reader (issue 12, item 5): `A` offers the paper's authors,
the followed author's papers get the `@` mark and the local boost, and it is remembered."""

from __future__ import annotations

from textual.command import CommandList

from paperterm.settings.config import Config
from paperterm.store import Store


async def _choose(pilot, app, until, typed: str) -> None:
    day = app.screen
    await pilot.press("at")
    await until(pilot, lambda: app.screen is not day)
    await pilot.press(*typed)
    await until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
    await pilot.press("enter")
    await until(pilot, lambda: app.screen is day)


async def test_follow_the_author_under_the_cursor(make_session, make_app, probe, size, until):
    session = make_session()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("G")  # the last paper of the ranking: low local score
        paper = p.current.paper
        before = p.current.relevance
        author = paper.authors[-1]
        assert "@" not in p.marks(p.table.cursor - int(p.table.scroll_y))
        await _choose(pilot, app, until, author)
        entry = p.entry(paper.id)
        await until(pilot, lambda: entry.followed and entry.relevance == before + 3)
        assert entry.reason.startswith(f"followed: {author}")
        assert p.said(f"Following {author}")
        row = next(y for y, e in enumerate(p.shown[int(p.table.scroll_y):]) if e is entry)
        assert "@" in p.marks(row)
        assert "@ followed author" in p.meta()
    store = Store(session.db_path)
    try:
        assert store.marks.followed_authors() == [author]
    finally:
        store.close()
    # the next start knows (as the command line's session merges it), and A unfollows
    again = make_app(make_session(config=Config(follow=[author])))
    async with again.run_test(size=size) as pilot:
        p = probe(again)
        assert p.entry(paper.id).followed
        p.to_paper(paper.id)
        await _choose(pilot, again, until, "Unfollow")
        await until(pilot, lambda: not p.entry(paper.id).followed)
        assert p.said("followed in the config file")


async def test_a_paper_without_authors_says_so(make_session, make_app, probe, size, until,
                                               example_papers):
    from dataclasses import replace

    papers = [replace(p, authors=()) for p in example_papers[:3]]
    app = make_app(make_session(papers=papers))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("at")
        await until(pilot, lambda: p.said("lists no authors"))
        assert app.screen is p.day
