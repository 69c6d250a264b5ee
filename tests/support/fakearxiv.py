"""A local fake arXiv (rss.arxiv.org and export.arxiv.org) on 127.0.0.1 for tests."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from support.localserver import LocalServer


def closed_port() -> int:
    """A local port nothing listens on (connections are refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Reply:
    """One canned answer. `raw` bypasses HTTP entirely (garbage, truncated answers)."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering
    # answer only once this is set (the test says when: after it saw what must come first,
    # however long a loaded machine took to show it); the server's stop ends the wait too
    hold: threading.Event | None = None
    trickle: float = 0.0  # seconds between 16-byte pieces of the body
    raw: bytes | None = None


@dataclass
class Seen:
    path: str
    headers: dict[str, str]  # names in lower case
    at: float  # time.monotonic() on arrival


class FakeArxiv:
    """Serves queued Replies by path prefix; the last reply of a prefix repeats."""

    def __init__(self) -> None:
        self.routes: dict[str, list[Reply]] = {}
        self.requests: list[Seen] = []
        self.stop = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                headers = {k.lower(): v for k, v in self.headers.items()}
                fake.requests.append(Seen(self.path, headers, time.monotonic()))
                reply = fake._next(self.path)
                if reply.delay and fake.stop.wait(reply.delay):
                    return
                while reply.hold is not None and not reply.hold.wait(0.05):
                    if fake.stop.is_set():
                        return
                if reply.raw is not None:
                    self.wfile.write(reply.raw)
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.send_response(reply.status)
                for key, value in {"Content-Type": "application/xml", **reply.headers}.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                if not reply.trickle:
                    self.wfile.write(reply.body)
                    return
                for i in range(0, len(reply.body), 16):
                    if fake.stop.wait(reply.trickle):
                        return
                    self.wfile.write(reply.body[i : i + 16])
                    self.wfile.flush()

            def log_message(self, *args: object) -> None:
                pass

        self.server = LocalServer(Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = self.server.serve_in_thread()

    def _next(self, path: str) -> Reply:
        prefix = max((p for p in self.routes if path.startswith(p)), key=len, default=None)
        if prefix is None:
            return Reply(b"not found", status=404, headers={"Content-Type": "text/plain"})
        queue = self.routes[prefix]
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def route(self, prefix: str, *replies: Reply) -> None:
        self.routes[prefix] = list(replies)

    @property
    def rss_url(self) -> str:
        return f"{self.base}/rss/{{cats}}"

    @property
    def api_url(self) -> str:
        return f"{self.base}/api/query?{{}}"

    def close(self) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()
