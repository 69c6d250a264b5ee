"""Issue 32 item 3: following an author never blanks the scores of search and Starred (the
days were ranked before the follow: their cached rankings are keyed without it)."""

from __future__ import annotations

import json
from datetime import date

import pytest
from support.realdays import save_days

from paperterm.scoring.local import semantic

DAY = date(2026, 2, 25)


def test_search_and_starred_keep_their_scores_after_a_follow(cli, isolated_home):
    if semantic.load_model() is None:
        pytest.skip("wordllama is not installed")
    papers = save_days(isolated_home.db, (DAY,))[DAY]
    assert cli("score", "--date", DAY.isoformat(), "--offline", "--json").returncode == 0
    before = json.loads(cli("search", "lora", "--json").stdout)
    assert before and all(r["relevance"] is not None for r in before)
    lora = [p for p in papers if p.id == before[-1]["id"]]
    assert cli("star", lora[0].id).returncode == 0
    author = lora[0].authors[0]
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text(f"follow = [{json.dumps(author)}]\n", encoding="utf-8")
    after = json.loads(cli("search", "lora", "--json").stdout)
    assert [r["id"] for r in after] == [r["id"] for r in before]
    assert all(r["relevance"] is not None for r in after)  # the old code: every one null
    by_id = {r["id"]: r for r in before}
    for r in after:  # the followed author's paper moves up; the others keep theirs
        if r["id"] == lora[0].id:
            assert r["relevance"] >= by_id[r["id"]]["relevance"]
        else:
            assert r["relevance"] == by_id[r["id"]]["relevance"]
    starred = json.loads(cli("starred", "--json").stdout)
    assert [r["id"] for r in starred] == [lora[0].id]
    assert starred[0]["relevance"] is not None
    # the day ranked again with the follow shows what search showed
    day = {r["id"]: r for r in map(json.loads, cli(
        "score", "--date", DAY.isoformat(), "--offline", "--json").stdout.splitlines())}
    assert day[lora[0].id]["relevance"] == starred[0]["relevance"]
