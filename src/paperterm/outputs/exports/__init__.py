"""Exports for every reference manager: BibTeX (in `outputs.bibtex`), RIS, CSL-JSON, CSV
and Markdown notes. Public API: `FORMATS`, `EXTENSIONS`, `render`, `write_notes`, `NotesResult`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paperterm.models import Paper

FORMATS = ("bibtex", "ris", "csl-json", "csv", "markdown")
EXTENSIONS = {"bibtex": "bib", "ris": "ris", "csl-json": "json", "csv": "csv", "markdown": "md"}


def _records(papers: Sequence[Paper], key_pattern: str) -> list:
    from paperterm.outputs.bibtex import citation_key
    from paperterm.outputs.exports.record import record

    return [record(p, citation_key(p, key_pattern)) for p in papers]


def render(fmt: str, papers: Sequence[Paper], key_pattern: str) -> str:
    """All `papers` as one text in `fmt` (ris, csl-json, csv or markdown).

    Raises `paperterm.outputs.bibtex.KeyPatternError` for a bad key pattern."""
    from paperterm.outputs.exports.csljson import render_csl_json
    from paperterm.outputs.exports.notes import render_markdown
    from paperterm.outputs.exports.ris import render_ris
    from paperterm.outputs.exports.table import render_csv

    renderers = {"ris": render_ris, "csl-json": render_csl_json, "csv": render_csv,
                 "markdown": render_markdown}
    if fmt not in renderers:
        raise ValueError(f"unknown export format {fmt!r}")
    return renderers[fmt](_records(papers, key_pattern))


@dataclass
class NotesResult:
    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # already there, left as the user edited it


def write_notes(papers: Sequence[Paper], directory: Path, key_pattern: str,
                *, update: bool = False) -> NotesResult:
    """One Markdown note per paper in `directory`; an existing note is kept unless `update`.

    Raises OSError when the directory or a note cannot be written."""
    from paperterm.io.atomic import atomic_write
    from paperterm.outputs.exports.notes import note_name, render_note

    directory.mkdir(parents=True, exist_ok=True)
    result = NotesResult()
    for r in _records(papers, key_pattern):
        path = directory / note_name(r)
        if path.exists() and not update:
            result.kept.append(path)
            continue
        atomic_write(path, render_note(r).encode("utf-8"))
        result.written.append(path)
    return result
