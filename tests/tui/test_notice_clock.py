"""A notice's time counts from when the header line first draws it (Hardening 3, item 19's
class: a ten-second notice said while the reader was busy drawing something else, at load
8 on two cores, went before it was ever drawn: seen by no one, and a test waiting for it
waited 90 s). The notices' clock is moved by the test, so nothing here waits."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from textual.app import App, ComposeResult

from paperterm.tui import notices
from paperterm.tui.notices import NoticeLine


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class _Line(App[None]):
    def compose(self) -> ComposeResult:
        yield NoticeLine(id="line")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    moved = _Clock()
    monkeypatch.setattr(notices, "_clock", moved)
    return moved


@asynccontextmanager
async def _line() -> AsyncIterator[NoticeLine]:
    app = _Line()
    async with app.run_test(size=(60, 3)):
        yield app.query_one("#line", NoticeLine)


async def test_a_notice_said_while_the_reader_was_busy_still_shows_its_full_time(clock):
    async with _line() as line:
        line.notice("Showing the bundled sample day", "warning", 10)
        clock.now += 50  # busy: nothing drew the line for 50 s
        assert "Showing the bundled sample day" in line.render().plain
        clock.now += 9.5  # drawn 9.5 s ago: still shows
        assert "Showing the bundled sample day" in line.render().plain
        clock.now += 1  # 10.5 s after it was first drawn: gone
        assert "Showing" not in line.render().plain
        assert not line.live()


async def test_notices_said_together_each_count_from_their_first_drawing(clock):
    async with _line() as line:
        line.notice("first", "information", 5)
        assert "first" in line.render().plain
        clock.now += 3
        line.notice("second", "information", 5)
        assert "second" in line.render().plain and "(+1 more)" in line.render().plain
        clock.now += 3  # the first's 5 s are over, the second's are not
        assert [n.text for n in line.live()] == ["second"]
