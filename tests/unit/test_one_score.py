"""One score and one order per paper everywhere (issue 19, item 5): the shown score is the
current model's cached one, else the local ranking's, with where it comes from; the digest
file, `digest --send`, `score --json` and the reader rank papers the same way."""

from __future__ import annotations

import json
from datetime import date

from support.waiting import until_the_clock_moves

from paperterm.day.listing import make_entries, sort_entries
from paperterm.day.scores import LOCAL, PREFILTER, default_ranks, ranked, shown_scores
from paperterm.models import Paper
from paperterm.outputs.delivery import top_picks
from paperterm.outputs.digest import top_papers
from paperterm.scoring.prompt import PROMPT_VERSION
from paperterm.scoring.types import Score
from paperterm.services import library
from paperterm.settings import ScoringSettings
from paperterm.settings.config import Config
from paperterm.store import ScoreRow, Store
from paperterm.topics import resolve_topic

FEED_KEY = "cs.AI+cs.LG"
TOPIC = resolve_topic("moe", Config()).topic


def paper(pid: str, title: str, abstract: str = "Experts routed by a gate.") -> Paper:
    return Paper(pid, 1, title, ("Ada Lovelace",), abstract, ("cs.LG",), "cs.LG")


PAPERS = [paper("2603.00001", "Sparse mixture of experts routing"),
          paper("2603.00002", "Mixture of experts load balancing"),
          paper("2603.00003", "Expert routing with a learned gate")]


def cache_score(store: Store, pid: str, model: str, relevance: int) -> None:
    store.scores.save_scores([ScoreRow(pid, 1, relevance, 4, f"{model} says {relevance}")],
                             topic_fp=TOPIC.fingerprint, model=model, prompt_version=PROMPT_VERSION,
                             n_papers=1, prompt_tokens=10, completion_tokens=5, cost=0.0)


def filled_store(path) -> Store:  # type: ignore[no-untyped-def]
    store = Store.open(path)
    store.papers.save_day(FEED_KEY, date(2026, 3, 2), PAPERS, source="rss")
    cache_score(store, "2603.00002", "new/model", 9)
    until_the_clock_moves()  # the next score is cached later
    cache_score(store, "2603.00002", "old/model", 5)
    return store


# -- the resolver ----------------------------------------------------------------------------


def test_the_current_models_cached_score_wins_over_a_newer_one_of_another_model(tmp_path):
    store = filled_store(tmp_path / "db.sqlite3")
    settings = ScoringSettings(model="new/model")
    shown = shown_scores(store, PAPERS, TOPIC, settings)
    assert shown["2603.00002"].relevance == 9
    assert shown["2603.00002"].provenance == "new/model"
    # the others have no score from this model: the local ranking's, said so
    assert {shown[p].provenance for p in ("2603.00001", "2603.00003")} == {LOCAL}
    assert all(shown[p].relevance is not None for p in ("2603.00001", "2603.00003"))
    prefilter = shown_scores(store, PAPERS, TOPIC, ScoringSettings(model="new/model",
                                                                   prefilter=0.3))
    assert prefilter["2603.00001"].provenance == PREFILTER
    store.close()


def test_without_a_model_every_paper_of_a_ranked_day_has_its_local_score(tmp_path):
    from paperterm.scoring.local import rank_locally

    store = filled_store(tmp_path / "db.sqlite3")
    day = rank_locally(store, PAPERS, TOPIC, day="2026-03-02") or []  # the day list ranks
    shown = shown_scores(store, PAPERS, TOPIC, ScoringSettings())
    assert {s.provenance for s in shown.values()} == {LOCAL}
    assert {p: s.relevance for p, s in shown.items()} == {s.paper_id: s.relevance for s in day}
    assert shown["2603.00002"].relevance != 5  # never an LLM's cached score
    store.close()


def test_similar_shows_the_current_models_score_not_an_old_one(tmp_path):
    store = filled_store(tmp_path / "db.sqlite3")
    hits, shown = library.similar(store, "2603.00001", TOPIC, ScoringSettings(model="new/model"))
    by_id = {h.paper.id: h for h in hits}
    assert by_id["2603.00002"].relevance == 9
    assert shown["2603.00002"].provenance == "new/model"
    store.close()


# -- the CLI ---------------------------------------------------------------------------------


def test_search_json_gives_the_cached_score_of_the_configured_model(cli, isolated_home):
    filled_store(isolated_home.db).close()
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('model = "new/model"\n')
    proc = cli("search", "mixture", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["id"]: r for r in json.loads(proc.stdout)}
    assert rows["2603.00002"]["relevance"] == 9
    assert rows["2603.00002"]["score_from"] == "new/model"
    assert rows["2603.00001"]["relevance"] is not None
    assert rows["2603.00001"]["score_from"] == LOCAL


# -- one order -------------------------------------------------------------------------------


def _scores() -> dict[str, Score]:
    """Equal relevance and novelty: the fine score decides, not the announcement order."""
    return {"2603.00001": Score("2603.00001", 1, 7, None, "", "scored", fine=0.60),
            "2603.00002": Score("2603.00002", 1, 7, None, "", "scored", fine=0.70),
            "2603.00003": Score("2603.00003", 1, 7, None, "", "scored", fine=0.65)}


def test_digest_send_breaks_ties_by_the_fine_score_like_the_digest_file():
    scores = _scores()
    best = ["2603.00002", "2603.00003", "2603.00001"]
    assert [p.id for p in top_papers(PAPERS, scores, 3)] == best
    assert [x.paper.id for x in top_picks(PAPERS, scores, 3)] == best
    assert [x.paper.id for x in top_picks(PAPERS, scores, 2)] == best[:2]


def test_reader_digest_send_and_score_json_rank_alike():
    scores = {**_scores(),
              "2603.00004": Score("2603.00004", 1, 8, 3, "", "cached"),
              "2603.00005": Score("2603.00005", 1, 7, None, "local", "prefiltered", fine=0.9),
              "2603.00006": Score("2603.00006", 1, None, None, "", "unscored", "failed")}
    papers = [*PAPERS, paper("2603.00004", "d"), paper("2603.00005", "e"),
              paper("2603.00006", "f")]
    order = [p.id for p in ranked(papers, scores)]
    assert order == ["2603.00004", "2603.00005", "2603.00002", "2603.00003", "2603.00001"]
    assert [x.paper.id for x in top_picks(papers, scores, 9)] == order
    assert [p.id for p in top_papers(papers, scores, 9)] == order
    ranks = default_ranks(papers, list(scores.values()))
    assert sorted(ranks, key=ranks.__getitem__) == [*order, "2603.00006"]
    entries = make_entries(papers)
    for e in entries:
        s = scores[e.id]
        e.set_score(s.relevance, s.novelty, s.reason, s.status, s.error, s.fine)
    assert [e.id for e in sort_entries(entries, "relevance")] == [*order, "2603.00006"]


def test_with_a_model_the_local_stand_in_loads_no_embedding_model(tmp_path, monkeypatch):
    """As in the day list, a paper the model has not scored shows its keyword score: a
    search in the reader never waits for the embedding model to load."""
    import paperterm.scoring.local.semantic as semantic

    def no_model():  # type: ignore[no-untyped-def]
        raise AssertionError("the embedding model was loaded")

    monkeypatch.setattr(semantic, "load_model", no_model)
    store = filled_store(tmp_path / "db.sqlite3")
    shown = shown_scores(store, PAPERS, TOPIC, ScoringSettings(model="new/model"))
    assert shown["2603.00001"].provenance == LOCAL and shown["2603.00001"].relevance
    store.close()
