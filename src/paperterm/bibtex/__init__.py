"""BibTeX export of arXiv papers: rendering, citation keys and merge-writing a .bib file.

Public API: `export_papers`, `ExportResult`, `BibError`, `render_entry`, `citation_key`.
Never imports textual.
"""

from __future__ import annotations

from paperterm.bibtex.entry import render_entry
from paperterm.bibtex.errors import BibError, KeyPatternError
from paperterm.bibtex.export import ExportResult, export_papers
from paperterm.bibtex.keys import DEFAULT_PATTERN, check_pattern, citation_key

__all__ = [
    "DEFAULT_PATTERN",
    "BibError",
    "ExportResult",
    "KeyPatternError",
    "check_pattern",
    "citation_key",
    "export_papers",
    "render_entry",
]
