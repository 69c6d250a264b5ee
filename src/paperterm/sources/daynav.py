"""Moving between announcement days: the previous or next day (weekends and known holidays
skipped), a typed date to jump to, this week's first day, and which days of a range still
have to be fetched. Days come from the cache; a missing one is fetched unless offline."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import TYPE_CHECKING, NamedTuple

from paperterm.sources.calendar import WEEKEND, is_weekend

if TYPE_CHECKING:
    from paperterm.store import Papers

LOOKAHEAD = 31  # days of calendar searched for the previous / next announcement
MAX_FILL = 5  # missing days of a multi-day view fetched at most (the most recent ones)
NOTHING_SINCE = "No cached papers since"  # a multi-day view with no papers (`W`)


class Target(NamedTuple):
    """Where a move lands: `day` (None: nowhere, `notice` says why), whether it is cached,
    and what to tell the user (skipped days)."""

    day: date | None
    cached: bool = False
    notice: str | None = None


def weekdays(start: date, end: date) -> list[date]:
    """The Monday-to-Friday dates in [start, end], in order."""
    out, d = [], start
    while d <= end:
        if not is_weekend(d):
            out.append(d)
        d += timedelta(days=1)
    return out


def week_start(today: date) -> date:
    """Monday of the week holding `today` ("this week")."""
    return today - timedelta(days=today.weekday())


def _skipped(days: list[date], why: str) -> str | None:
    if not days:
        return None
    shown = ", ".join(f"{d:%a %m-%d}" for d in days[:5])
    more = f" and {len(days) - 5} more" if len(days) > 5 else ""
    return f"skipped {shown}{more} ({why})"


def neighbour(papers: Papers, feed: str, day: date, step: int, today: date, *,
              offline: bool = False) -> Target:
    """The announcement day before (step -1) or after (step 1) `day` for this feed."""
    where = "before" if step < 0 else "after"
    if step > 0 and day >= today:
        return Target(None, notice=f"{day.isoformat()} is the latest announcement (today is "
                      f"{today.isoformat()})")
    if offline:
        found = nearest_cached(papers, feed, day, step, today)
        if found is None:
            return Target(None, notice=f"Offline: no cached announcement {where} "
                          f"{day.isoformat()}")
        lo, hi = sorted((day, found))
        between = [d for d in weekdays(lo, hi) if d not in (lo, hi)]
        return Target(found, True, _skipped(between, "not cached; offline"))
    lo, hi = sorted((day + timedelta(days=step * LOOKAHEAD), day))
    cached = papers.cached_days(feed, lo, hi)
    empty = papers.empty_days(feed, lo, hi)
    holidays: list[date] = []
    d = day
    for _ in range(LOOKAHEAD):
        d += timedelta(days=step)
        if step > 0 and d > today:
            break
        if is_weekend(d):
            continue
        if d in cached:
            return Target(d, True, _skipped(holidays, "no announcement: holidays"))
        if d in empty:
            holidays.append(d)
            continue
        return Target(d, False, _skipped(holidays, "no announcement: holidays"))
    return Target(None, notice=f"No announcement {where} {day.isoformat()} "
                  f"within {LOOKAHEAD} days")


def nearest_cached(papers: Papers, feed: str, day: date, step: int, today: date,
                   ) -> date | None:
    """The closest cached announcement strictly before (step < 0) or after `day`, never
    after `today`; None when there is none (where a failed step lands instead)."""
    found = papers.nearest_cached_day(feed, day, step)
    return found if found is not None and found <= today else None


def closest_cached(papers: Papers, feed: str, day: date, today: date) -> date | None:
    """The cached announcement day nearest `day` either way (`nearest_cached` each way;
    on a tie the earlier one: a past day is complete), never after `today`; None when
    there is none."""
    before = nearest_cached(papers, feed, day, -1, today)
    after = nearest_cached(papers, feed, day, 1, today)
    if before is None or after is None:
        return before or after
    return before if day - before <= after - day else after


def parse_day(text: str, today: date, *, week: bool = False) -> date:
    """The date `text` names: YYYY-MM-DD, "today", "yesterday" (with `week`, also "week":
    this week's Monday). One parser for `--date`, `--since` and the reader's `D`. Raises
    ValueError with one line: "no such date" for a well-formed one that does not exist
    (2026-02-30), "not a date" for anything else."""
    word = text.strip().lower()
    try:
        named = {"today": today, "yesterday": today - timedelta(days=1)}
        if week:
            named["week"] = week_start(today)
    except OverflowError:  # PAPERTERM_TODAY=0001-01-01: no day before it
        raise ValueError(f"{text.strip()[:40]!r} from {today.isoformat()} is beyond the "
                         "ends of the calendar (0001-01-01 to 9999-12-31)") from None
    if word in named:
        return named[word]
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", word):
        try:
            return date.fromisoformat(word)
        except ValueError:
            raise ValueError(f"no such date: {word!r}") from None
    *first, last = ["YYYY-MM-DD", *named]
    raise ValueError(f"not a date: {text.strip()[:40]!r} (expected {', '.join(first)} or "
                     f"{last})")


def parse_jump(text: str, today: date) -> tuple[date, str | None]:
    """The announcement day a typed date means, and a notice when it is not that date.

    Accepts YYYY-MM-DD, "today" and "yesterday"; a weekend date means the Friday before.
    Raises ValueError with a one-line message for anything else, or a future date."""
    wanted = parse_day(text, today)
    if wanted > today:
        raise ValueError(f"{wanted.isoformat()} is in the future (today is "
                         f"{today.isoformat()})")
    day = wanted
    while is_weekend(day):
        day -= timedelta(days=1)
    if day == wanted:
        return day, None
    return day, (f"{wanted.isoformat()} is a {wanted:%A}: {WEEKEND}; showing "
                 f"{day:%A} {day.isoformat()}")


def missing_days(papers: Papers, feed: str, since: date, today: date) -> list[date]:
    """Weekdays in [since, today] with nothing cached for this feed and not known to be
    empty, oldest first. Today counts once fetched today (arXiv may not have announced)."""
    if since > today:
        return []
    cached = papers.cached_days(feed, since, today)
    empty = papers.empty_days(feed, since, today)
    if papers.fetch_record(feed, today) is not None:
        empty.add(today)
    return [d for d in weekdays(since, today) if d not in cached and d not in empty]
