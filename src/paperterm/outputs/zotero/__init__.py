"""Zotero: send papers to a running Zotero desktop (its local connector) or to a zotero.org
web library (the web API), and read a web library's arXiv papers.

Public API: `Connector`, `WebLibrary`, `ZoteroError`, `PartlySaved`, `zotero_item`,
`send_papers`, `send_new_papers`, `Sent`, `item_arxiv_id`."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperterm.models import Paper
from paperterm.outputs.zotero.connector import Connector, PartlySaved, ZoteroError, zotero_item
from paperterm.outputs.zotero.items import item_arxiv_id
from paperterm.outputs.zotero.web import WebLibrary, library_label

if TYPE_CHECKING:
    from paperterm.settings.config import ZoteroConfig
    from paperterm.store import ZoteroRecords


def send_papers(papers: Sequence[Paper], cfg: ZoteroConfig, collection: str | None = None,
                web: bool | None = None) -> str:
    """Send `papers` where `[zotero]` says (or the web library if `web`, the desktop if
    `web is False`), into `collection` or the configured one. Returns where they went;
    raises ZoteroError with one line saying why not."""
    use_web, _ = target_of(cfg, web)
    chosen = collection or cfg.collection or None
    if use_web:
        return WebLibrary(cfg.library_id, cfg.library_type).save(papers, chosen)
    return Connector().save(papers, chosen)


@dataclass(frozen=True)
class Sent:
    """What `send_new_papers` did: where to, how many sent, how many sent there before."""

    where: str
    sent: int
    skipped: int

    def message(self) -> str:
        """"Sent 2 papers to Zotero (…)", and what was not sent again."""
        n, k = self.sent, self.skipped
        if not n:
            what = "the paper was" if k == 1 else f"all {k} papers were"
            return f"Nothing sent to Zotero ({self.where}): {what} sent there before"
        text = f"Sent {n} paper{'s' * (n != 1)} to Zotero ({self.where})"
        return f"{text}; {k} sent there before, not again" if k else text


def target_of(cfg: ZoteroConfig, web: bool | None = None) -> tuple[bool, str]:
    """(whether to the web library, the library's key in the store)."""
    use_web = cfg.send_to == "web" if web is None else web
    return use_web, f"web:{cfg.library_type}/{cfg.library_id}" if use_web else "desktop"


def send_new_papers(papers: Sequence[Paper], cfg: ZoteroConfig, records: ZoteroRecords,
                    collection: str | None = None, web: bool | None = None,
                    resend: bool = False) -> Sent:
    """`send_papers`, but for papers already sent to the same library (in `records`),
    unless `resend`: sending the starred papers every day adds each one once. Raises
    ZoteroError as `send_papers` does; what a send stopped part-way had added is recorded."""
    use_web, target = target_of(cfg, web)
    already: set[str] = set()
    if not resend:
        with contextlib.suppress(Exception):  # an unreadable record: send them all
            already = records.sent_to_zotero(target, [p.id for p in papers])
    todo = [p for p in papers if p.id not in already]
    if not todo:
        where = library_label(cfg.library_type, cfg.library_id) if use_web else "desktop"
        return Sent(where, 0, len(papers))
    try:
        where = send_papers(todo, cfg, collection, use_web)
    except PartlySaved as exc:
        if not _record(records, target, exc.created):
            raise
        left = len(todo) - len(exc.created)
        again = (f"sending again{' without --resend' * resend} sends only the other {left}"
                 if left else "they are not sent there again (unless --resend)")
        raise PartlySaved(f"{exc}; {again}", exc.created) from None
    _record(records, target, [p.id for p in todo])
    return Sent(where, len(todo), len(papers) - len(todo))


def _record(records: ZoteroRecords, target: str, ids: list[str]) -> bool:
    """Record `ids` as sent to `target`; whether that worked (and is kept)."""
    if not records.available or not ids:
        return False
    try:
        records.record_zotero_sent(target, ids)
    except Exception:  # sent all the same
        return False
    return True


__all__ = ["Connector", "PartlySaved", "Sent", "WebLibrary", "ZoteroError", "item_arxiv_id",
           "send_new_papers", "send_papers", "zotero_item"]
