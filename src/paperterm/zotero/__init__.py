"""Zotero: send papers to a running Zotero desktop (its local connector) or to a zotero.org
web library (the web API), and read a web library's arXiv papers.

Public API: `Connector`, `WebLibrary`, `ZoteroError`, `zotero_item`, `send_papers`,
`item_arxiv_id`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from paperterm.models import Paper
from paperterm.zotero.connector import Connector, ZoteroError, zotero_item
from paperterm.zotero.items import item_arxiv_id
from paperterm.zotero.web import WebLibrary

if TYPE_CHECKING:
    from paperterm.config import ZoteroConfig


def send_papers(papers: Sequence[Paper], cfg: ZoteroConfig, collection: str | None = None,
                web: bool | None = None) -> str:
    """Send `papers` where `[zotero]` says (or the web library if `web`, the desktop if
    `web is False`), into `collection` or the configured one. Returns where they went;
    raises ZoteroError with one line saying why not."""
    use_web = cfg.send_to == "web" if web is None else web
    chosen = collection or cfg.collection or None
    if use_web:
        return WebLibrary(cfg.library_id, cfg.library_type).save(papers, chosen)
    return Connector().save(papers, chosen)


__all__ = ["Connector", "WebLibrary", "ZoteroError", "item_arxiv_id", "send_papers",
           "zotero_item"]
