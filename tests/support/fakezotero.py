"""A fake Zotero desktop connector on 127.0.0.1: getSelectedCollection, saveItems,
updateSession, as Zotero answers them; records what it was sent."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler
from typing import Any

from support.localserver import LocalServer

TARGETS = [{"id": "L1", "name": "My Library", "level": 0},
           {"id": "C7", "name": "arXiv inbox", "level": 1},
           {"id": "C9", "name": "MoE", "level": 1}]


class FakeZoteroConnector:
    def __init__(self, gate: threading.Event | None = None) -> None:
        """`gate`: saveItems waits until it is set (a slow Zotero)."""
        self.gate = gate
        self.calls: list[tuple[str, Any]] = []
        self.items: list[dict[str, Any]] = []
        self.sessions: dict[str, str] = {}  # sessionID -> target id
        self.session_down = False  # updateSession answers 500 (saveItems still works)
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                endpoint = self.path.removeprefix("/connector/")
                outer.calls.append((endpoint, body))
                if endpoint == "getSelectedCollection":
                    self._answer(200, {"libraryID": 1, "libraryName": "My Library",
                                       "id": 7, "name": "arXiv inbox", "targets": TARGETS})
                elif endpoint == "saveItems":
                    if outer.gate is not None:
                        outer.gate.wait(20)
                    outer.items += body["items"]
                    outer.sessions[body["sessionID"]] = "C7"
                    self._answer(201, None)
                elif endpoint == "updateSession":
                    if outer.session_down:
                        self._answer(500, None)
                        return
                    if body["sessionID"] not in outer.sessions:
                        self._answer(400, {"error": "SESSION_NOT_FOUND"})
                        return
                    outer.sessions[body["sessionID"]] = body["target"]
                    self._answer(200, None)
                else:
                    self._answer(404, None)

            def _answer(self, status: int, payload: Any) -> None:
                data = json.dumps(payload).encode() if payload is not None else b""
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = LocalServer(Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.server.serve_in_thread()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class FakeZoteroWeb:
    """A fake zotero.org web API v3 for one library: collections and top-level items (paged
    with `start`/`limit`, a Total-Results header and a Link to the next page), item creation
    answering the successful/success/unchanged/failed object; checks the key (Bearer or
    Zotero-API-Key) and API version headers.
    `throttle` requests are answered 429 with Retry-After: `retry_after` (0) first; once
    `posts_before_outage` writes have been served, writes are answered 500."""

    def __init__(self, key: str = "k3y", library: str = "/users/475425",
                 items: list[dict[str, Any]] | None = None, throttle: int = 0) -> None:
        self.key, self.library, self.throttle = key, library, throttle
        self.collections = [{"key": "ABCD2345", "version": 3, "library": {},
                             "data": {"key": "ABCD2345", "name": "arXiv inbox",
                                      "parentCollection": False}},
                            {"key": "EFGH6789", "version": 4, "library": {},
                             "data": {"key": "EFGH6789", "name": "MoE",
                                      "parentCollection": False}}]
        self.items: list[dict[str, Any]] = [
            {"key": f"ITEM{n:04d}", "version": 1, "data": {**d, "key": f"ITEM{n:04d}"}}
            for n, d in enumerate(items or [])]
        self.requests: list[tuple[str, str]] = []
        self.agents: list[str] = []  # User-Agent of each request
        self.retry_after = "0"
        self.posts_before_outage: int | None = None
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _guard(self) -> str | None:
                outer.requests.append((self.command, self.path))
                outer.agents.append(self.headers.get("User-Agent", ""))
                if outer.throttle > 0:
                    outer.throttle -= 1
                    self._answer(429, {"error": "Too Many Requests"},
                                 {"Retry-After": outer.retry_after})
                    return None
                auth = self.headers.get("Authorization", "")  # pyzotero's way; both are valid
                key = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else \
                    self.headers.get("Zotero-API-Key")
                if key != outer.key:
                    self._answer(403, None, raw=b"Invalid key")
                    return None
                if self.headers.get("Zotero-API-Version") != "3":
                    self._answer(400, None, raw=b"API version 3 expected")
                    return None
                path = self.path.split("?", 1)[0]
                if not path.startswith(outer.library + "/"):
                    self._answer(404, None, raw=b"Not found")
                    return None
                return path.removeprefix(outer.library)

            def do_GET(self) -> None:
                from urllib.parse import parse_qs, urlencode, urlsplit

                path = self._guard()
                if path is None:
                    return
                q = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
                if path == "/collections":
                    rows = outer.collections
                elif path == "/items/top":
                    rows = [i for i in outer.items if "parentItem" not in i["data"]
                            and (q.get("itemType") != "-attachment"
                                 or i["data"]["itemType"] != "attachment")]
                else:
                    self._answer(404, None, raw=b"Not found")
                    return
                start, limit = int(q.get("start", 0)), min(int(q.get("limit", 25)), 100)
                headers = {"Total-Results": str(len(rows))}
                if start + limit < len(rows):  # as zotero.org: a Link to the next page
                    nxt = urlencode({**q, "start": start + limit, "limit": limit})
                    headers["Link"] = f'<{outer.url}{urlsplit(self.path).path}?{nxt}>; rel="next"'
                self._answer(200, rows[start:start + limit], headers)

            def do_POST(self) -> None:
                path = self._guard()
                if path is None:
                    return
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if outer.posts_before_outage is not None:
                    if outer.posts_before_outage <= 0:
                        self._answer(500, None, raw=b"An error occurred")
                        return
                    outer.posts_before_outage -= 1
                if path != "/items" or not isinstance(body, list) or len(body) > 50:
                    self._answer(400, None, raw=b"bad request")
                    return
                result: dict[str, Any] = {"successful": {}, "success": {}, "unchanged": {},
                                          "failed": {}}
                for n, data in enumerate(body):
                    if not data.get("itemType"):
                        result["failed"][str(n)] = {"key": "", "code": 400,
                                                    "message": "'itemType' property not "
                                                               "provided"}
                        continue
                    key = f"NEW{len(outer.items):05d}"
                    obj = {"key": key, "version": 10, "data": {**data, "key": key}}
                    outer.items.append(obj)
                    result["successful"][str(n)] = obj
                    result["success"][str(n)] = key
                self._answer(200, result)

            def _answer(self, status: int, payload: Any, headers: dict[str, str] | None = None,
                        raw: bytes | None = None) -> None:
                data = raw if raw is not None else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = LocalServer(Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.server.serve_in_thread()

    def created(self) -> list[dict[str, Any]]:
        return [i["data"] for i in self.items if i["key"].startswith("NEW")]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
