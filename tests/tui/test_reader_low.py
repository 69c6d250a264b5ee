"""The reader's Low items of issue 32, one test each, read off the screen: the search screen
says nothing "matches" before anything is typed; `W` with nothing this week says so and
`esc` goes back; the note dialog names the paper; undoing "not interested" in the cards
brings the card back; at 200 columns the footer uses the width."""

from __future__ import annotations

from paperterm.tui.screens.library import LibraryScreen


async def test_search_says_nothing_matches_only_after_a_query(make_session, make_app, size,
                                                              until):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("F")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen))
        screen = app.screen
        detail = screen.query_one("#library-detail")
        await until(pilot, lambda: "Type to search" in str(detail.render()))
        assert "No cached paper matches" not in str(detail.render())
        await pilot.press(*"zzqxwv")
        await until(pilot, lambda: "No cached paper matches" in str(detail.render()))


async def test_w_with_nothing_this_week_says_so_and_the_day_stays(
        make_session, make_app, probe, until, size, monkeypatch):
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-11")  # a later week: nothing cached
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        day = p.day
        await pilot.press("W")
        await until(pilot, lambda: p.said("Nothing this week"))
        assert p.day is day and len(p.shown) == 244  # not an empty view with no way back
        assert "2026-02-25" in p.header()
        assert any("since 2026-03-09" in n for n in p.notices("warning"))
        # said once (issue 32): it said "no papers announced since 2026-03-09 are cached"
        # and then the loader's "No cached papers since 2026-03-09"
        said = [n for n in p.notices() if "Nothing this week" in n]
        assert len(said) == 1 and said[0].count("since 2026-03-09") == 1, said
        assert "the most recent cached day is 2026-02-25" in said[0]
        assert said[0].endswith("The day shown stays.")


async def test_the_note_dialog_names_the_paper_and_saving_covers_nothing(
        make_session, make_app, probe, until, size):
    from paperterm.tui.screens.note_editor import NoteEditor

    app = make_app(make_session())
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.pause()
        p = probe(app)
        paper = p.current.paper
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NoteEditor))
        heading = str(app.screen.query_one("#note-heading").render())
        assert paper.id in heading and paper.title.split()[0] in heading
        await pilot.press(*"read it", "ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, NoteEditor))
        # said in the day's header line, not as a toast over the preview
        await until(pilot, lambda: "Note and tags saved" in p.header_notice())
        assert not app.query("Toast")


async def test_undo_of_not_interested_in_the_cards_brings_the_card_back(
        make_session, make_app, probe, until, size):
    from paperterm.tui.screens.cards import TriageCards

    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, TriageCards))
        cards = app.screen
        first = cards.current
        await pilot.press("d")  # not interested: on to the next card
        await until(pilot, lambda: cards.current is not first and first.dismissed)
        await pilot.press("ctrl+z")
        await until(pilot, lambda: not first.dismissed)
        await until(pilot, lambda: cards.card.entry is first)  # the card is back in view
        assert "1 of" in cards.query_one("#card-header").normal().plain


async def test_a_wide_footer_uses_the_width(make_session, make_app, until):
    from paperterm.tui.compat import FooterKey

    def shown(app) -> list[str]:
        return [k.action for k in app.screen.query(FooterKey) if k.display]

    app = make_app(make_session())
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        wide = shown(app)
        for action in ("library_search", "starred_view", "previous_day", "next_day"):
            assert action in wide, wide
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: len(shown(app)) < len(wide))
        narrow = shown(app)
        assert "app.show_help" in narrow and "app.quit" in narrow  # the way out stays
