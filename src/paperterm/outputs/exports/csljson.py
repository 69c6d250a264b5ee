"""CSL-JSON (Zotero, pandoc, citeproc): the data model citation styles are written against."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paperterm.outputs.exports.record import Record, one_line


def csl_item(r: Record) -> dict[str, Any]:
    p = r.paper
    item: dict[str, Any] = {
        "id": r.key,
        "type": "article-journal" if p.journal_ref else "article",
        "title": r.title,
        "author": [
            {"literal": a.literal} if a.literal
            else {"family": a.family, **({"given": a.given} if a.given else {})}
            for a in r.authors
        ],
        "publisher": "arXiv",
        "number": r.eprint,
        "genre": "preprint",
        "DOI": r.doi,
        "URL": p.abs_url,
        "abstract": r.abstract,
        "keyword": ", ".join(p.categories),
    }
    if r.date_parts:
        item["issued"] = {"date-parts": [r.date_parts]}
    if p.journal_ref:
        item["container-title"] = one_line(p.journal_ref)
    if p.comment:
        item["note"] = one_line(p.comment)
    return item


def render_csl_json(records: Sequence[Record]) -> str:
    return json.dumps([csl_item(r) for r in records], ensure_ascii=False, indent=2) + "\n"
