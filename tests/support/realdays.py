"""Real arXiv days (tests/fixtures/feeds/day-*.jsonl, copies of ../shared/data) as papers,
and saved into a real store as the RSS fetch of that morning would."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from paperterm.models import Paper
from paperterm.store import Store

FEEDS = Path(__file__).resolve().parents[1] / "fixtures" / "feeds"
FEED_KEY = "cs.AI+cs.LG"  # the default categories
DAYS = (date(2026, 2, 25), date(2026, 3, 2))  # the real days in the fixtures


def day_papers(day: date) -> list[Paper]:
    """The papers announced on `day`, in the listing's order."""
    out = []
    for line in (FEEDS / f"day-{day.isoformat()}.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            out.append(Paper(d["id"], d["version"], d["title"], tuple(d["authors"]),
                             d["abstract"], tuple(d["categories"]), d["primary_category"],
                             d["announce_type"], comment=d.get("arxiv_comment")))
    return out


def save_days(db: Path, days: tuple[date, ...] = DAYS) -> dict[date, list[Paper]]:
    """Each day saved into the store at `db` under the default feed; the papers per day."""
    store = Store.open(db)
    try:
        out = {}
        for day in days:
            out[day] = day_papers(day)
            store.papers.save_day(FEED_KEY, day, out[day], source="rss", fetched_for=day)
    finally:
        store.close()
    return out
