"""Notes and tags in the day view's preview (issue 11 item 5): loaded with the day, shown
for the paper under the cursor, and updated when the note editor saves."""

from __future__ import annotations

from paperterm.store import Store
from paperterm.tui.screens.note_editor import NoteEditor


def _noted(session, tags: list[str] | None = None) -> str:
    """The id of the day's first paper, given a two-line note (and `tags`) in the store."""
    first = session.day.papers[0].id
    store = Store.open(session.db_path)
    store.marks.set_note(first, "read section 3\nask about the kernel")
    if tags:
        store.marks.set_tags(first, tags)
    store.close()
    return first


async def test_preview_shows_tags_and_note_of_the_paper_under_the_cursor(
        make_session, make_app, probe, size, until):
    session = make_session()
    first = _noted(session, ["Reading Group", "moe"])
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.to_paper(first)
        await until(pilot, lambda: p.current is not None and p.current.id == first)
        await until(pilot, lambda: "#reading-group" in p.meta())
        meta = p.meta()
        assert "tags: #moe #reading-group" in meta
        assert "note: read section 3" in meta and "ask about the kernel" in meta
        other = next(e for e in p.shown if e.id != first)
        p.to_paper(other.id)
        await until(pilot, lambda: p.preview.entry is other)
        assert other.paper.title.split()[0] in p.meta()
        assert "tags:" not in p.meta() and "note:" not in p.meta()


async def test_saving_a_note_shows_it_in_the_preview_at_once(
        make_session, make_app, probe, size, until):
    app = make_app(make_session(), autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("n")
        assert isinstance(app.screen, NoteEditor)
        await pilot.press(*"check the ablation")
        app.screen.query_one("#note-tags").value = "to-read"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, NoteEditor))
        await until(pilot, lambda: "note: check the ablation" in p.meta())
        assert "#to-read" in p.meta()


async def test_editing_a_note_types_after_what_it_holds(make_session, make_app, probe, size,
                                                        until):
    """The editor opened with the cursor before the note's first word: what the user
    typed to add to it went in front of it."""
    session = make_session()
    first = _noted(session)
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        p.to_paper(first)
        await until(pilot, lambda: p.current is not None and p.current.id == first)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NoteEditor))
        await pilot.press(*" and the proof")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, NoteEditor))
        store = Store.open(session.db_path)
        try:
            assert store.marks.note(first) == "read section 3\nask about the kernel and the proof"
        finally:
            store.close()
