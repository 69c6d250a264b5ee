"""Similar papers (issue 11 item 4): bounded candidate words, the newest-papers window when
every word is common, re-ranking by the semantic scorer's cached embeddings; and the bound
on how many matches a search ranks (item 7)."""

from __future__ import annotations

from array import array
from datetime import date

from paperterm.models import Paper
from paperterm.scoring.similar import similar_papers
from paperterm.store import Store
from paperterm.store import similar as sim


def _paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(pid, 1, title, ("A. Author",), abstract, ("cs.LG",), "cs.LG")


def test_common_words_are_left_out_and_rare_ones_ranked_first():
    words = {"graphene": 3, "learning": 6, "membrane": 1, "unique": 3}
    docs = {"graphene": 12, "learning": sim.COMMON, "membrane": 40, "unique": 1}
    chosen, fits = sim.choose_terms(words, docs, total=100_000)
    assert fits
    assert chosen == ["graphene", "membrane"]  # "learning" too common, "unique" finds nothing


def test_when_every_word_is_common_only_a_few_are_used_on_the_newest_papers():
    words = {"learning": 3, "model": 1, "data": 1, "neural": 2}
    docs = dict.fromkeys(words, sim.COMMON)
    chosen, fits = sim.choose_terms(words, docs, total=1_000_000)
    assert not fits and chosen == ["learning", "neural", "data"]


def _store(tmp_path) -> Store:
    store = Store.open(tmp_path / "s.sqlite3")
    store.papers.save_day("f", date(2026, 3, 2), [
        _paper("2603.00001", "Graphene membranes for water desalination",
                      "Graphene membranes filter salt from seawater."),
        _paper("2603.00002", "Desalination with porous graphene",
                      "Porous graphene membranes and seawater."),
        _paper("2603.00003", "Graphene sensors", "Graphene in sensors for seawater salt."),
        _paper("2603.00004", "Agents that browse", "Tools and language models."),
    ], source="rss")
    return store


def test_similar_ranks_when_all_words_are_common(tmp_path, monkeypatch):
    monkeypatch.setattr(sim, "COMMON", 2)  # every shared word counts as common here
    store = _store(tmp_path)
    ids = [h.paper.id for h in store.library.similar("2603.00001")]
    assert ids and "2603.00001" not in ids and "2603.00004" not in ids
    store.close()


def test_cached_embeddings_re_rank_the_candidates(tmp_path):
    from paperterm.scoring.local.cache import EMBEDDING_MODEL

    store = _store(tmp_path)
    assert similar_papers(store, "2603.00001")[0].paper.id == "2603.00002"  # no embeddings
    vectors = {"2603.00001": (1.0, 0.0), "2603.00002": (0.0, 1.0), "2603.00003": (0.9, 0.1)}
    store.scores.save_embeddings(EMBEDDING_MODEL, [(i, "fp", array("f", v).tobytes())
                                                   for i, v in vectors.items()])
    ids = [h.paper.id for h in similar_papers(store, "2603.00001")]
    assert ids[:2] == ["2603.00003", "2603.00002"]  # by cosine; papers without one after
    store.close()


def test_embeddings_of_another_model_leave_the_index_order(tmp_path):
    store = _store(tmp_path)
    store.scores.save_embeddings("another-model", [(i, "fp", array("f", v).tobytes()) for i, v in
                                                   {"2603.00001": (1.0, 0.0),
                                                    "2603.00003": (1.0, 0.0)}.items()])
    assert similar_papers(store, "2603.00001")[0].paper.id == "2603.00002"
    store.close()


def test_a_search_matching_more_than_ranked_papers_ranks_the_newest(tmp_path, monkeypatch):
    from paperterm.store import library

    store = Store.open(tmp_path / "s.sqlite3")
    old = _paper("2601.00001", "Graphene graphene graphene", "Graphene graphene.")
    store.papers.save_day("f", date(2026, 1, 5), [old], source="rss")
    newer = [_paper(f"2603.0000{i}", f"Graphene note {i}", "Other text.") for i in range(4)]
    store.papers.save_day("f", date(2026, 3, 2), newer, source="rss")
    assert store.library.search("graphene")[0].paper.id == "2601.00001"  # the best match of all
    monkeypatch.setattr(library, "RANKED", 3)
    hits = store.library.search("graphene")
    assert {h.paper.id for h in hits} == {"2603.00001", "2603.00002", "2603.00003"}
    assert [h.snippet for h in hits] == ["Other text."] * 3  # snippets of the ranked rows
    store.close()


def test_a_since_filter_keeps_the_papers_first_announced_since_that_day(tmp_path):
    from paperterm.store import Selection

    store = Store.open(tmp_path / "s.sqlite3")
    store.papers.save_day("f", date(2026, 1, 5), [_paper("2601.00001", "Graphene one", "x")],
                          source="rss")
    store.papers.save_day("f", date(2026, 3, 2), [_paper("2603.00001", "Graphene two", "x"),
                                                  _paper("2601.00001", "Graphene one", "x")],
                          source="rss")  # announced again: its first day stays 01-05
    hits = store.library.search("graphene", sel=Selection(since=date(2026, 2, 1)))
    assert [(h.paper.id, h.day) for h in hits] == [("2603.00001", "2026-03-02")]
    assert len(store.library.search("graphene", sel=Selection(since=date(2026, 1, 1)))) == 2
    store.close()
