"""Notices in a screen's header line instead of toasts: a toast covers the preview (at 80x24,
the two start-up toasts hid most of it). While a notice is live the line says it (the
newest, with how many others are still live); then it shows what it shows otherwise.

A notice's time counts from when the line first draws it, not from when it was said: on a
busy or loaded machine the reader can be drawing something else for longer than a
notice's ten seconds, and a notice that went before it was ever drawn was never seen."""

from __future__ import annotations

import math
import time
from typing import NamedTuple

from rich.text import Text
from textual.widgets import Static

from paperterm.text.hygiene import cut
from paperterm.tui.text import one_line

_MARK = {"error": "! ", "warning": "⚠ "}
_STYLE = {"error": "bold reverse", "warning": "bold"}


class Notice(NamedTuple):
    text: str
    severity: str
    until: float  # time.monotonic() when it goes (`math.inf` until first drawn)
    at: float = 0.0  # time.monotonic() when it was said
    timeout: float = 0.0  # how long it shows once drawn


_clock = time.monotonic  # the notices' clock (a test moves its own)

TOGETHER = 1.0  # notices said within this many seconds of each other came together


_RANK = {"error": 2, "warning": 1}


def notice_text(live: list[Notice], width: int | None = None) -> Text:
    """The live notice that matters most on one line, and how many others are live
    ("(+1 more)"); cut with "…" to `width` cells. Errors first (the newest); else, of the
    notices that came with the newest (start-up's, say), the warnings first: what the user
    did just now (saved, exported) is never hidden behind an older warning."""
    errors = [n for n in live if n.severity == "error"]
    if errors:
        newest = errors[-1]
    else:
        latest = max(n.at for n in live)
        recent = [n for n in live if n.at >= latest - TOGETHER]
        newest = max(reversed(recent), key=lambda n: _RANK.get(n.severity, 0))
    more = f" (+{len(live) - 1} more)" if len(live) > 1 else ""
    said = _MARK.get(newest.severity, "") + one_line(newest.text)
    if width is not None:
        said = cut(said, max(width - len(more) - 2, 1))
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(" " + said + " ", style=_STYLE.get(newest.severity, ""))
    out.append(more)
    return out


class NoticeLine(Static):
    """A one-line bar that shows live notices over its own content (`normal`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.notices: list[Notice] = []

    def notice(self, text: str, severity: str, timeout: float) -> None:
        """Say `text` here for `timeout` seconds from when it is first drawn."""
        self.notices.append(Notice(text, severity, math.inf, _clock(), timeout))
        self.refresh()

    def live(self) -> list[Notice]:
        now = _clock()
        return [n for n in self.notices if n.until > now]

    def _expire(self) -> None:
        self.notices = self.live()
        self.refresh()

    def _drawn(self) -> None:
        """Start the clock of the notices drawn now for the first time."""
        now = _clock()
        for i, n in enumerate(self.notices):
            if n.until == math.inf:
                self.notices[i] = Notice(n.text, n.severity, now + n.timeout, n.at, n.timeout)
                self.set_timer(n.timeout, self._expire)

    def normal(self) -> Text:
        """What the line shows while no notice is live."""
        return Text()

    def render(self) -> Text:
        live = self.live()
        if not live:
            return self.normal()
        self._drawn()
        return notice_text(live, self.size.width or None)
