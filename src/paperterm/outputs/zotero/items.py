"""Which arXiv paper a Zotero item is: its URL, archive ID, `arXiv:` line in Extra, or an
arXiv DOI (10.48550/arXiv.NNNN.NNNNN)."""

from __future__ import annotations

import re
from typing import Any

from paperterm.arxiv_id import find_arxiv_id, parse_arxiv_id

_ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(\S+)", re.I)
_EXTRA = re.compile(r"^\s*arxiv\s*(?:id)?\s*:\s*(\S+)", re.I | re.M)


def item_arxiv_id(data: dict[str, Any]) -> str | None:
    """The arXiv id (no version) of a Zotero item's `data`, or None if it is no arXiv paper."""
    doi = str(data.get("DOI") or "")
    if m := _ARXIV_DOI.search(doi):
        found = parse_arxiv_id(m.group(1))
        if found:
            return found.id
    for m in _EXTRA.finditer(str(data.get("extra") or "")):
        found = parse_arxiv_id(m.group(1))
        if found:
            return found.id
    url = str(data.get("url") or "")
    if "arxiv.org/" in url.lower():
        found = find_arxiv_id(url)
        if found:
            return found.id
    archive = str(data.get("archiveID") or "")
    if archive.lower().startswith("arxiv:"):
        found = parse_arxiv_id(archive)
        if found:
            return found.id
    return None
