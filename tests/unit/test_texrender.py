"""Issue 10, item 9: TeX shown consistently as Unicode in titles, authors and abstracts, in the
reader and in digests; math rendered whole or left as the whole `$...$` span."""

from __future__ import annotations

import json

import pytest

from paperterm.models import Paper, Topic
from paperterm.outputs.digest import render_digest
from paperterm.scoring.types import RunSummary, Score
from paperterm.text.texrender import fold_tex, tex_to_unicode


@pytest.mark.parametrize(("source", "shown"), [
    ("R\\'emi Dupont", "Rémi Dupont"),
    ("Schr\\\"{o}dinger bridges", "Schrödinger bridges"),
    ("\\c{C}elik and G\\\"obel", "Çelik and Göbel"),
    ("\\'{E}cole", "École"),
    ("50% of the \\textbf{best} & more", "50% of the best & more"),  # % and & literal
    ("3.2\\% on $\\alpha$-tests", "3.2% on α-tests"),
    ("$\\sum_{i=1}^n x_i$", "∑ᵢ₌₁ⁿ xᵢ"),
    ("$\\mathbb{R}^d$", "ℝᵈ"),
    ("$O(N^2)$ time", "O(N²) time"),
    ("costs $5 and $6", "costs $5 and $6"),
    # a control word ends at the first non-ASCII letter: `\\sqrtα` was dropped whole
    ("from $1/α$ to $1/\\sqrtα$", "from 1/α to 1/√(α)"),
    ("$(ρ\\sqrtα)^{-1}$", "(ρ√(α))⁻¹"),
    ("$\\widetilde{O}(n)$ work", "Õ(n) work"),  # the tilde was dropped: "O(n)"
    ("a $\\unicode{x2013}$ b", "a – b"),  # MathJax's code point (was "x2013")
])
def test_tex_becomes_unicode(source, shown):
    assert tex_to_unicode(source) == shown


@pytest.mark.parametrize("span", [
    "$\\binom{n}{2}$",  # was "n2"
    "$n \\choose k$",  # was "n k"
    "$\\unicode{xD800}$",  # no character: was "xD800"
    "$\\int_0^\\infty e^{-x^2}dx$",
    "$x^{\\dagger}_{\\mathcal{Q}}$",
])
def test_math_that_cannot_be_rendered_whole_is_kept_whole(span):
    text = f"we show {span} holds"
    assert tex_to_unicode(text) == text  # never half converted


def test_fold_for_search_keeps_accented_letters():
    assert fold_tex("R\\'emi and Schr\\\"{o}dinger") == "Remi and Schrodinger"


PAPER = Paper(id="2602.00001", version=1, title="Sch\\\"on $\\alpha$-experts",
              authors=("R\\'emi Dupont", "Ana L\\'opez"),
              abstract="We beat \\textbf{all} by 3\\%; see $\\mathcal{O}(n)$.",
              categories=("cs.LG",), primary_category="cs.LG")


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_digests_get_the_same_cleanup(fmt):
    score = Score(paper_id=PAPER.id, version=1, relevance=8, novelty=5, reason="fits",
                  status="scored")
    text = render_digest("2026-02-25", Topic(name="moe", description="d"), "", RunSummary(model=""),
                         [PAPER], {PAPER.id: score}, fmt)
    if fmt == "json":
        paper = json.loads(text)["papers"][0]
        text = " ".join([paper["title"], *paper["authors"], paper["abstract"]])
    assert "Schön α-experts" in text
    assert "Rémi Dupont" in text and "Ana López" in text
    assert "3%" in text and "𝒪(n)" in text
    assert "\\'" not in text and "textbf" not in text


# -- issue 32: no math half converted in the preview -------------------------------------

def test_math_with_a_script_that_has_no_unicode_form_is_rendered_the_rest_plainly():
    from paperterm.text.texrender import tex_to_unicode

    # the feed gave α in Unicode; the subscript has no Unicode letters: the span stayed TeX
    assert tex_to_unicode(r"$\mathcal{F} = α_{\text{BC}}$") == "ℱ = α_BC"
    assert tex_to_unicode(r"$\mathcal{O}\left(nε_{\text{BC}}/(1-γ)^2\right)$") == (
        "𝒪(nε_BC/(1-γ)²)")
    assert tex_to_unicode(r"$O(T^{1/2})$") == "O(T^(1/2))"


def test_math_the_feed_already_gave_in_unicode_loses_its_dollars_but_prose_keeps_them():
    from paperterm.text.texrender import tex_to_unicode

    assert tex_to_unicode("with $β= 0$ and $p = 0.026$") == "with β= 0 and p = 0.026"
    assert tex_to_unicode("costs $5 and $6") == "costs $5 and $6"
    assert tex_to_unicode("costs $5 or $6") == "costs $5 or $6"
