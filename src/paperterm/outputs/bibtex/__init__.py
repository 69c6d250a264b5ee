"""BibTeX export of arXiv papers: rendering, citation keys and merge-writing a .bib file.

Public API: `export_papers`, `ExportResult`, `BibError`, `render_entry`, `citation_key`.
Never imports textual.
"""

from __future__ import annotations

from paperterm.outputs.bibtex.citekeys import DEFAULT_PATTERN, check_pattern, citation_key
from paperterm.outputs.bibtex.entry import render_entry
from paperterm.outputs.bibtex.errors import BibError, KeyPatternError
from paperterm.outputs.bibtex.export import ExportResult, export_papers

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
