"""A search never loads the embedding model (issue 20, item 6: `search --json` took 0.77 s
over `--version` at 20,000 cached papers because a hit whose day was never ranked had its
blend computed). A hit shows what its day list shows: the day's cached blend, else the
keyword score the list shows while the blend is on its way ("keywords (provisional)"), else,
its day never ranked for the topic, no score yet."""

from __future__ import annotations

import json
from datetime import date

import pytest

import paperterm.scoring.local.semantic as semantic
from paperterm.day.scores import LOCAL, PROVISIONAL
from paperterm.models import Paper
from paperterm.scoring.local import rank_locally
from paperterm.settings.config import Config
from paperterm.store import Store
from paperterm.topics import resolve_topic

TOPIC = resolve_topic("moe", Config()).topic
DAY = date(2026, 3, 2)


def paper(pid: str, title: str) -> Paper:
    return Paper(pid, 1, title, ("Ada Lovelace",), f"{title}: experts routed by a gate.",
                 ("cs.LG",), "cs.LG")


PAPERS = [paper("2603.00001", "Sparse mixture of experts routing"),
          paper("2603.00002", "Mixture of experts load balancing"),
          paper("2603.00003", "Protein folding with diffusion")]


@pytest.fixture
def no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def load() -> None:
        raise AssertionError("the embedding model was loaded")

    monkeypatch.setattr(semantic, "load_model", load)


def saved(db) -> Store:  # type: ignore[no-untyped-def]
    store = Store.open(db)
    store.papers.save_day("cs.AI+cs.LG", DAY, PAPERS, source="rss")
    return store


def search(cli, *words: str) -> dict[str, dict[str, object]]:  # type: ignore[no-untyped-def]
    proc = cli("search", *words, "--json")
    assert proc.returncode == 0, proc.stderr
    return {r["id"]: r for r in json.loads(proc.stdout)}


def test_a_hit_of_a_never_ranked_day_has_no_score_yet_and_no_model_is_loaded(
        cli, isolated_home, no_model):
    saved(isolated_home.db).close()
    rows = search(cli, "experts")
    assert set(rows) == {"2603.00001", "2603.00002", "2603.00003"}
    assert {(r["relevance"], r["score_from"]) for r in rows.values()} == {(None, None)}


def test_a_hit_shows_the_keyword_score_its_day_list_shows_until_the_blend_comes(
        cli, isolated_home, no_model):
    store = saved(isolated_home.db)
    # what the day list shows at first paint: the day's keyword ranking (cached with it)
    first = rank_locally(store, PAPERS, TOPIC, day=DAY.isoformat(), keywords_only=True)
    store.close()
    assert first is not None
    rows = search(cli, "experts")
    assert {pid: (r["relevance"], r["score_from"]) for pid, r in rows.items()} == {
        s.paper_id: (s.relevance, PROVISIONAL) for s in first}
    text = cli("search", "sparse").stdout
    assert text.startswith(f"~{first[0].relevance} ")  # provisional, as the reader shows it


def test_a_hit_of_a_ranked_day_shows_the_days_blend(cli, isolated_home):
    if semantic.load_model() is None:
        pytest.skip("wordllama is not installed")
    store = saved(isolated_home.db)
    rank_locally(store, PAPERS, TOPIC, day=DAY.isoformat(), keywords_only=True)
    blend = rank_locally(store, PAPERS, TOPIC, day=DAY.isoformat()) or []  # then the blend
    store.close()
    rows = search(cli, "experts")
    assert {pid: (r["relevance"], r["score_from"]) for pid, r in rows.items()} == {
        s.paper_id: (s.relevance, LOCAL) for s in blend}


def test_marks_given_since_the_days_blend_leave_its_scores_shown(cli, isolated_home):
    """A paper read or starred since a day was ranked changes what the ranking was taught:
    its list shows the day's blend until the day is ranked again, and so does a search (it
    showed no score at all: in the reader, search said "·" where the list said 10)."""
    if semantic.load_model() is None:
        pytest.skip("wordllama is not installed")
    store = saved(isolated_home.db)
    rank_locally(store, PAPERS, TOPIC, day=DAY.isoformat(), keywords_only=True)
    blend = rank_locally(store, PAPERS, TOPIC, day=DAY.isoformat()) or []
    store.close()
    assert cli("star", "--topic", "moe", "2603.00002").returncode == 0  # teaches: stale now
    rows = search(cli, "experts")
    assert {pid: (r["relevance"], r["score_from"]) for pid, r in rows.items()} == {
        s.paper_id: (s.relevance, LOCAL) for s in blend}
