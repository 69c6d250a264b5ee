"""One `Paper` -> one BibTeX entry, in the form arXiv publishes (plus biblatex fields)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from paperterm.models import Paper
from paperterm.outputs.bibtex.citekeys import arxiv_date
from paperterm.outputs.bibtex.latex import render
from paperterm.outputs.bibtex.names import format_name, parse

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ET_AL = {"et al", "et al.", "others", "and others"}
_DOI_PREFIX = re.compile(r"^\s*(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)


def bare_doi(doi: str | None) -> str:
    """"https://doi.org/10.1/X" -> "10.1/X" (case kept); "" when there is none."""
    return _DOI_PREFIX.sub("", doi or "").strip()


@dataclass
class Built:
    """A rendered entry and what could not be represented exactly."""

    text: str
    warnings: list[str] = field(default_factory=list)


def _verbatim(value: str) -> str:
    """doi/url/eprint go in unescaped; only drop what would break the braces or the field:
    braces, spaces, controls and backslashes (a value ending in a lone backslash escapes
    the closing brace for bibtexparser and biblatex; none is valid in an id or a DOI)."""
    return re.sub(r"[{}\\\s\x00-\x1f\x7f-\x9f]", "", value)


def build_entry(paper: Paper, key: str, *, unicode: bool = False,
                prefer_journal: bool = False, extra: dict[str, str] | None = None) -> Built:
    """Render `paper` as an entry with citation key `key`, collecting warnings. `extra`
    adds text fields (the user's `note`, `keywords`), whitespace collapsed to one line."""
    warnings: list[str] = []

    t1: list[str] = []

    def note_lost(what: str, lost: list[str], kept_t1: Sequence[str] = ()) -> None:
        t1.extend(kept_t1)
        if lost:
            chars = "".join(dict.fromkeys(lost))
            warnings.append(
                f"{paper.id}: {what} has characters with no pdflatex-safe LaTeX form "
                f"({chars}); written as ASCII/'?' -- export with --unicode for biber/"
                "XeLaTeX/LuaLaTeX to keep them"
            )

    title = render(paper.title, unicode=unicode, protect=True)
    note_lost("title", title.lost, title.t1)
    authors = []
    for raw in paper.authors:
        if raw.strip().lower() in _ET_AL:
            authors.append("others")
            continue
        text, lost, kept = format_name(parse(raw), unicode=unicode)
        note_lost(f"author {raw!r}", lost, kept)
        if text:
            authors.append(text)
    year, month = arxiv_date(paper)
    journal = (paper.journal_ref or "").strip()
    is_article = prefer_journal and bool(journal)
    fields: list[tuple[str, str]] = [("title", "{" + title.text + "}")]
    if authors:
        fields.append(("author", "{" + " and ".join(authors) + "}"))
    if is_article:
        rendered = render(journal, unicode=unicode)
        note_lost("journal reference", rendered.lost)
        fields.append(("journal", "{" + rendered.text + "}"))
        years = re.findall(r"\b(?:19|20)\d{2}\b", journal)
        if years and int(years[-1]) != year:  # the journal's year, not the preprint's
            year, month = int(years[-1]), None
    if year:
        fields.append(("year", "{" + str(year) + "}"))
    else:
        warnings.append(f"{paper.id}: no year known (not a YYMM arXiv id, no date)")
    if month:
        fields.append(("month", MONTHS[month - 1]))
    eprint = _verbatim(paper.id)
    primary = _verbatim(paper.primary_category or (paper.categories or ("",))[0])
    fields += [("eprint", "{" + eprint + "}"), ("archivePrefix", "{arXiv}")]
    if primary:
        fields.append(("primaryClass", "{" + primary + "}"))
    fields.append(("eprinttype", "{arxiv}"))
    if primary:
        fields.append(("eprintclass", "{" + primary + "}"))
    doi = _verbatim(bare_doi(paper.doi))
    if doi:
        fields.append(("doi", "{" + doi + "}"))
    fields.append(("url", "{https://arxiv.org/abs/" + eprint + "}"))
    for name, value in (extra or {}).items():
        rendered = render(" ".join(value.split()), unicode=unicode)
        note_lost(name, rendered.lost)
        fields.append((name, "{" + rendered.text + "}"))
    if t1:
        warnings.append(
            f"{paper.id}: {''.join(dict.fromkeys(t1))} written with \\k{{}}: pdflatex needs "
            "\\usepackage[T1]{fontenc} (as for any Polish or Lithuanian name)")
    width = max(len(name) for name, _ in fields)
    body = ",\n".join(f"  {name.ljust(width)} = {value}" for name, value in fields)
    kind = "article" if is_article else "misc"
    return Built(f"@{kind}{{{key},\n{body}\n}}\n", warnings)


def render_entry(paper: Paper, key: str, *, unicode: bool = False,
                 prefer_journal: bool = False) -> str:
    """The BibTeX entry for `paper` under citation key `key` (ends with a newline)."""
    return build_entry(paper, key, unicode=unicode, prefer_journal=prefer_journal).text
