"""CSV: plain RFC 4180 (comma, double quotes, CRLF), one row per paper, a header row first."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from paperterm.exports.record import Record

COLUMNS = ("id", "version", "title", "authors", "year", "date", "primary_category",
           "categories", "doi", "journal_ref", "url", "pdf_url", "abstract", "citation_key")


def render_csv(records: Sequence[Record]) -> str:
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, dialect="excel", lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for r in records:
        p = r.paper
        writer.writerow([
            p.id, p.version or "", r.title, "; ".join(a.display for a in r.authors),
            r.year or "", r.date, p.primary_category, " ".join(p.categories), r.doi,
            p.journal_ref or "", p.abs_url, p.pdf_url, r.abstract, r.key,
        ])
    return buf.getvalue()
