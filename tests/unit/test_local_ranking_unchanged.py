"""The local ranking gives the values it gave before it became one package with one entry
point (issue 19, item 1): a real day (tests/fixtures/feeds, from the shared data) ranked
for every built-in topic, with a followed author, by the blend with and without what the
user taught it, and as papers of any day; compared with the values recorded before.

To record them again (only ever on purpose: a ranking change), write `_rankings(tmp)` to
RECORDED as JSON (`json.dumps(got, indent=0, ensure_ascii=False)`)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from paperterm.models import Paper
from paperterm.scoring.local import rank_locally
from paperterm.scoring.local.semantic import load_model
from paperterm.settings.config import Config
from paperterm.store import Store
from paperterm.topics import builtin_topics, resolve_topic

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DAY = FIXTURES / "feeds" / "day-2026-03-02.jsonl"
RECORDED = FIXTURES / "local-ranking-2026-03-02.json"
KEY = "2026-03-02"


def _papers() -> list[Paper]:
    rows = [json.loads(line) for line in DAY.read_text().splitlines()]
    return [Paper(r["id"], r["version"], r["title"], tuple(r["authors"]), r["abstract"],
                  tuple(r["categories"]), r["primary_category"], r["announce_type"])
            for r in rows]


def _rows(scores) -> list[list[object]]:  # type: ignore[no-untyped-def]
    return [[s.paper_id, s.relevance, s.fine, s.reason] for s in scores]


def _rankings(tmp_path: Path) -> dict[str, list[list[object]]]:
    papers = _papers()
    moe = resolve_topic("moe", Config()).topic
    no_cache = Store.unavailable("ranked without a cache")
    out = {f"keywords/{name}": _rows(rank_locally(no_cache, papers, topic, day=KEY,
                                                   keywords_only=True))
           for name, topic in sorted(builtin_topics().items())}
    followed = replace(moe, follow=(papers[7].authors[0], papers[40].authors[-1]))
    out["keywords/moe+follow"] = _rows(rank_locally(no_cache, papers, followed, day=KEY,
                                                    keywords_only=True))
    no_cache.close()
    store = Store.open(tmp_path / "db.sqlite3")
    try:
        store.papers.save_day("cs.AI+cs.LG", date(2026, 3, 2), papers, source="rss")
        out["blend/moe"] = _rows(rank_locally(store, papers, moe, day=KEY) or [])
        for p in (papers[3], papers[11], papers[60]):
            store.marks.set_starred(p.id, True, topic=moe.name)
        store.marks.set_dismissed(papers[5].id, moe.name, True)
        out["blend/moe+learned"] = _rows(rank_locally(store, papers, moe, day=KEY) or [])
        out["blend/moe+learned+follow"] = _rows(
            rank_locally(store, papers, followed, day=KEY) or [])
        out["any-day/moe+learned"] = _rows(rank_locally(store, papers[:60], moe) or [])
        again = rank_locally(store, papers, moe, day=KEY, compute=False)  # the cache
        assert again is not None and _rows(again) == [
            [i, r, pytest.approx(f), why] for i, r, f, why in out["blend/moe+learned"]]
    finally:
        store.close()
    return out


@pytest.mark.skipif(load_model() is None, reason="the embedding model is not installed")
def test_the_local_ranking_of_a_real_day_is_unchanged(tmp_path):
    got = _rankings(tmp_path)
    recorded = json.loads(RECORDED.read_text())
    assert sorted(got) == sorted(recorded)
    for case, rows in recorded.items():
        assert [r[0] for r in got[case]] == [r[0] for r in rows], case
        assert [r[1] for r in got[case]] == [r[1] for r in rows], case
        assert [r[3] for r in got[case]] == [r[3] for r in rows], case
        assert [r[2] for r in got[case]] == pytest.approx([r[2] for r in rows], abs=1e-6), case
