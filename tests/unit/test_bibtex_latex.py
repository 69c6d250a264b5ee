"""A real LaTeX build of a whole exported day (pdflatex + bibtex, biblatex + biber).

Needs: apt-get install texlive-latex-base texlive-latex-recommended texlive-bibtex-extra biber
(optional: texlive-luatex, so the --unicode build runs under lualatex).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "latex_check.py"
TOOLS = ("pdflatex", "bibtex", "biber")

pytestmark = pytest.mark.skipif(
    shutil.which("pdflatex") is None or any(shutil.which(t) is None for t in TOOLS),
    reason="needs pdflatex, bibtex and biber (texlive-latex-base texlive-latex-recommended "
           "texlive-bibtex-extra biber)",
)


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-3000:]
    return proc.stdout


def test_pdflatex_bibtex_and_biber_build_cleanly() -> None:
    out = run()
    assert "pdflatex+bibtex: ok" in out and "pdflatex+biber: ok" in out
    assert "exported 250 entries" in out  # 244 real papers + 6 synthetic hard cases
    assert "王伟" in out  # the CJK name was reported, not silently mangled


def test_unicode_export_builds_with_biber() -> None:
    out = run("--unicode")
    assert "+biber: ok" in out and "unicode=True" in out


def test_checker_catches_a_broken_entry(tmp_path: Path) -> None:
    """The check itself can fail: a raw "_" in a title and a \\k under OT1 are caught."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("latex_check", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (tmp_path / "refs.bib").write_text(
        "@misc{bad, title = {snake_case}, author = {D{\\k{e}}bski, A.}, year = {2026}}\n"
    )
    problems = module.build(tmp_path, "pdflatex", "bibtex", ["bad"], "",
                            "\\bibliographystyle{plain}\n\\bibliography{refs}")
    assert problems and "failed" in problems[0]
    second = tmp_path / "second"
    second.mkdir()
    (second / "refs.bib").write_text("@article{warn, title = {T}, year = {2026}, author = {A, B}}")
    problems = module.build(second, "pdflatex", "bibtex", ["warn"], "",
                            "\\bibliographystyle{plain}\n\\bibliography{refs}")
    assert any(p.startswith("Warning--") for p in problems), problems
