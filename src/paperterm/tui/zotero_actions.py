"""Sending papers to Zotero from the reader (`Z`): a plain function, no Textual, run by the
day screen on a worker thread (the web API or a slow desktop must never block the list)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperterm.models import Paper
from paperterm.settings.config import ZoteroConfig

if TYPE_CHECKING:
    from paperterm.services.storage import StoreFactory


@dataclass(frozen=True)
class ZoteroOutcome:
    message: str
    error: bool = False


def send_to_zotero(papers: Sequence[Paper], cfg: ZoteroConfig,
                   open_store: StoreFactory) -> ZoteroOutcome:
    """Send `papers` where `[zotero]` says, but those sent there before (recorded in the
    database `open_store` opens); never raises (a failure is the outcome)."""
    from paperterm.outputs.zotero import PartlySaved, ZoteroError, send_new_papers
    from paperterm.services.storage import open_or_unavailable

    store = open_or_unavailable(open_store)  # no database: no record this time, all are sent
    try:
        sent = send_new_papers(papers, cfg, store.zotero)
    except PartlySaved as exc:  # the marks stay: `Z` again sends the rest
        return ZoteroOutcome(f"Zotero stopped part-way: {exc}", error=True)
    except ZoteroError as exc:
        return ZoteroOutcome(f"Not sent to Zotero: {exc}", error=True)
    except Exception as exc:  # a worker must not die with a traceback on screen
        return ZoteroOutcome(f"Not sent to Zotero: {type(exc).__name__}: {exc}", error=True)
    finally:
        store.close()
    return ZoteroOutcome(sent.message())
