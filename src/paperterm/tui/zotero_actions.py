"""Sending papers to Zotero from the reader (`Z`): a plain function, no Textual, run by the
day screen on a worker thread (the web API or a slow desktop must never block the list)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paperterm.config import ZoteroConfig
from paperterm.models import Paper


@dataclass(frozen=True)
class ZoteroOutcome:
    message: str
    error: bool = False


def send_to_zotero(papers: Sequence[Paper], cfg: ZoteroConfig) -> ZoteroOutcome:
    """Send `papers` where `[zotero]` says; never raises (a failure is the outcome)."""
    from paperterm.zotero import ZoteroError, send_papers

    n = len(papers)
    try:
        where = send_papers(papers, cfg)
    except ZoteroError as exc:
        return ZoteroOutcome(f"Not sent to Zotero: {exc}", error=True)
    except Exception as exc:  # a worker must not die with a traceback on screen
        return ZoteroOutcome(f"Not sent to Zotero: {type(exc).__name__}: {exc}", error=True)
    return ZoteroOutcome(f"Sent {n} paper{'s' * (n != 1)} to Zotero ({where})")
