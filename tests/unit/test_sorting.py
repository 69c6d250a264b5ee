"""Sorting the list (issue 10, item 13): titles without TeX and leading punctuation, arrows
that say the direction, ties broken by relevance."""

from __future__ import annotations

from paperterm.day.listing import descending, make_entries, sort_arrow, sort_entries
from paperterm.models import Paper
from paperterm.text.sort_text import title_key


def paper(i: int, title: str, cat: str = "cs.LG") -> Paper:
    return Paper(id=f"2602.{i:05d}", version=1, title=title, authors=("A. Author",),
                 abstract="x", categories=(cat,), primary_category=cat, announce_type="new")


def scored(specs):
    es = make_entries([paper(i, t, c) for i, (t, c, _r) in enumerate(specs)])
    for e, (_t, _c, r) in zip(es, specs, strict=True):
        e.set_score(r, r, "", "scored" if r is not None else "none")
    return es


def titles(es):
    return [e.paper.title for e in es]


def test_title_key_ignores_tex_accents_and_leading_punctuation():
    assert title_key("$\\alpha$-Nets for routing") == "nets for routing"
    assert title_key("\\'Etude of experts") == title_key("Étude of experts") == "etude of experts"
    assert title_key('"Quoted": a title') == 'quoted": a title'
    assert title_key("...and more") == "and more"
    assert title_key("{\\sc Bold} claims") == "bold claims"


def test_title_sort_ignores_leading_punctuation_and_tex():
    es = scored([("Zebra", "cs.LG", 1), ('"Beta" experts', "cs.LG", 1),
                 ("$\\mathcal{A}$lpha routing", "cs.LG", 1), ("...Gamma", "cs.LG", 1),
                 ("\\'Epsilon", "cs.LG", 1)])
    assert titles(sort_entries(es, "title")) == [
        "$\\mathcal{A}$lpha routing", '"Beta" experts', "\\'Epsilon", "...Gamma", "Zebra"]
    assert titles(sort_entries(es, "title", reverse=True))[0] == "Zebra"


def test_ties_fall_back_to_relevance_in_either_direction():
    es = scored([("Same", "cs.AI", 2), ("Same", "cs.AI", 9), ("Other", "cs.CL", 5),
                 ("Same", "cs.AI", None), ("Same", "cs.AI", 6)])
    by_title = sort_entries(es, "title")
    assert [e.relevance for e in by_title] == [5, 9, 6, 2, None]
    by_title_rev = sort_entries(es, "title", reverse=True)
    assert [e.relevance for e in by_title_rev] == [9, 6, 2, None, 5]
    by_cat = sort_entries(es, "category")
    assert [e.relevance for e in by_cat] == [9, 6, 2, None, 5]
    assert [e.relevance for e in sort_entries(es, "category", reverse=True)] == [5, 9, 6, 2, None]


def test_arrows_say_the_direction():
    assert descending("relevance", False) and sort_arrow("relevance", False) == "▼"
    assert sort_arrow("relevance", True) == "▲"
    assert not descending("title", False) and sort_arrow("title", False) == "▲"
    assert sort_arrow("title", True) == "▼"
    assert sort_arrow("order", False) == "▲" and sort_arrow("category", True) == "▼"
