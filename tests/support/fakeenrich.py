"""Fake Hugging Face daily papers and Semantic Scholar batch endpoints on 127.0.0.1, answering
with the recorded responses in tests/fixtures/enrich; records what they were asked. Either can
be told to answer 429 with a Retry-After a few times first."""

from __future__ import annotations

import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from support.localserver import LocalServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "enrich"


class FakeEnrich:
    def __init__(self) -> None:
        self.hf_calls: list[dict[str, str]] = []
        self.s2_calls: list[tuple[list[str], dict[str, str], str]] = []  # ids, headers, fields
        self.busy = {"hf": 0, "s2": 0}  # how many 429s to answer first
        self.retry_after = "2"
        self.refuse_author_fields = False  # answer 400 to fields asking authors.hIndex
        self.s2_papers: dict[str, Any] = json.loads((FIXTURES / "s2-batch.json").read_text())
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                if url.path != "/api/daily_papers":
                    return self._answer(404, {"error": "not found"})
                outer.hf_calls.append(query)
                if outer._busy("hf"):
                    return self._answer(429, {"error": "slow down"}, outer.retry_after)
                file = FIXTURES / f"hf-daily-{query.get('date', '')}.json"
                rows = json.loads(file.read_text()) if file.exists() else []
                limit, page = int(query.get("limit", 50)), int(query.get("p", 0))
                self._answer(200, rows[page * limit:(page + 1) * limit])

            def do_POST(self) -> None:
                url = urllib.parse.urlsplit(self.path)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                if url.path != "/graph/v1/paper/batch":
                    return self._answer(404, {"error": "not found"})
                fields = dict(urllib.parse.parse_qsl(url.query)).get("fields", "")
                outer.s2_calls.append((list(body.get("ids", [])),
                                       {k.lower(): v for k, v in self.headers.items()}, fields))
                if outer._busy("s2"):
                    return self._answer(429, {"message": "Too Many Requests"}, outer.retry_after)
                if outer.refuse_author_fields and "authors." in fields:
                    return self._answer(400, {"error": "Unrecognized or unsupported fields"})
                self._answer(200, [outer.s2_papers.get(i) for i in body.get("ids", [])])

            def _answer(self, status: int, payload: Any, retry: str | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if retry is not None:
                    self.send_header("Retry-After", retry)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = LocalServer(Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _busy(self, which: str) -> bool:
        with self._lock:
            if self.busy[which] > 0:
                self.busy[which] -= 1
                return True
            return False

    def __enter__(self) -> FakeEnrich:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
