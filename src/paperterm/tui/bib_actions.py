"""Saving and copying BibTeX, as the reader does it: plain functions, no Textual.

The day screen calls these with the papers to act on and shows what they return; everything
the user reads (the notice text, the warnings) is decided here, so it can be tested without
starting the app.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paperterm.models import Paper
from paperterm.settings.config import BibtexConfig


@dataclass(frozen=True)
class BibOptions:
    """How entries are written: the `[bibtex]` config plus the --unicode choice."""

    unicode: bool = False
    prefer_journal: bool = False
    key_pattern: str = BibtexConfig.key_pattern

    @classmethod
    def from_config(cls, config: BibtexConfig, *, unicode: bool) -> BibOptions:
        return cls(unicode=unicode, prefer_journal=config.prefer_journal,
                   key_pattern=config.key_pattern)


@dataclass
class SaveOutcome:
    """What `save_papers` did. `error` set: nothing was written (the notice is `message`)."""

    message: str
    path: Path | None = None
    # (arXiv id, citation key) of every paper now in the file: added or already there
    in_file: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: bool = False


def save_papers(papers: Sequence[Paper], bib_path: Path, options: BibOptions) -> SaveOutcome:
    """Merge `papers` into the .bib file at `bib_path`; never raises for a bad file."""
    from paperterm.outputs.bibtex import BibError, export_papers

    try:
        result = export_papers(list(papers), bib_path, unicode=options.unicode,
                               prefer_journal=options.prefer_journal,
                               key_pattern=options.key_pattern)
    except BibError as exc:
        return SaveOutcome(message=f"Not saved: {exc}", error=True)
    path = result.path or bib_path
    parts = [f"Saved to {path}:"]
    if result.added:
        parts.append("added " + ", ".join(k for _, k in result.added))
    if result.skipped:
        parts.append("already there " + ", ".join(k for _, k in result.skipped))
    return SaveOutcome(
        message=" ".join(parts),
        path=path,
        in_file=[*result.added, *result.updated, *result.skipped],
        warnings=list(result.warnings),
    )


@dataclass(frozen=True)
class Clipping:
    """Text for the clipboard and the notice that says what it is."""

    text: str
    message: str
    what: str = ""  # e.g. "BibTeX entry key2026"


def bibtex_clipping(paper: Paper, bib_key: str | None, options: BibOptions) -> Clipping:
    """The paper's BibTeX entry (under `bib_key` if it was saved with one); if the entry
    cannot be built (e.g. a bad key pattern), the versioned arXiv id instead."""
    try:
        from paperterm.outputs.bibtex import citation_key, render_entry

        key = bib_key or citation_key(paper, options.key_pattern)
        text = render_entry(paper, key, unicode=options.unicode,
                            prefer_journal=options.prefer_journal)
        what = f"BibTeX entry {key}"
    except Exception:
        text, what = paper.versioned_id, f"arXiv id {paper.versioned_id}"
    return Clipping(text=text, message=f"Copied the {what} to the clipboard", what=what)
