"""Contrast of what the reader draws, measured cell by cell on the rendered screen.

The screen is taken as Textual hands it to the terminal (the compositor's full update: every
line as Rich segments with their styles, dialogs composed over the screens under them). For
each letter and digit the colour the terminal shows is worked out as a terminal would:
`reverse` swaps the two colours, `dim` draws the text halfway to its background (what
Textual's own dim filter and most terminals do), and in 256 colours every colour is first
reduced to the xterm palette the way Rich's driver reduces it (`ColorSystem.EIGHT_BIT`).
The WCAG contrast of text and background is then computed per cell.

Uses Textual's compositor (private API): a test helper, not the reader's code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import DEFAULT_TERMINAL_THEME, TerminalTheme
from textual.strip import Strip

MIN_CONTRAST = 4.5
MODES = ("truecolor", "256")
RGB = tuple[int, int, int]


def screen_lines(app: Any) -> list[list[Segment]]:
    """The screen as the terminal gets it: one list of segments per line."""
    update = app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens)
    return [list(Strip.join(list(line))) for line in update.strips]


def _luminance(rgb: RGB) -> float:
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: RGB, b: RGB) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _rgb(color: RichColor | None, default: RGB, mode: str, theme: TerminalTheme) -> RGB:
    if color is None or color.is_default:
        return default
    if mode == "256" and color.system == ColorSystem.TRUECOLOR:
        color = color.downgrade(ColorSystem.EIGHT_BIT)
    t = color.get_truecolor(theme)
    return (t.red, t.green, t.blue)


def shown_colours(style: Style, mode: str,
                  theme: TerminalTheme = DEFAULT_TERMINAL_THEME) -> tuple[RGB, RGB]:
    """(text, background) as the terminal shows a cell drawn in `style`."""
    fg_default = (theme.foreground_color.red, theme.foreground_color.green,
                  theme.foreground_color.blue)
    bg_default = (theme.background_color.red, theme.background_color.green,
                  theme.background_color.blue)
    fg = _rgb(style.color, fg_default, mode, theme)
    bg = _rgb(style.bgcolor, bg_default, mode, theme)
    if style.reverse:
        fg, bg = bg, fg
    if style.dim:
        fg = tuple((f + b) // 2 for f, b in zip(fg, bg, strict=True))  # type: ignore[assignment]
    return fg, bg


@dataclass(frozen=True)
class Cell:
    """A letter or digit drawn below the contrast wanted."""

    x: int
    y: int
    char: str
    text: str  # the segment it belongs to
    ratio: float
    fg: RGB
    bg: RGB

    def __str__(self) -> str:
        fg, bg = ("#{:02x}{:02x}{:02x}".format(*c) for c in (self.fg, self.bg))
        return (f"({self.x},{self.y}) {self.char!r} in {self.text.strip()[:30]!r}: "
                f"{self.ratio:.2f}:1 {fg} on {bg}")


def measure(lines: list[list[Segment]], mode: str,
            theme: TerminalTheme = DEFAULT_TERMINAL_THEME) -> tuple[int, list[Cell]]:
    """(letters and digits measured, those under MIN_CONTRAST) on a rendered screen."""
    counted = 0
    low: list[Cell] = []
    for y, line in enumerate(lines):
        x = 0
        for seg in line:
            if seg.control:
                continue
            colours = None
            for char in seg.text:
                if char.isalnum():
                    counted += 1
                    if colours is None:
                        colours = shown_colours(seg.style or Style(), mode, theme)
                    ratio = contrast(*colours)
                    if ratio < MIN_CONTRAST:
                        low.append(Cell(x, y, char, seg.text, ratio, *colours))
                x += 1
    return counted, low


def report(low: list[Cell], limit: int = 12) -> str:
    """The worst cells, one per distinct segment text and colours."""
    seen: set[tuple[str, RGB, RGB]] = set()
    out = []
    for cell in sorted(low, key=lambda c: c.ratio):
        key = (cell.text.strip(), cell.fg, cell.bg)
        if key in seen:
            continue
        seen.add(key)
        out.append(str(cell))
        if len(out) >= limit:
            break
    return "\n".join(out)
