"""The dates the command line is given, read as the reader reads them (issue 29: one door):
arXiv's today (US Eastern, `PAPERTERM_TODAY` for tests), `--date` and `--since` parsed as the
reader's `D` parses a date, and a weekend `--date` taken as the Friday before. Light: the
parser calls it for a date argument; loading the day is `services.days`."""

from __future__ import annotations

from datetime import date

from paperterm.sources.calendar import eastern_today
from paperterm.sources.daynav import parse_day, parse_jump

__all__ = ["asked_day", "eastern_today", "parse_date"]


def parse_date(text: str, *, week: bool = False) -> date:
    """The date `text` names, from arXiv's today: YYYY-MM-DD, today or yesterday (with
    `week`, also this week's Monday; `daynav.parse_day`). ValueError (OverflowError at an
    end of the calendar) with one line."""
    return parse_day(text, eastern_today(), week=week)


def asked_day(day: date) -> tuple[date, str | None]:
    """The announcement day `--date DAY` means, as the reader's `D`: a weekend day is the
    Friday before, with the notice saying so (`daynav.parse_jump`)."""
    return parse_jump(day.isoformat(), max(day, eastern_today()))
