"""Headless commands reuse the local scorer's cache (per day, topic and scorer version),
as the reader does (issue 10, item 4)."""

from __future__ import annotations

import json

import paperterm.scoring.local.keywords as local


def test_score_twice_ranks_once(cli, monkeypatch):
    calls: list[int] = []
    real = local.scores_and_exclusions  # under the keyword scores and the blend alike
    monkeypatch.setattr(local, "scores_and_exclusions",
                        lambda papers, topic, *a: calls.append(len(papers))
                        or real(papers, topic, *a))
    first = cli("score", "--sample", "--topic", "moe", "--json")
    second = cli("score", "--sample", "--topic", "moe", "--json")
    assert first.returncode == second.returncode == 0, first.stderr
    assert calls == [244]  # the second run read the cache
    assert [json.loads(ln) for ln in first.stdout.splitlines()] == [
        json.loads(ln) for ln in second.stdout.splitlines()]
    cli("score", "--sample", "--topic", "agents", "--json")
    assert calls == [244, 244]  # another topic: ranked again


def test_the_cache_keeps_the_newest_rankings_of_a_day_and_topic(tmp_path):
    """Every star makes a new learned ranking, a row holding every paper's score: only the
    newest few of a day and topic are kept, other days and topics untouched."""
    from paperterm.store import Store
    from paperterm.store.local_scores import KEEP_PER_DAY_TOPIC

    store = Store.open(tmp_path / "paperterm.sqlite3")
    try:
        row = [("2602.00001", 1, 5, "matched: x (title)", 0.4)]
        store.scores.save_local_scores("2026-02-25 rss", "moe", "bm25-3", "fp", row)
        store.scores.save_local_scores("2026-02-26 rss", "moe", "blend-1/old", "fp", row)
        for n in range(KEEP_PER_DAY_TOPIC + 3):
            store.scores.save_local_scores("2026-02-25 rss", "moe", f"blend-1/{n}", "fp", row)
        store.scores.save_local_scores("2026-02-25 rss", "agents", "bm25-3", "fp", row)
        kept = {(r[0], r[1], r[2]) for r in store.conn.execute(
            "SELECT day_key, topic_fp, scorer_version FROM local_scores")}
        newest = {("2026-02-25 rss", "moe", f"blend-1/{n}")
                  for n in range(3, KEEP_PER_DAY_TOPIC + 3)}
        assert kept == newest | {("2026-02-26 rss", "moe", "blend-1/old"),
                                 ("2026-02-25 rss", "agents", "bm25-3")}
        assert store.scores.local_scores("2026-02-25 rss", "moe", "blend-1/6", "fp") == row
        store.scores.save_local_scores("2026-02-25 rss", "moe", "blend-1/3", "fp", row)  # again
        assert store.scores.local_scores("2026-02-25 rss", "moe", "blend-1/3", "fp") == row
    finally:
        store.close()


def test_an_empty_day_leaves_no_ranking_behind(store):
    """The reader's loading screen (a day of no papers, labelled "loading … from arXiv…")
    was ranked and cached under that label: a row for nothing, never read again."""
    from paperterm.scoring.local import rank_locally
    from paperterm.topics import builtin_topics

    assert rank_locally(store, [], builtin_topics()["moe"], day="loading cs.LG from arXiv…",
                        keywords_only=True) == []
    assert store.db.conn.execute("SELECT count(*) FROM local_scores").fetchone()[0] == 0
