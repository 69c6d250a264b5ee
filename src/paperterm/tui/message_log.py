"""`M`: the message log (issue 32, item 5). Every notice of the session, with the time it was
said, newest last: the header line shows one notice at a time ("(+2 more)") for a few
seconds, the log keeps them all (the start-up notes, a topic that is not defined, every
error). The app records each notice as it is said (`PapertermApp.notify`), whole: a long
notice wraps under its own text, never cut with "…" (the header line cuts it to its width)."""

from __future__ import annotations

import time
from typing import NamedTuple

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

_MARK = {"error": "! ", "warning": "⚠ "}


class Said(NamedTuple):  # (defined on every start: a tenth of a frozen dataclass's cost)
    at: float  # time.time()
    severity: str
    text: str


class MessageLog:
    """The session's notices, in the order said."""

    def __init__(self) -> None:
        self.entries: list[Said] = []

    def add(self, text: str, severity: str) -> None:
        self.entries.append(Said(time.time(), severity, text))

    def lines(self) -> Text:
        """The log as plain lines, one a notice (its time, its mark, its whole text)."""
        out = Text()
        for said in self.entries:
            out.append(_time(said) + "  ", style="dim")
            out.append(_MARK.get(said.severity, "  ") + said.text + "\n",
                       style="bold" if said.severity in _MARK else "")
        return out

    def table(self) -> Table:
        """The log as shown: the times in a column of their own, each notice wrapped under
        its own text (its continuation lines never run under the times)."""
        grid = Table.grid(expand=True)
        grid.add_column(style="dim", no_wrap=True, width=10)  # "12:00:00  "
        grid.add_column(no_wrap=True, width=2)  # the severity's mark
        grid.add_column(ratio=1, overflow="fold")
        for said in self.entries:
            style = "bold" if said.severity in _MARK else ""
            grid.add_row(_time(said), Text(_MARK.get(said.severity, ""), style=style),
                         Text(said.text, style=style))
        return grid


def _time(said: Said) -> str:
    return time.strftime("%H:%M:%S", time.localtime(said.at))


class MessageLogScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    MessageLogScreen { align: center middle; background: $background; }
    #log-box {
        width: 110; max-width: 100%; height: 90%; scrollbar-gutter: stable;
        border: round $primary; background: $surface; padding: 0 1;
    }
    #log-title { margin-bottom: 1; }
    """
    BINDINGS = [  # noqa: RUF012
        Binding("escape,M", "close", "Close", id="log_close"),
        Binding("j,down", "scroll_log(1)", "Down", show=False),
        Binding("k,up", "scroll_log(-1)", "Up", show=False),
        Binding("G,end", "scroll_end_log", "End", show=False),
        Binding("g,home", "scroll_start_log", "Start", show=False),
    ]

    def __init__(self, log: MessageLog) -> None:
        super().__init__()
        self.log_ = log

    def compose(self) -> ComposeResult:
        n = len(self.log_.entries)
        with VerticalScroll(id="log-box"):
            yield Static(Text(f"Messages of this session ({n}), newest last · j/k scroll, "
                              "esc closes", style="bold"), id="log-title")
            yield Static(self.log_.table() if n else Text("Nothing said yet."), id="log-lines")

    def on_mount(self) -> None:
        self.query_one("#log-box", VerticalScroll).scroll_end(animate=False)

    def text(self) -> str:
        """What the log shows, as plain text."""
        return self.log_.lines().plain

    def action_scroll_log(self, lines: int) -> None:
        self.query_one("#log-box", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_scroll_end_log(self) -> None:
        self.query_one("#log-box", VerticalScroll).scroll_end(animate=False)

    def action_scroll_start_log(self) -> None:
        self.query_one("#log-box", VerticalScroll).scroll_home(animate=False)

    def action_close(self) -> None:
        if self.is_active:  # a second close key queued behind the first closes nothing
            self.dismiss(None)
