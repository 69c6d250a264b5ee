"""The message log (issue 32, item 5): `M` (and the palette) shows every notice of the
session with its time, so a notice hidden behind "(+N more)" in the header can be read;
the note that the topic is not defined is never lost."""

from __future__ import annotations

import re

from paperterm.settings.config import Config
from paperterm.topics import resolve_topic
from paperterm.tui.help import help_table
from paperterm.tui.message_log import MessageLogScreen


def _log_text(app) -> str:
    from support.contrast import screen_lines

    return "\n".join("".join(s.text for s in line) for line in screen_lines(app))


async def test_every_notice_of_the_session_with_its_time(make_session, make_app, probe,
                                                         until, size):
    note = resolve_topic("speculative decoding", Config()).notice
    assert note and "not a defined topic" in note
    session = make_session(topic="speculative decoding",
                           notices=[note, "a second start-up note", "a third start-up note"])
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        await until(pilot, lambda: "more)" in p.header_notice())  # one shows, others hide
        await pilot.press("M")
        await until(pilot, lambda: isinstance(app.screen, MessageLogScreen))
        await until(pilot, lambda: "not a defined topic" in _log_text(app))
        shown = _log_text(app)
        for said in ("speculative decoding' (not a defined topic)", "a second start-up note",
                     "a third start-up note"):
            line = next(line for line in shown.splitlines() if said in line)
            assert re.search(r"\d\d:\d\d:\d\d", line), line  # with its time
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, MessageLogScreen))
        # later notices join the log; the start-up's stay
        await pilot.press("s")
        await until(pilot, lambda: p.said("Sort"))
        await pilot.press("M")
        await until(pilot, lambda: isinstance(app.screen, MessageLogScreen))
        shown = _log_text(app)
        assert "not a defined topic" in shown and "Sort" in shown
    table = help_table({})
    assert any("Message log" in str(cell) for cell in table.columns[1]._cells)


async def test_the_message_log_from_the_palette(make_session, make_app, until, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen.id == "--command-palette")
        await pilot.press(*"message log")
        await until(pilot, lambda: len(app.screen.query_one("CommandList").options) > 0)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, MessageLogScreen))


async def test_a_long_notice_is_kept_whole_and_wrapped(make_session, make_app, probe, until,
                                                      size):
    """Issue 32: "Not interested (topic): <title…>" cut the title at 60 characters, and the
    log showed it cut; the log shows the whole title, wrapped under the notice's text (the
    header line alone cuts it to its width)."""
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        longest = max(p.shown, key=lambda e: len(e.paper.title))
        title = " ".join(longest.paper.title.split())
        assert len(title) > 100  # longer than the log's line
        p.to_paper(longest.id)
        await pilot.pause()
        await pilot.press("d")
        await until(pilot, lambda: p.said("Not interested"))
        await pilot.press("M")
        await until(pilot, lambda: isinstance(app.screen, MessageLogScreen))
        await until(pilot, lambda: "Not interested" in _log_text(app))
        lines = _log_text(app).splitlines()
        start = next(i for i, line in enumerate(lines) if "Not interested" in line)
        time_col = re.search(r"\d\d:\d\d:\d\d", lines[start])
        assert time_col, lines[start]
        text_col = lines[start].index("Not interested")
        said = []
        for line in lines[start:]:
            if said and line[time_col.start():text_col].strip():
                break  # the next notice (its time)
            said.append(line[text_col:].rstrip(" │"))
            assert not line[time_col.start():time_col.end()].strip() or line is lines[start]
        whole = " ".join(s.strip() for s in said)
        assert len(said) > 1  # wrapped, each line under the notice's text
        assert title in whole and "…" not in whole, whole
