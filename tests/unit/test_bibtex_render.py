"""BibTeX rendering: titles, names, non-ASCII, citation keys and entry fields."""

from __future__ import annotations

import re

import pytest

from paperterm.models import Paper
from paperterm.outputs.bibtex import BibError, KeyPatternError, citation_key, render_entry
from paperterm.outputs.bibtex.citekeys import arxiv_date, unique_key
from paperterm.outputs.bibtex.entry import build_entry
from paperterm.outputs.bibtex.latex import render, tex_to_unicode
from paperterm.outputs.bibtex.names import format_name, parse


def paper(**kw) -> Paper:
    base = dict(id="2602.20175", version=2, title="Visualizing Data using t-SNE",
                authors=("Laurens van der Maaten", "Geoffrey Hinton"), abstract="",
                categories=("cs.LG", "stat.ML"), primary_category="cs.LG")
    base.update(kw)
    return Paper(**base)


def title(text: str, **kw) -> str:
    return render(text, protect=True, **kw).text


def bibtex_balanced(text: str) -> bool:
    """Brace balance as BibTeX counts it (a backslash does not escape a brace)."""
    depth = 0
    for ch in text:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


# --- names -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "expected"), [
    ("Laurens van der Maaten", "van der Maaten, Laurens"),
    ("Christopher De Sa", "De Sa, Christopher"),
    ("De Cheng", "Cheng, De"),  # a given name "De" is not a particle
    ("Pascal Van Hentenryck", "Van Hentenryck, Pascal"),
    ("Leonardo de Oliveira Nunes", "de Oliveira Nunes, Leonardo"),
    ("Maarten Valentijn de Hoop", "de Hoop, Maarten Valentijn"),
    ("Quoc V. Le", "Le, Quoc V."),
    ("Jane Doe (MIT)", "Doe, Jane"),
    ("Jane Doe (Dept. of CS (AI Lab), MIT)", "Doe, Jane"),
    ("Rajan", "Rajan"),
    ("Martin Luther King Jr.", "King, Jr., Martin Luther"),
    ("Jürgen Schmidhuber", 'Schmidhuber, J{\\"u}rgen'),
    ("R\\'emi Munos", "Munos, R{\\'e}mi"),
    ("R{\\'e}mi Munos", "Munos, R{\\'e}mi"),
    ("Fran\\c{c}ois Chollet", "Chollet, Fran{\\c{c}}ois"),
    ("Emre Kıcıman", "K{\\i}c{\\i}man, Emre"),
    ("Thorbjørn Mosekjær Iversen", "Iversen, Thorbj{\\o}rn Mosekj{\\ae}r"),
    ("ATLAS Collaboration", "{ATLAS Collaboration}"),
    ("Wei Zhang (张伟)", "Zhang, Wei"),
])
def test_author_names(raw: str, expected: str) -> None:
    text, lost, _ = format_name(parse(raw))
    assert text == expected
    assert lost == []


def test_polish_letters_keep_their_ogonek_and_say_what_pdflatex_needs() -> None:
    text, lost, t1 = format_name(parse("Patryk Chrabąszcz"))
    assert text == "Chrab{\\k{a}}szcz, Patryk" and lost == [] and t1 == ["ą"]
    built = build_entry(paper(authors=("Patryk Chrabąszcz",)), "k")
    assert "Chrab{\\k{a}}szcz" in built.text
    assert len(built.warnings) == 1 and "T1" in built.warnings[0]


def test_lost_character_warning_names_the_unicode_flag() -> None:
    built = build_entry(paper(authors=("王伟",)), "k")
    assert "--unicode" in built.warnings[0] and "unicode=True" not in built.warnings[0]


def test_cjk_name_is_reported_and_kept_valid() -> None:
    built = build_entry(paper(authors=("王伟", "Ada Lovelace")), "k")
    assert "王" not in built.text and bibtex_balanced(built.text)
    assert "author = {?? and Lovelace, Ada}" in re.sub(r"\s+", " ", built.text)
    assert len(built.warnings) == 1 and "王伟" in built.warnings[0]
    # unicode=True keeps it, with no warning
    kept = build_entry(paper(authors=("王伟",)), "k", unicode=True)
    assert "{王伟}" in kept.text and kept.warnings == []


def test_unicode_mode_keeps_utf8_but_escapes_specials() -> None:
    entry = render_entry(paper(title="Café & Crème: 50% {unbalanced", authors=("Jürgen Ö",)),
                         "k", unicode=True)
    assert "Caf\u00e9 \\& Cr\u00e8me: 50\\% \\textbraceleft{}unbalanced" in entry
    assert "{\\\"" not in entry and "\u00d6, J\u00fcrgen" in entry
    assert bibtex_balanced(entry)


def test_tex_accents_decoded() -> None:
    assert tex_to_unicode("R\\'emi {\\\"u} \\v{C}ern\\'y \\ss{} \\'{\\i}") == "Rémi ü Černý ß í"
    assert tex_to_unicode("\\cite{x} \\emph{y}") == "\\cite{x} \\emph{y}"


# --- titles ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "expected"), [
    ("Sparse MoE for LLMs with Transformers", "Sparse {MoE} for {LLM}s with Transformers"),
    ("Deep unfolding of MCMC kernels", "Deep unfolding of {MCMC} kernels"),
    ("Scalable, modular & explainable GANs", "Scalable, modular \\& explainable {GAN}s"),
    ("50% faster #1 snake_case", "50\\% faster \\#1 snake\\_case"),
    ("Complexity of $\\ell_1$-Regularized PageRank",
     "Complexity of $\\ell_1$-Regularized {PageRank}"),
    ("$κ$-Explorer", "$\\kappa$-Explorer"),
    ("Standard rates with $C^{s,λ}$ targets", "Standard rates with $C^{s,\\lambda}$ targets"),
    ("MI$^2$DAS: a_b", "{MI}$^2${DAS}: a\\_b"),
    ("A $50\\%$ gain in $x & y$", "A $50\\%$ gain in $x \\& y$"),
    ("\\emph{Transformers} are {BERT}ology", "\\emph{Transformers} are {BERT}ology"),
    ("Schrödinger bridge", "Schr{\\\"o}dinger bridge"),
    ("β-VAE and Ψ-samplers", "{{$\\beta$}-VAE} and {$\\Psi$}-samplers"),
    ("Coupled Cluster con MōLe", "Coupled Cluster con {M{\\=o}Le}"),
    ("Sets $\\{0,1\\}^n$", "Sets $\\{0,1\\}^n$"),
    ("cost $5 only", "cost \\$5 only"),
    ("Is The GPT-4 MoE with LoRA and ReLU All You Need?",
     "Is The {GPT-4} {MoE} with {LoRA} and {ReLU} All You Need?"),
    ("t-SNE, T5 and 3D Q-Learning", "{t-SNE}, {T5} and {3D} Q-Learning"),
    ("x^2 < y", "x\\textasciicircum{}2 \\textless{} y"),
])
def test_titles(raw: str, expected: str) -> None:
    out = render(raw, protect=True)
    assert out.text == expected
    assert out.lost == []
    assert bibtex_balanced(out.text)


@pytest.mark.parametrize("raw", [
    "Unbalanced {brace", "Stray} closer", "}{", "{{{", "a \\{ b", "$\\{x$ and {y\\}",
    "${x$}", "trailing \\", "$$x$$ and $", "\\emph{a & b} {c", "{$x}$",
])
def test_unbalanced_input_gives_balanced_output(raw: str) -> None:
    text = title(raw)
    assert bibtex_balanced(text), text
    # every $ that is not escaped pairs up
    assert len(re.findall(r"(?<!\\)\$", text)) % 2 == 0


def test_unbalanced_brace_is_escaped_not_dropped() -> None:
    assert title("Stray} closer") == "Stray\\textbraceright{} closer"
    assert title("open {brace") == "open \\textbraceleft{}brace"


def test_non_ascii_fallbacks_are_reported() -> None:
    out = render("Łukasz Dębski in 北京 with ﬁne ặ")
    assert out.text == "{\\L}ukasz D{\\k{e}}bski in ?? with fine {\\u{a}}"
    assert set(out.lost) == {"北", "京", "ặ"}  # the ligature ﬁ is a silent NFKD fold
    assert out.text.isascii()


# --- keys ------------------------------------------------------------------------------------

def test_default_key_follows_arxiv_convention() -> None:
    assert citation_key(paper()) == "vandermaaten2026visualizing"
    assert citation_key(paper(title="The $κ$-Explorer: On Things")) == "vandermaaten2026explorer"
    assert citation_key(paper(authors=("Jürgen Schmidhuber",), title="A Deep Net")) == (
        "schmidhuber2026deep")
    assert citation_key(paper(authors=("王伟",))) == "anon2026visualizing"


def test_key_patterns() -> None:
    p = paper(id="0704.0001")
    assert citation_key(p, "{author}:{yy}{month}-{title2}") == "vandermaaten:0704-visualizingdata"
    assert citation_key(p, "arXiv:{id}") == "arXiv:0704.0001"
    assert citation_key(paper(id="hep-th/9901001"), "{year}{id}") == "1999hep-th-9901001"


@pytest.mark.parametrize("pattern", ["", "{autor}{year}", "{author} {year}", "{author}{year",
                                     "{author,}", "{year2}", "key%{id}", "plain"])
def test_bad_key_pattern_is_a_clear_error(pattern: str) -> None:
    with pytest.raises(KeyPatternError) as exc:
        citation_key(paper(), pattern)
    assert isinstance(exc.value, BibError) and isinstance(exc.value, ValueError)
    assert repr(pattern) in str(exc.value)


def test_unique_key_suffixes() -> None:
    taken = {"smith2026deep", "smith2026deepa"}
    assert unique_key("smith2026deep", taken) == "smith2026deepb"
    assert unique_key("Other", taken) == "Other"
    many = {"k"} | {f"k{c}" for c in "abcdefghijklmnopqrstuvwxyz"}
    assert unique_key("k", many) == "kaa"


def test_year_month_from_id() -> None:
    assert arxiv_date(paper(id="2602.20175")) == (2026, 2)
    assert arxiv_date(paper(id="0704.0001")) == (2007, 4)
    assert arxiv_date(paper(id="hep-th/9901001")) == (1999, 1)
    assert arxiv_date(paper(id="math.GT/0309136")) == (2003, 9)
    assert arxiv_date(paper(id="weird", published="2020-05-01")) == (2020, 5)


# --- entries ---------------------------------------------------------------------------------

def fields(entry: str) -> dict[str, str]:
    return dict(re.findall(r"^  (\w+)\s*= (.*?),?$", entry, re.M))


def test_misc_entry_fields() -> None:
    entry = render_entry(paper(doi="https://doi.org/10.1000/XYZ_1%2"), "vdm")
    assert entry.startswith("@misc{vdm,\n") and entry.endswith("\n}\n")
    f = fields(entry)
    assert f == {
        "title": "{Visualizing Data using {t-SNE}}",
        "author": "{van der Maaten, Laurens and Hinton, Geoffrey}",
        "year": "{2026}", "month": "feb", "eprint": "{2602.20175}",
        "archivePrefix": "{arXiv}", "primaryClass": "{cs.LG}", "eprinttype": "{arxiv}",
        "eprintclass": "{cs.LG}", "doi": "{10.1000/XYZ_1%2}",  # bare and never escaped
        "url": "{https://arxiv.org/abs/2602.20175}",
    }


def test_article_when_journal_preferred() -> None:
    p = paper(journal_ref="Phys. Rev. D 101, 012345 (2024)")
    assert render_entry(p, "k").startswith("@misc{")
    entry = render_entry(p, "k", prefer_journal=True)
    f = fields(entry)
    assert entry.startswith("@article{k,")
    assert f["journal"] == "{Phys. Rev. D 101, 012345 (2024)}"
    assert f["year"] == "{2024}" and "month" not in f  # the journal's year
    assert f["eprint"] == "{2602.20175}"
    # prefer_journal without a journal reference stays @misc
    assert render_entry(paper(), "k", prefer_journal=True).startswith("@misc{")


def test_et_al_becomes_others() -> None:
    entry = render_entry(paper(authors=("Ada Lovelace", "et al.")), "k")
    assert "{Lovelace, Ada and others}" in entry


def test_terminal_escapes_and_control_characters_never_reach_the_bib_file():
    from dataclasses import replace as _replace

    from paperterm.models import Paper as _Paper
    from paperterm.outputs.bibtex import render_entry as _render

    hostile = _Paper(
        id="2602.20191", version=1,
        title="Evil \x1b[31mRed\x1b[0m title \x1b]0;pwned\x07 with \x9b C1 and \x00 NUL",
        authors=("Mallory \x1b[1mBold\x1b[0m Person",), abstract="", categories=("cs.LG",),
        primary_category="cs.LG",
    )
    for unicode in (False, True):
        text = _render(_replace(hostile), "k", unicode=unicode)
        assert not any((ord(ch) < 32 and ch != "\n") or 0x7F <= ord(ch) <= 0x9F for ch in text)
        assert "Red" in text and "Person" in text


@pytest.mark.parametrize(("raw", "expected"), [
    ("The \\mymethod{} approach", "The \\textbackslash{}mymethod{} approach"),
    ("\\newcommand{\\x}{y} z", "\\textbackslash{}newcommand{\\textbackslash{}x}{y} z"),
    ("$\\text{\\input{/etc/hostname}}$", "$\\mbox{\\textbackslash{}input{/etc/hostname}}$"),
    ("$x \\in \\mathbb{R} \\mymethod$", "$x \\in \\mathbf{R} \\backslash{}\\mathrm{mymethod}$"),
    ("\\cite{k} and \\emph{kept}", "\\textbackslash{}cite{k} and \\emph{kept}"),
])
def test_commands_a_bare_document_does_not_know_are_written_as_text(raw: str,
                                                                    expected: str) -> None:
    assert render(raw).text == expected
