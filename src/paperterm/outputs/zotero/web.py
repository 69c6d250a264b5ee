"""A Zotero web library through the Zotero web API v3 (api.zotero.org), spoken by pyzotero:
create items in a collection, read the library's arXiv papers. The key comes from
`ZOTERO_API_KEY`; `PAPERTERM_ZOTERO_API_URL` overrides the address (tests).

pyzotero is imported only here, when a web library is used (never on the reader's first
paint). Its errors become one-line ZoteroErrors; a 429 on a write is retried once pyzotero
has waited out the server's Retry-After / Backoff."""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from paperterm.io import httpio, limits
from paperterm.io.env import env
from paperterm.io.redact import redact_url
from paperterm.models import Paper
from paperterm.outputs.zotero.connector import PartlySaved, ZoteroError, zotero_item

DEFAULT_URL = "https://api.zotero.org"
PAGE = 100  # the most items the API returns per request
WRITE_BATCH = 50  # the most objects one write may carry
MAX_WAIT = 30.0  # the longest Retry-After / Backoff honoured before giving up
WRITE_ATTEMPTS = 4

T = TypeVar("T")


def library_label(library_type: str, library_id: str) -> str:
    """How messages name a web library: "user library 475425"."""
    return f"{library_type} library {library_id}"


class WebLibrary:
    """One user or group library on zotero.org."""

    def __init__(self, library_id: str, library_type: str = "user",
                 api_key: str | None = None, base_url: str | None = None) -> None:
        if not library_id:
            raise ZoteroError("no Zotero library id: set library_id under [zotero] in the "
                              "config (your user ID is on zotero.org/settings/keys)")
        key = api_key if api_key is not None else os.environ.get("ZOTERO_API_KEY", "")
        if not key.strip():
            raise ZoteroError("no Zotero API key: set ZOTERO_API_KEY (create one at "
                              "zotero.org/settings/keys)")
        from pyzotero import zotero

        self.key = key.strip()
        self.base = (base_url or env("PAPERTERM_ZOTERO_API_URL")
                     or DEFAULT_URL).rstrip("/")
        self.label = library_label(library_type, library_id)
        self.zot = zotero.Zotero(urllib.parse.quote(str(library_id)), library_type, self.key)
        self.zot.endpoint = self.base
        self._cap_backoff()

    def _cap_backoff(self) -> None:
        """pyzotero sleeps as long as a Retry-After / Backoff says, on its next request; an
        hour-long wait would freeze the command. Longer than MAX_WAIT: a 429 gives up at
        once, any other answer's Backoff is shortened."""
        from paperterm.outputs.zotero.pyzotero_compat import cap_backoff

        def capping(record: Callable[[float], None]) -> Callable[[Any], None]:
            def capped(duration: str | float) -> None:
                try:
                    seconds = float(duration)
                except (TypeError, ValueError):
                    seconds = 0.0
                if seconds > MAX_WAIT and self._status() == 429:
                    raise ZoteroError("Zotero web API: HTTP 429: too many requests; try "
                                      f"again in {seconds:.0f} s")
                record(min(max(seconds, 0.0), MAX_WAIT))

            return capped

        cap_backoff(self.zot, capping)

    # -- pyzotero, its errors as one line ---------------------------------------------------
    def _call(self, fn: Callable[[], T]) -> T:
        from pyzotero import errors as ze

        try:
            return httpio.within(fn, f"the Zotero web API at {redact_url(self.base)}")
        except limits.InputTooSlow as exc:
            raise ZoteroError(str(exc)) from None
        except ze.PyZoteroError as exc:
            raise ZoteroError(self._problem(exc)) from None
        except Exception as exc:  # pyzotero's HTTP client (httpx2): connection, timeout
            if not isinstance(exc, OSError) and \
                    type(exc).__module__.split(".")[0] not in ("httpx2", "httpcore"):
                raise
            raise ZoteroError(f"cannot reach the Zotero web API at {redact_url(self.base)}: "
                              f"{type(exc).__name__}: {exc}") from None

    def _status(self) -> int | None:
        resp = getattr(self.zot, "request", None)
        return getattr(resp, "status_code", None)

    def _problem(self, exc: Exception) -> str:
        code = self._status()
        detail = " ".join(str(exc).split())[:200]
        why = {403: "the key was refused, or it may not write to this library (check "
                    "ZOTERO_API_KEY and the key's permissions)",
               404: f"no {self.label} (check library_id and library_type under [zotero])",
               429: "too many requests; try again later"}.get(code or 0, detail)
        return f"Zotero web API: HTTP {code}: {why}" if code else f"Zotero web API: {detail}"

    # -- reading ------------------------------------------------------------------------
    def collections(self) -> list[dict[str, Any]]:
        """Every collection: {key, name}."""
        rows = self._call(lambda: self.zot.everything(self.zot.collections(limit=PAGE)))
        return [{"key": c.get("key") or c.get("data", {}).get("key"),
                 "name": str(c.get("data", {}).get("name", ""))}
                for c in rows if isinstance(c, dict)]

    def collection_key(self, name: str) -> str:
        cols = self.collections()
        wanted = name.strip().casefold()
        for c in cols:
            if c["name"].strip().casefold() == wanted:
                return str(c["key"])
        names = ", ".join(c["name"] for c in cols) or "none"
        raise ZoteroError(f"no collection named {name!r} in the Zotero {self.label} "
                          f"(there are: {names})")

    def items(self) -> Iterator[dict[str, Any]]:
        """The `data` of every top-level regular item (no attachments or notes)."""
        rows = self._call(lambda: self.zot.everything(
            self.zot.top(itemType="-attachment", limit=PAGE)))
        for obj in rows:
            data = obj.get("data") if isinstance(obj, dict) else None
            if isinstance(data, dict):
                yield data

    # -- writing ------------------------------------------------------------------------
    def save(self, papers: Sequence[Paper], collection: str | None = None) -> str:
        """Create one preprint item per paper (with a linked PDF) in the library, filed into
        `collection` when given. Returns where they went. Stopped part-way (after a batch),
        raises PartlySaved naming the papers whose items exist."""
        target = self.collection_key(collection) if collection else None
        created: list[tuple[str, Paper]] = []
        try:
            for i in range(0, len(papers), WRITE_BATCH):
                batch = list(papers[i:i + WRITE_BATCH])
                keys, refused = self._create([web_item(p, target) for p in batch])
                created += [(keys[n], p) for n, p in enumerate(batch) if n in keys]
                if refused:
                    raise ZoteroError(f"Zotero web API refused {len(batch) - len(keys)} of "
                                      f"{len(batch)} items: {refused}")
            pdfs = [pdf_attachment(p, key) for key, p in created]
            for i in range(0, len(pdfs), WRITE_BATCH):
                _, refused = self._create(pdfs[i:i + WRITE_BATCH])
                if refused:
                    raise ZoteroError(f"Zotero web API refused a PDF link: {refused}")
        except ZoteroError as exc:
            if not created:
                raise
            raise PartlySaved(f"{exc}; {len(created)} of {len(papers)} papers were added "
                              "first", [p.id for _, p in created]) from None
        where = f"collection {collection}" if collection else "the library root"
        return f"{self.label}, {where}"

    def _create(self, objects: list[dict[str, Any]]) -> tuple[dict[int, str], str]:
        """Create `objects`: (their keys by position, why the first refused one was refused,
        or "")."""
        for _ in range(WRITE_ATTEMPTS):
            body = self._call(lambda: self.zot.create_items(objects))
            if self._status() != 429:
                break
            # pyzotero recorded the server's backoff and waits it out before the next write
        else:
            raise ZoteroError("Zotero web API: HTTP 429: too many requests; try again later")
        body = body if isinstance(body, dict) else {}
        ok = body.get("success") or {}
        keys = {int(n): str(k) for n, k in ok.items()}
        failed = body.get("failed") or {}
        if not failed:
            return keys, ""
        first = next(iter(failed.values()))
        return keys, (first.get("message", "") if isinstance(first, dict) else str(first)) \
            or "no reason given"


def web_item(paper: Paper, collection_key: str | None) -> dict[str, Any]:
    """A paper as a web API preprint item (the connector's item, minus connector-only keys)."""
    item = {k: v for k, v in zotero_item(paper).items() if k not in ("id", "attachments")}
    item["collections"] = [collection_key] if collection_key else []
    return item


def pdf_attachment(paper: Paper, parent_key: str) -> dict[str, Any]:
    return {"itemType": "attachment", "linkMode": "linked_url", "title": "arXiv PDF",
            "url": paper.pdf_url, "contentType": "application/pdf",
            "parentItem": parent_key, "tags": []}
