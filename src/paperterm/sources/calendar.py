"""arXiv's announcement calendar: its "today", weekends and holidays, which day a fetch
returns, when an empty answer is final, and which submissions a past day announced."""

from __future__ import annotations

import time
from datetime import date, datetime, timedelta, timezone

from paperterm.io.env import env

EASTERN = timezone(timedelta(hours=-5))
EMPTY_RETRY_SECONDS = 3600  # an empty weekday feed is asked again after this long
WEEKEND = "arXiv does not announce on Saturdays and Sundays"
HOLIDAY = "arXiv made no announcement today (an arXiv holiday?)"


def eastern_today() -> date:
    """arXiv's calendar day (US Eastern; standard time is close enough for day boundaries).

    PAPERTERM_TODAY (an ISO date) overrides it.
    """
    override = env("PAPERTERM_TODAY")
    if override:
        return date.fromisoformat(override)
    try:
        from zoneinfo import ZoneInfo

        return datetime.now(ZoneInfo("America/New_York")).date()
    except Exception:
        return datetime.now(EASTERN).date()


def is_weekend(day: date) -> bool:
    """arXiv never announces on Saturdays and Sundays."""
    return day.weekday() >= 5


def no_announcement_reason(today: date) -> str:
    """Why today's feed is empty: the weekend, or (on a weekday) presumably a holiday."""
    return WEEKEND if is_weekend(today) else HOLIDAY


def announced_day(feed_day: date | None, today: date) -> date:
    """The announcement a fetch made on `today` returned: the feed's own date when it says."""
    return feed_day or today


def empty_answer_is_final(today: date, fetched_at: float, now: float | None = None) -> bool:
    """Whether an empty feed fetched at `fetched_at` (epoch seconds) still stands: always on
    a weekend; on a weekday for an hour only, since arXiv may announce late."""
    now = time.time() if now is None else now
    return is_weekend(today) or now - fetched_at < EMPTY_RETRY_SECONDS


STALE_RETRY_SECONDS = 1800  # a cached older announcement is re-fetched after this long


def cached_day_is_stale(today: date, day: date, fetched_at: float,
                        now: float | None = None) -> bool:
    """Whether a fetch made today that returned an older announcement (`day`) should be made
    again: on a weekday, once STALE_RETRY_SECONDS have passed (arXiv may have announced
    since; asking more often would not be polite)."""
    now = time.time() if now is None else now
    return day < today and not is_weekend(today) and now - fetched_at >= STALE_RETRY_SECONDS


def which_announcement(day: date, today: date) -> str | None:
    """A notice when the day shown is not today's announcement."""
    if day >= today:
        return None
    return (f"this is the {day:%m-%d} announcement (arXiv has not announced "
            f"{today:%m-%d} yet, or not in this feed)")


def submission_window(day: date) -> tuple[date, date]:
    """The dates (at 19:00 UTC) bounding the submissions arXiv announced on `day`.

    arXiv announces on day D the papers submitted between 14:00 US Eastern of the previous
    two business days; we approximate with [prev business day - 1, prev business day).
    """
    end = day - timedelta(days=1)
    while is_weekend(end):
        end -= timedelta(days=1)
    start = end - timedelta(days=1)
    while is_weekend(start):
        start -= timedelta(days=1)
    return start, end
