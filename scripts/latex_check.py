#!/usr/bin/env python3
"""Build a real LaTeX document from an exported .bib and fail on any error or warning.

Default: export (pdflatex-safe ASCII) every paper of a real day plus a few synthetic hard
cases, then run pdflatex + bibtex (style plain) and pdflatex + biblatex/biber.
--unicode: export with unicode=True and run biblatex + biber under lualatex (or xelatex,
or pdflatex with utf8 inputenc + T1 when neither is installed).

Needs (Debian): texlive-latex-base texlive-latex-recommended texlive-bibtex-extra biber.
Exit status 0 when every build is clean; 1 with the offending log lines otherwise.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from paperterm.models import Paper  # noqa: E402
from paperterm.outputs.bibtex import export_papers  # noqa: E402

DEFAULT_DAY = ROOT / "tests" / "fixtures" / "bib" / "day-2026-02-25.jsonl"

# Hard cases beyond the real day: TeX specials, math, braces, accents, Greek, CJK.
SYNTHETIC = [
    ("9901.00001",
     "Cost & Effect: 50% of #1 snake_case {MoE} LLMs via $\\alpha$-Nets ~ x^2 < y | z",
     ["Laurens van der Maaten", "Christopher De Sa", "R\\'emi Munos", "Jane Doe (MIT)"]),
    ("9901.00002", "Unbalanced {brace and } stray} and a lone $ sign with \\emph{Transformers}",
     ["Jürgen Schmidhuber", "Martin Luther King Jr.", "Rajan", "Fran\\c{c}ois Chollet"]),
    ("9901.00003", "Schrödinger Bridges, naïve Café Crème on $\\{0,1\\}^n$",
     ["Thorbjørn Mosekjær Iversen", "Emre Kıcıman", "Łukasz Dębski", "et al."]),
    ("9901.00004", "β-VAE meets Ψ-Samplers and MI²DAS with $κ$-Means",
     ["Đặng Văn Lâm", "Søren Kierkegaard", "ATLAS Collaboration"]),
    ("9901.00005", "北京 Data for Multilingual LLMs", ["王伟", "Wei Zhang (张伟)"]),
    ("9901.00006", "Is The \\mymethod{} GPT-4 MoE \\newcommand{\\x}{y} with LoRA: "
     "$\\text{\\input{/etc/hostname}} \\in \\mathbb{R}$ and \\cite{z}",
     ["Patryk Chrabąszcz", "Łukasz Dębski"]),
]


def _basic_latin(paper: Paper) -> bool:
    """True when every character has a pdflatex utf8/T1 definition (Latin-1 + Extended-A)."""
    return all(ord(c) < 0x180 for c in paper.title + "".join(paper.authors))


def load_papers(paths: list[Path], synthetic: bool) -> list[Paper]:
    papers = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            papers.append(Paper(
                id=d["id"], version=d.get("version"), title=d["title"],
                authors=tuple(d["authors"]), abstract=d.get("abstract", ""),
                categories=tuple(d["categories"]), primary_category=d["primary_category"],
                announce_type=d.get("announce_type", "new"), comment=d.get("arxiv_comment"),
            ))
    if synthetic:
        for pid, title, authors in SYNTHETIC:
            papers.append(Paper(id=pid, version=1, title=title, authors=tuple(authors),
                                abstract="", categories=("cs.LG",), primary_category="cs.LG",
                                doi=f"10.1234/synthetic.{pid}"))
    return papers


def run(cmd: list[str], cwd: Path) -> tuple[int, str]:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace",
                          timeout=600, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def _cites(keys: list[str]) -> str:
    return "\n".join("\\cite{" + ",".join(keys[i : i + 20]) + "}" for i in range(0, len(keys), 20))


_LOG_PROBLEMS = re.compile(
    r"^(! .*|.*Missing character.*|.*Citation .* undefined.*|.*There were undefined.*"
    r"|.*Package biblatex Warning.*|.*Unicode character.*)$", re.M
)


def build(workdir: Path, engine: str, bibtool: str, keys: list[str], preamble: str,
          bib_block: str) -> list[str]:
    """Run engine/bibtool/engine/engine in `workdir`; return the problems found."""
    doc = (f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n"
           f"{_cites(keys)}\n{bib_block}\n\\end{{document}}\n")
    (workdir / "main.tex").write_text(doc, encoding="utf-8")
    latex = [engine, "-interaction=nonstopmode", "-halt-on-error", "main.tex"]
    problems: list[str] = []
    for step in (latex, [bibtool, "main"], latex, latex):
        rc, out = run(step, workdir)
        if rc != 0:
            log = workdir / "main.log"
            tail = log.read_text(errors="replace")[-3000:] if log.exists() else out[-3000:]
            return [f"{' '.join(step)} failed (exit {rc}):\n{tail}"]
        if step[0] == bibtool:
            blg = (workdir / "main.blg").read_text(errors="replace")
            if bibtool == "bibtex":
                problems += [ln for ln in blg.splitlines()
                             if ln.startswith("Warning--") or "error message" in ln
                             or "I was expecting" in ln or "I'm skipping" in ln]
            else:
                problems += [ln for ln in blg.splitlines() if "WARN -" in ln or "ERROR -" in ln]
    log = (workdir / "main.log").read_text(errors="replace")
    problems += _LOG_PROBLEMS.findall(log)
    return problems


def unicode_engine() -> str:
    """lualatex if it works (needs luaotfload: texlive-luatex), else xelatex, else pdflatex."""
    kpse = shutil.which("kpsewhich")
    lua_ok = kpse and run([kpse, "luaotfload-main.lua"], Path.cwd())[1].strip()
    if shutil.which("lualatex") and lua_ok:
        return "lualatex"
    return "xelatex" if shutil.which("xelatex") else "pdflatex"


def check(papers: list[Paper], unicode: bool, keep: bool, engine: str = "pdflatex") -> int:
    tmp = Path(tempfile.mkdtemp(prefix="paperterm-latex-"))
    try:
        bib = tmp / "refs.bib"
        result = export_papers(papers, bib, unicode=unicode)
        keys = [k for _, k in result.added]
        print(f"exported {len(keys)} entries to {bib} (unicode={unicode}); "
              f"{len(result.warnings)} export warnings")
        for w in result.warnings:
            print("  export warning:", w)
        biblatex = ("\\usepackage[backend=biber,style=numeric]{biblatex}\n"
                    "\\addbibresource{refs.bib}")
        runs = []
        if unicode:
            pre = biblatex if engine != "pdflatex" else "\\usepackage[T1]{fontenc}\n" + biblatex
            runs.append((engine, "biber", pre, "\\printbibliography"))
        else:
            t1 = "\\usepackage[T1]{fontenc}\n"  # Polish names keep \\k{a} (ą)
            runs.append(("pdflatex", "bibtex", t1,
                         "\\bibliographystyle{plain}\n\\bibliography{refs}"))
            runs.append(("pdflatex", "biber", t1 + biblatex, "\\printbibliography"))
        failed = 0
        for engine, tool, pre, block in runs:
            if shutil.which(engine) is None or shutil.which(tool) is None:
                print(f"FAIL {engine}+{tool}: not installed")
                failed += 1
                continue
            work = tmp / f"{engine}-{tool}"
            work.mkdir()
            shutil.copy(bib, work / "refs.bib")
            problems = build(work, engine, tool, keys, pre, block)
            status = "ok" if not problems else f"FAIL ({len(problems)} problems)"
            print(f"{engine}+{tool}: {status}")
            for p in problems[:50]:
                print("  ", p)
            failed += bool(problems)
        return 1 if failed else 0
    finally:
        if keep:
            print("kept", tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("days", nargs="*", type=Path, help=f"JSONL day files (default {DEFAULT_DAY})")
    ap.add_argument("--unicode", action="store_true", help="UTF-8 export, biblatex + biber")
    ap.add_argument("--no-synthetic", action="store_true", help="only the real papers")
    ap.add_argument("--keep", action="store_true", help="keep the build directory")
    ap.add_argument("--engine", choices=["lualatex", "xelatex", "pdflatex"],
                    help="with --unicode: force the TeX engine (default: best installed)")
    args = ap.parse_args(argv)
    papers = load_papers(args.days or [DEFAULT_DAY], synthetic=not args.no_synthetic)
    engine = "pdflatex"
    if args.unicode:
        engine = args.engine or unicode_engine()
        # Greek/CJK outside math need fonts the test machine may lack: keep real papers and
        # the Latin-script hard cases only (the ASCII run covers the rest)
        synthetic = {pid for pid, _, _ in SYNTHETIC}
        papers = [p for p in papers if p.id not in synthetic or _basic_latin(p)]
    return check(papers, args.unicode, args.keep, engine)


if __name__ == "__main__":
    sys.exit(main())
