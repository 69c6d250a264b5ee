"""Exporting from the reader (`e`): plain functions, no Textual, like `bib_actions`.

RIS, CSL-JSON and CSV go to a new timestamped file in `exports/` in the data directory;
Markdown becomes one note per paper in `notes/` there (the same place as
`paperterm export --format markdown`), existing notes kept as the user edited them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from paperterm.models import Paper

READER_FORMATS = {
    "ris": "RIS: EndNote, Zotero, Mendeley, JabRef",
    "csl-json": "CSL-JSON: Zotero, pandoc, citeproc",
    "csv": "CSV: spreadsheets",
    "markdown": "Markdown: one Obsidian note per paper",
}


@dataclass(frozen=True)
class ExportOutcome:
    message: str
    path: Path | None = None
    error: bool = False


def export_as(papers: Sequence[Paper], fmt: str, data_dir: Path, key_pattern: str,
              now: float | None = None) -> ExportOutcome:
    """Write `papers` in `fmt` under `data_dir`; never raises for a bad pattern or disk."""
    from paperterm.io.atomic import atomic_write
    from paperterm.outputs.bibtex import KeyPatternError
    from paperterm.outputs.exports import EXTENSIONS, render, write_notes

    n = len(papers)
    try:
        if fmt == "markdown":
            directory = data_dir / "notes"
            result = write_notes(papers, directory, key_pattern)
            kept = f", {len(result.kept)} already there (kept)" if result.kept else ""
            written = len(result.written)
            return ExportOutcome(f"{written} note{'s' * (written != 1)} written to "
                                 f"{directory}{kept}",
                                 directory)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
        path = data_dir / "exports" / f"paperterm-{stamp}.{EXTENSIONS[fmt]}"
        text = render(fmt, papers, key_pattern)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text.encode("utf-8"))
    except KeyPatternError as exc:
        return ExportOutcome(f"Not exported: [bibtex] key_pattern: {exc}", error=True)
    except OSError as exc:
        return ExportOutcome(f"Not exported: {exc.strerror or exc}", error=True)
    return ExportOutcome(f"Exported {n} paper{'s' * (n != 1)} as {fmt} to {path}", path)
