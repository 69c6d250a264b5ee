"""An older cached day of two zebrafish papers, for the tests that search across days."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from paperterm.models import Paper
from paperterm.store import Store

OLDER = date(2026, 2, 2)


def older_day(db: Path | str, *more: Paper) -> None:
    """Cache 2026-02-02 (cs.AI+cs.LG): two zebrafish-tracking papers, and `more`."""
    store = Store.open(db)
    store.papers.save_day("cs.AI+cs.LG", OLDER, [
        Paper("2602.00001", 1, "Zebrafish larvae tracking with transformers", ("Ada Lovelace",),
              "We track zebrafish larvae in video.", ("cs.CV",), "cs.CV"),
        Paper("2602.00002", 1, "Tracking zebrafish schools", ("Alan Turing",),
              "Zebrafish larvae schools, tracked.", ("cs.CV",), "cs.CV"),
        *more,
    ], source="rss")
    store.close()
