"""CSV: plain RFC 4180 (comma, double quotes, CRLF), one row per paper, a header row first.

Text from arXiv that a spreadsheet would run as a formula (a title or abstract starting with
`=`, `+`, `-`, `@`, a tab or a carriage return: `=HYPERLINK(...)`) gets a leading `'`, as
OWASP advises against CSV injection; every other cell is written as it is."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from paperterm.outputs.exports.record import Record

COLUMNS = ("id", "version", "title", "authors", "year", "date", "primary_category",
           "categories", "doi", "journal_ref", "url", "pdf_url", "abstract", "citation_key")


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _inert(text: str) -> str:
    """`text`, never read as a formula by Excel, LibreOffice or Google Sheets."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def render_csv(records: Sequence[Record]) -> str:
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, dialect="excel", lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for r in records:
        p = r.paper
        writer.writerow([
            p.id, p.version or "", _inert(r.title),
            _inert("; ".join(a.display for a in r.authors)), r.year or "", r.date,
            p.primary_category, " ".join(p.categories), _inert(r.doi),
            _inert(p.journal_ref or ""), p.abs_url, p.pdf_url, _inert(r.abstract), r.key,
        ])
    return buf.getvalue()
