"""Marks on papers (star, mark, seen, saved), the .bib file, the browser and the clipboard."""

from __future__ import annotations

from paperterm.settings.config import BibtexConfig, Config
from paperterm.tui.screens.day import DayScreen


async def test_star_persists_and_marks(make_session, make_app, probe, size):
    session = make_session()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.current
        await pilot.press("asterisk")
        assert "★" in p.marks(0)
        await pilot.press("x", "x")  # marking goes on to the next paper
        assert [p.marks(y).startswith("+") for y in range(3)] == [True, True, False]
        assert p.table.cursor == 2
        await pilot.press("X")
        assert not any(p.marks(y).startswith("+") for y in range(len(p.rows())))
        await pilot.press("k", "x", "k", "x")
        assert not p.marks(1).startswith("+")
    assert p.states([first.id])[first.id].starred
    # restarting shows the star
    app2 = make_app(session)
    async with app2.run_test(size=size) as pilot:
        p2 = probe(app2)
        assert p2.current.id == first.id and "★" in p2.marks(0)
        await pilot.press("asterisk")  # the cursor is on the same first paper
        assert "★" not in p2.marks(0)
    assert not p2.states([first.id])[first.id].starred


async def test_seen_marked_as_the_cursor_passes_and_written_in_batches(
        make_session, make_app, probe, size, until, monkeypatch):
    monkeypatch.setattr(DayScreen, "SEEN_FLUSH_INTERVAL", 0.2)
    flushes: list[None] = []
    flush = DayScreen.flush_seen
    monkeypatch.setattr(DayScreen, "flush_seen", lambda s: (flushes.append(None), flush(s)))
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.shown[0]
        # resting on the first paper at start does not mark it seen, flush after flush
        await until(pilot, lambda: len(flushes) >= 3)
        assert "•" in p.marks(0) and first.id not in p.states([first.id])
        await pilot.press("j", "j", "j")  # each paper the cursor leaves is seen at once
        assert ["•" in p.marks(y) for y in range(5)] == [False, False, False, True, True]
        third = p.shown[2]
        await until(pilot, lambda: third.id in p.states([third.id]))
        states = p.states([e.id for e in p.shown[:4]])
        assert states[first.id].seen and states[third.id].seen
        assert p.shown[3].id not in states and "•" in p.marks(3)


async def test_quitting_writes_the_last_seen_marks(make_session, make_app, probe, size,
                                                   monkeypatch):
    monkeypatch.setattr(DayScreen, "SEEN_FLUSH_INTERVAL", 600.0)  # only quitting writes them
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.shown[0]
        await pilot.press("j")
        assert "•" not in p.marks(0)
        assert first.id not in p.states([first.id])
        await pilot.press("q")
    assert app.return_code == 0
    assert p.states([first.id])[first.id].seen


async def test_save_marked_to_bib_then_already_present(make_session, make_app, probe, size):
    session = make_session()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        a, b = p.shown[0], p.shown[1]
        await pilot.press("x", "x", "b")
        text = session.bib_path.read_text(encoding="utf-8")
        assert a.paper.id in text and b.paper.id in text
        assert "✓" in p.marks(0) and "✓" in p.marks(1)
        assert not p.marks(0).startswith("+") and not p.marks(1).startswith("+")
        said = p.notices()[-1]
        assert said.startswith(f"Saved to {session.bib_path}: added ")
        assert a.bib_key and b.bib_key and a.bib_key in said and b.bib_key in said
        # again, only the current paper: already present
        await pilot.press("k", "b")
        said = p.notices()[-1]
        assert "already there" in said and b.bib_key in said and "added" not in said
    st = p.states([a.id, b.id])
    assert st[a.id].saved and st[a.id].bib_key == a.bib_key and st[b.id].saved


async def test_save_error_is_a_notice(make_session, make_app, probe, size):
    broken = make_session()
    broken.bib_path.write_text("@article{broken,\n  title = {unclosed\n", encoding="utf-8")
    bad_pattern = make_session(config=Config(bibtex=BibtexConfig(key_pattern="{nope}")))
    for session in (broken, bad_pattern):
        before = session.bib_path.read_text(encoding="utf-8")
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            p = probe(app)
            await pilot.press("b")
            errors = p.notices("error")
            assert errors and errors[-1].startswith("Not saved")
            assert "✓" not in p.marks(0)
        assert session.bib_path.read_text(encoding="utf-8") == before


async def test_open_abs_pdf_and_copy(make_session, make_app, probe, size, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url) or True)
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        paper = p.current.paper
        await pilot.press("o", "p")
        assert opened == [f"https://arxiv.org/abs/{paper.id}",
                          f"https://arxiv.org/pdf/{paper.versioned_id}"]
        assert p.said(f"Opening https://arxiv.org/pdf/{paper.versioned_id}")
        copied: list[str] = []
        monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
        await pilot.press("c")
        assert len(copied) == 1
        assert copied[0].lstrip().startswith("@") and paper.id in copied[0]
        assert p.notices()[-1].startswith("Sent the BibTeX entry ")  # OSC 52, unknown here
        assert "unknown" in p.notices()[-1]


async def test_no_browser_is_a_notice(make_session, make_app, probe, size, monkeypatch):
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: False)
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.press("o")
        assert "No browser found" in probe(app).notices("warning")[-1]


async def test_typing_a_filter_marks_no_paper_seen_that_only_flashed_by(make_session, make_app,
                                                                       probe, size, until):
    """issue 19: typing a `/` filter one letter at a time marked seen the papers that were
    under the cursor only while a one-letter prefix matched. Only the paper the user rested
    on in the list (and left when the filter hid it) becomes seen."""
    app = make_app(make_session(), autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.current
        await pilot.press("j")  # reading: the first paper is seen, the cursor rests on the 2nd
        rested = p.current
        assert [e.id for e in p.day.entries if e.seen] == [first.id]
        flashed = set()
        await pilot.press("slash")
        for letter in "transformer":
            await pilot.press(letter)
            await until(pilot, lambda typed=letter: p.day.filters.text.endswith(typed))
            await pilot.pause()
            if p.current is not None:
                flashed.add(p.current.id)
        flashed -= {rested.id}
        assert flashed  # the cursor went over other papers while the word was typed
        seen = {e.id for e in p.day.entries if e.seen}
        assert seen <= {first.id, rested.id}, seen & flashed


async def test_star_of_another_topic_says_which_topic_it_was_under(make_session, make_app,
                                                                  probe, size, until):
    """`*` on a paper starred under another topic took the star (and that topic's example)
    away without a word."""
    from paperterm.services.marks import MarksService
    from paperterm.store import Store

    session = make_session()
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first = p.current
        other = "moe" if session.topic.name != "moe" else "agents"
        app.store_watch.stop()  # the list must not learn of the star before the key
        store = Store.open(session.db_path)
        try:
            MarksService(store, other).star([first.id])
        finally:
            store.close()
        await pilot.press("asterisk")  # the list did not know: starred here, moved here
        topic = session.topic.name
        await until(pilot, lambda: p.said(f"Starred under topic {topic} (was {other})"))


async def test_a_star_is_said_and_logged_as_the_other_marks_are(make_session, make_app, probe,
                                                                size, until):
    """A new-user walk: `*` said nothing (nor in the log, `M`), so an older notice ("Not
    interested …") stayed in the header as if it described the star."""
    from paperterm.tui.message_log import MessageLogScreen

    app = make_app(make_session(), autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.pause()
        await pilot.press("d")
        await until(pilot, lambda: "Not interested" in p.header_notice())
        title = " ".join(p.current.paper.title.split())
        await pilot.press("asterisk")
        await until(pilot, lambda: "Starred (moe)" in p.header_notice())
        assert p.said(f"Starred (moe): {title}")
        await pilot.press("asterisk")
        await until(pilot, lambda: "Unstarred (moe)" in p.header_notice())
        await pilot.press("M")
        await until(pilot, lambda: isinstance(app.screen, MessageLogScreen))
        await until(pilot, lambda: "Unstarred (moe)" in app.screen.text())
        assert "Starred (moe)" in app.screen.text()
