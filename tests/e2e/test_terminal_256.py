"""Readable in 256 colours, in a real terminal (issue 22): the reader runs in tmux with
TERM=screen-256color (no truecolor), the screen is read back with its colours
(`capture-pane -e`) and every letter and digit is measured against its background as the
terminal shows it."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from rich.color import Color as RichColor
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from support.contrast import MIN_CONTRAST, contrast
from support.tmux import Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
RGB = tuple[int, int, int]
ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
_DEFAULT_FG = DEFAULT_TERMINAL_THEME.foreground_color
_DEFAULT_BG = DEFAULT_TERMINAL_THEME.background_color


def _ansi(n: int) -> RGB:
    t = RichColor.from_ansi(n).get_truecolor(DEFAULT_TERMINAL_THEME)
    return (t.red, t.green, t.blue)


def _apply(codes: list[int], state: dict) -> None:
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            state.update(fg=None, bg=None, reverse=False, dim=False)
        elif c == 2:
            state["dim"] = True
        elif c == 22:
            state["dim"] = False
        elif c == 7:
            state["reverse"] = True
        elif c == 27:
            state["reverse"] = False
        elif c in (38, 48) and i + 1 < len(codes):
            key = "fg" if c == 38 else "bg"
            if codes[i + 1] == 5:
                state[key] = _ansi(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2:
                state[key] = tuple(codes[i + 2: i + 5])
                i += 4
        elif c == 39:
            state["fg"] = None
        elif c == 49:
            state["bg"] = None
        elif 30 <= c <= 37 or 90 <= c <= 97:
            state["fg"] = _ansi(c - 30 if c < 90 else c - 82)
        elif 40 <= c <= 47 or 100 <= c <= 107:
            state["bg"] = _ansi(c - 40 if c < 100 else c - 92)
        i += 1


def low_cells(captured: str) -> tuple[int, list[str]]:
    """(letters and digits, those under MIN_CONTRAST) of a `capture-pane -e` screen."""
    counted, low = 0, []
    default_fg = (_DEFAULT_FG.red, _DEFAULT_FG.green, _DEFAULT_FG.blue)
    default_bg = (_DEFAULT_BG.red, _DEFAULT_BG.green, _DEFAULT_BG.blue)
    state: dict = {"fg": None, "bg": None, "reverse": False, "dim": False}
    for y, line in enumerate(captured.splitlines()):  # tmux writes only what changes
        pos = 0
        for match in [*_SGR.finditer(line), None]:
            text = line[pos: match.start() if match else len(line)]
            for char in text:
                if not char.isalnum():
                    continue
                counted += 1
                fg, bg = state["fg"] or default_fg, state["bg"] or default_bg
                if state["reverse"]:
                    fg, bg = bg, fg
                if state["dim"]:
                    fg = tuple((f + b) // 2 for f, b in zip(fg, bg, strict=True))
                ratio = contrast(fg, bg)
                if ratio < MIN_CONTRAST:
                    low.append(f"row {y} {char!r} {ratio:.2f}:1 {fg} on {bg}")
            if match:
                _apply([int(c or 0) for c in re.split("[;:]", match.group(1))], state)
                pos = match.end()
    return counted, low


@pytest.mark.parametrize("theme", ["paperterm-dark", "paperterm-light", "paperterm-solarized"])
def test_every_letter_reads_in_a_256_colour_terminal(tmp_path, theme):
    env = (f"PAPERTERM_HOME={shlex.quote(str(tmp_path / 'home'))} "
           f"PAPERTERM_CONFIG={shlex.quote(str(tmp_path / 'config.toml'))} "
           "TERM=screen-256color")
    command = (f"cd {shlex.quote(str(ROOT))} && env -u COLUMNS -u LINES -u COLORTERM {env} "
               f"{shlex.quote(sys.executable)} -m paperterm --feed {shlex.quote(str(FEED))} "
               f"--topic moe --theme {theme}; sleep 30")
    pane = Pane(f"bash -c {shlex.quote(command)}", 100, 30)
    try:
        pane.wait(lambda s: "MoBiQuant" in s and "Quit" in s)
        pane.keys("j", "j", "*", "x", "d")
        pane.wait(lambda s: "Not interested" in s)
        captured = pane.screen_with_colours()
        counted, low = low_cells(captured)
        assert counted > 500, captured
        assert not low, "\n".join(low[:10])
        assert "\x1b[38;2" not in captured  # the program spoke 256 colours, as asked
    finally:
        pane.close()
