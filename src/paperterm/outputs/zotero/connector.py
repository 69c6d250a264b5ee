"""Zotero desktop's local connector (HTTP on 127.0.0.1:23119, the protocol the browser
connectors speak): `saveItems` with Zotero items, then `updateSession` to file them into the
chosen collection. `PAPERTERM_ZOTERO_CONNECTOR_URL` overrides the address (tests)."""

from __future__ import annotations

import http.client
import json
import uuid
from collections.abc import Sequence
from typing import Any

from paperterm import __version__
from paperterm.io import httpio, limits
from paperterm.io.env import env
from paperterm.io.redact import redact_url
from paperterm.models import Paper
from paperterm.outputs.exports.record import record

DEFAULT_URL = "http://127.0.0.1:23119"


class ZoteroError(Exception):
    """Zotero could not take the papers; the text says why, in one line."""


def zotero_item(paper: Paper) -> dict[str, Any]:
    """One paper as a Zotero "preprint" item, with its PDF as a linked attachment."""
    r = record(paper, paper.id)
    return {
        "id": paper.id,
        "itemType": "preprint",
        "title": r.title,
        "creators": [{"name": a.literal, "creatorType": "author"} if a.literal else
                     {"lastName": a.family, "firstName": a.given, "creatorType": "author"}
                     for a in r.authors],
        "abstractNote": r.abstract,
        "date": r.date,
        "repository": "arXiv",
        "archiveID": r.eprint,
        "DOI": r.doi,
        "url": paper.abs_url,
        "extra": f"arXiv: {paper.versioned_id}",
        "tags": [{"tag": c} for c in paper.categories],
        "attachments": [{"title": "arXiv PDF", "url": paper.pdf_url,
                         "mimeType": "application/pdf"}],
    }


class PartlySaved(ZoteroError):
    """A send stopped part-way: `created` holds the arXiv ids of the papers added before."""

    def __init__(self, message: str, created: list[str]) -> None:
        super().__init__(message)
        self.created = created


class Connector:
    def __init__(self, base_url: str | None = None) -> None:
        self.base = (base_url or env("PAPERTERM_ZOTERO_CONNECTOR_URL")
                     or DEFAULT_URL).rstrip("/")

    def _post(self, endpoint: str, payload: Any) -> tuple[int, Any]:
        try:
            answer = httpio.request(
                f"{self.base}/connector/{endpoint}", what=f"Zotero connector {endpoint}",
                method="POST", data=json.dumps(payload).encode("utf-8"),
                headers={"Content-Type": "application/json",
                         "X-Zotero-Connector-API-Version": "3",
                         "User-Agent": f"paperterm/{__version__}"})
            raw, status = answer.body, answer.status
        except httpio.HttpFailure as exc:
            detail = " ".join(exc.answer.body[:300].decode("utf-8", "replace").split())
            raise ZoteroError(f"Zotero connector {endpoint}: HTTP {exc.answer.status}"
                              + (f" ({detail[:200]})" if detail else "")) from None
        except (limits.InputTooSlow, limits.InputTooLarge) as exc:
            raise ZoteroError(str(exc)) from None
        except (OSError, http.client.HTTPException) as exc:
            where = redact_url(self.base)
            raise ZoteroError(f"Zotero is not running, or its connector is off (nothing "
                              f"answers at {where}): {httpio.one_line(exc)}") from None
        try:
            return status, json.loads(raw) if raw.strip() else None
        except ValueError:
            return status, None

    def collections(self) -> list[dict[str, Any]]:
        """The libraries and collections Zotero offers as targets ({id, name, level})."""
        _, body = self._post("getSelectedCollection", {})
        targets = (body or {}).get("targets") if isinstance(body, dict) else None
        return [t for t in targets or [] if isinstance(t, dict) and "id" in t]

    def target_id(self, collection: str) -> str:
        targets = self.collections()
        wanted = collection.strip().casefold()
        for t in targets:
            if str(t.get("name", "")).strip().casefold() == wanted:
                return str(t["id"])
        names = ", ".join(str(t.get("name")) for t in targets) or "none"
        raise ZoteroError(f"no Zotero collection named {collection!r} (there are: {names})")

    def save(self, papers: Sequence[Paper], collection: str | None = None) -> str:
        """Save `papers` into Zotero (into `collection`, else Zotero's selected one).
        Returns where they went."""
        target = self.target_id(collection) if collection else None
        session = uuid.uuid4().hex
        status, _ = self._post("saveItems", {
            "sessionID": session, "uri": papers[0].abs_url if papers else "",
            "items": [zotero_item(p) for p in papers]})
        if status not in (200, 201):
            raise ZoteroError(f"Zotero connector saveItems answered HTTP {status}")
        if target:
            try:
                self._post("updateSession", {"sessionID": session, "target": target})
            except ZoteroError as exc:  # saved all the same, where Zotero pointed
                raise PartlySaved(f"{exc}; the papers were saved into the collection "
                                  f"selected in Zotero, not {collection}",
                                  [p.id for p in papers]) from None
            return f"collection {collection}"
        return "the collection selected in Zotero"
