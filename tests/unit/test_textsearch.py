"""Issue 10, item 10: the reader's text filter matches words, not substrings, whatever the case
and accents, accepts quoted phrases; and finds the spans to highlight."""

from __future__ import annotations

from paperterm.day.listing import FilterState, filter_entries, make_entries
from paperterm.models import Paper
from paperterm.text.textsearch import keyword_terms, parse_query, spans


def _paper(i: int, title: str, authors: tuple[str, ...] = ("A. Author",),
           abstract: str = "text") -> Paper:
    return Paper(id=f"2602.{i:05d}", version=1, title=title, authors=authors,
                 abstract=abstract, categories=("cs.LG",), primary_category="cs.LG")


ENTRIES = make_entries([
    _paper(0, "Routing for MoE layers"),
    _paper(1, "Scaling laws", authors=("Moein Khalili",)),
    _paper(2, "A mixture-of-experts model", abstract="Sparse experts; a mixture of them."),
    _paper(3, "Experts in a mixture of styles"),
    _paper(4, "Gaussian processes", authors=("R\\'emi Dupont", "Zoë Ünal")),
])


def found(text: str) -> list[int]:
    return [e.order for e in filter_entries(ENTRIES, FilterState(text=text))]


def test_words_not_substrings():
    assert found("MoE") == [0]  # never "Moein"
    assert found("moein") == [1]
    assert found("expert") == [2, 3]  # its family: "experts" (issue 32, as search does)
    assert found("exper") == []  # a word, not the start of "experts"
    assert found("expert*") == [2, 3]  # unless asked for a prefix


def test_case_and_accent_insensitive():
    assert found("moe") == found("MOE") == [0]
    assert found("remi") == found("Rémi") == [4]  # written R\'emi in the feed
    assert found("zoe unal") == [4]


def test_quoted_phrases():
    assert found('"mixture of experts"') == [2]  # also written with hyphens
    assert found('"experts mixture"') == []
    assert found("mixture experts") == [2, 3]  # words in any order, all of them
    assert found('"mixture of') == [2, 3]  # an unclosed quote while typing


def test_parse_query_folds_and_groups():
    terms = parse_query('"Mixture-of-Experts" Rémi quant*')
    assert [(t.words, t.prefix) for t in terms] == [
        (("mixture", "of", "experts"), False), (("remi",), False), (("quant",), True)]


def test_spans_point_into_the_shown_text():
    text = "Straße to Rémi's MoE, not Moein; mixture-of-experts"
    got = [text[a:b] for a, b in spans(text, parse_query('strasse remi moe "mixture of experts"'))]
    assert got == ["Straße", "Rémi", "MoE", "mixture-of-experts"]
    assert spans("Moein", keyword_terms(["MoE"])) == []


# -- issue 32 item 6: the filter matches as search does: families, spellings, typos --------

FORMS = make_entries([
    _paper(0, "Learned routers for sparse models"),
    _paper(1, "Optimal transport, revisited"),
    _paper(2, "An optimiser for post-training quantisation"),
    _paper(3, "Taming Momentum in adaptive optimizers"),
])


def forms(text: str) -> list[int]:
    return [e.order for e in filter_entries(FORMS, FilterState(text=text))]


def test_the_filter_matches_word_families_and_spellings():
    assert forms("router") == [0]  # "/router" finds "routers"
    assert forms("routing") == [0]
    assert forms("optimizer") == [2, 3]  # British "optimiser" too, never "Optimal"
    assert forms("quantization") == [2]
    assert forms("optimal") == [1]


def test_the_filter_forgives_a_typo_of_a_word_the_list_holds():
    assert forms("momentun") == [3]
    assert forms("taming momentun optimiser") == [3]
    assert forms("zyzzyva") == []  # nothing near: nothing


def test_the_family_is_highlighted_too():
    text = "Learned routers for sparse models"
    assert [text[a:b] for a, b in spans(text, parse_query("router"))] == ["routers"]
