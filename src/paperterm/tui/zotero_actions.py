"""Sending papers to Zotero from the reader (`Z`): a plain function, no Textual, run by the
day screen on a worker thread (the web API or a slow desktop must never block the list)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from paperterm.config import ZoteroConfig
from paperterm.models import Paper


@dataclass(frozen=True)
class ZoteroOutcome:
    message: str
    error: bool = False


def send_to_zotero(papers: Sequence[Paper], cfg: ZoteroConfig,
                   db_path: Path | None = None) -> ZoteroOutcome:
    """Send `papers` where `[zotero]` says, but those sent there before (recorded in the
    database at `db_path`); never raises (a failure is the outcome)."""
    from paperterm.store import Store
    from paperterm.zotero import PartlySaved, ZoteroError, send_new_papers

    store = None
    if db_path is not None:
        with contextlib.suppress(Exception):  # no record this time: all are sent
            store = Store.open(db_path)
    try:
        sent = send_new_papers(papers, cfg, store)
    except PartlySaved as exc:  # the marks stay: `Z` again sends the rest
        return ZoteroOutcome(f"Zotero stopped part-way: {exc}", error=True)
    except ZoteroError as exc:
        return ZoteroOutcome(f"Not sent to Zotero: {exc}", error=True)
    except Exception as exc:  # a worker must not die with a traceback on screen
        return ZoteroOutcome(f"Not sent to Zotero: {type(exc).__name__}: {exc}", error=True)
    finally:
        if store is not None:
            store.close()
    return ZoteroOutcome(sent.message())
