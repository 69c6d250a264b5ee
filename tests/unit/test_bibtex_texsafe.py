"""Issue 9, item 4: TeX commands from titles, abstracts and authors never reach a .bib as
live commands, and no field ends in a lone backslash."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from paperterm.models import Paper
from paperterm.outputs.bibtex import export_papers, render_entry

DANGEROUS = [
    r"\input{/etc/hostname}", r"\include{secret}", r"\immediate\write18{touch pwned}",
    r"\openin5=/etc/passwd", r"\csname input\endcsname{/etc/hostname}", r"\iffalse",
    r"\end{document}", r"\def\x{y}", r"\catcode`\@=0", r"\expandafter\input",
    r"\verbatiminput{/etc/passwd}", r"\newcommand{\x}{y}", r"\usepackage{shellesc}",
    r"\directlua{os.execute('id')}", r"\begin{filecontents}",
]
LIVE = re.compile(r"(?<!\\textbackslash\{\})(?<!\\backslash\{\}\\mathrm\{)"
                  r"\\(input|include|write|openin|immediate|csname|iffalse|end|def|catcode|"
                  r"expandafter|verbatiminput|newcommand|usepackage|directlua|begin)(?![a-z])")


def paper(**kw) -> Paper:
    base = dict(id="2602.20175", version=1, title="A title", authors=("Ada Lovelace",),
                abstract="", categories=("cs.LG",), primary_category="cs.LG")
    base.update(kw)
    return Paper(**base)


@pytest.mark.parametrize("payload", DANGEROUS)
@pytest.mark.parametrize("where", ["title", "math", "author", "journal"])
def test_dangerous_commands_are_written_as_text(payload: str, where: str, read_bib) -> None:
    kw = {"title": f"Learning {payload} fast", "math": f"Bounds ${payload}$ hold",
          "author": f"Eve {payload}", "journal": f"J. {payload} 2024"}
    field = "journal_ref" if where == "journal" else "authors" if where == "author" else "title"
    value = (kw[where],) if where == "author" else kw[where]
    text = render_entry(paper(**{field: value}), "k", prefer_journal=where == "journal")
    assert not LIVE.search(text), text
    assert len(read_bib(text)) == 1  # still a valid entry


def test_harmless_formatting_and_math_stay_live() -> None:
    text = render_entry(paper(title=r"\emph{Sparse} $\mathcal{O}(n \log n)$ with $\alpha$"),
                        "k")
    assert r"\emph{" in text and r"\mathcal{O}" in text and r"\log" in text
    assert r"\alpha" in text


def test_caret_caret_never_reaches_math() -> None:
    text = render_entry(paper(title=r"Odd $x^^5cinput{/etc/hostname}$"), "k")
    assert "^^" not in text


@pytest.mark.parametrize("field,value", [("primary_category", "cs.LG\\"),
                                         ("doi", "10.1000/abc\\"), ("title", "Ends in \\")])
def test_no_field_ends_in_a_lone_backslash(tmp_path: Path, field: str, value: str,
                                           read_bib) -> None:
    kw = {field: value}
    if field == "primary_category":
        kw["categories"] = (value,)
    target = tmp_path / "refs.bib"
    export_papers([paper(**kw)], target)
    text = target.read_text()
    assert not re.search(r"(?<!\\)\\\}", text), text  # no "\}" closing a field
    entry = read_bib(text)[0]
    fields = {k: v for k, v in entry.items() if k not in ("ID", "ENTRYTYPE")}
    assert len(fields) >= 6, fields  # every field parsed, none swallowed


@pytest.mark.skipif(shutil.which("pdflatex") is None or shutil.which("bibtex") is None,
                    reason="needs pdflatex and bibtex")
def test_a_real_latex_build_never_reads_a_file_named_in_a_title(tmp_path: Path) -> None:
    (tmp_path / "secret.tex").write_text("TOPSECRETCONTENT\n")
    export_papers([paper(title=r"Pwn \input{secret} and \immediate\write18{touch pwned}"),
                   paper(id="2602.20191", title=r"Trick $\input{secret}$ \end{document}")],
                  tmp_path / "refs.bib")
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\\begin{document}\\nocite{*}\\bibliographystyle{plain}"
        "\\bibliography{refs}\nAFTERBIB\\end{document}\n")
    for cmd in (["pdflatex", "-interaction=nonstopmode", "doc.tex"], ["bibtex", "doc"],
                ["pdflatex", "-interaction=nonstopmode", "doc.tex"]):
        subprocess.run(cmd, cwd=tmp_path, capture_output=True, timeout=120, check=False)
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert "secret.tex" not in log and not (tmp_path / "pwned").exists()
    assert "Output written on doc.pdf" in log
