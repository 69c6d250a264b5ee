"""Equal relevance values are ordered by the local scorer's fine score (issue 12, item 1)."""

from __future__ import annotations

from paperterm.day.listing import make_entries, sort_entries
from paperterm.models import Paper


def _paper(pid: str) -> Paper:
    return Paper(pid, 1, f"Paper {pid}", ("A. Author",), "Abstract.", ("cs.LG",), "cs.LG")


def test_ties_of_relevance_follow_the_fine_score_not_the_announcement():
    entries = make_entries([_paper(str(i)) for i in range(4)])
    for e, (rel, fine) in zip(entries, [(10, 0.91), (10, 0.97), (9, 0.88), (10, 0.95)],
                              strict=True):
        e.set_score(rel, None, "matched: x", "local", fine=fine)
    assert [e.id for e in sort_entries(entries, "relevance")] == ["1", "3", "0", "2"]
    assert [e.id for e in sort_entries(entries, "relevance", reverse=True)] == [
        "2", "0", "3", "1"]


def test_scores_without_a_fine_score_keep_the_announcement_order():
    entries = make_entries([_paper(str(i)) for i in range(3)])
    for e in entries:
        e.set_score(7, 5, "llm", "scored")
    assert [e.id for e in sort_entries(entries, "relevance")] == ["0", "1", "2"]
