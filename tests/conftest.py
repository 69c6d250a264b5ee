"""Shared fixtures: an isolated home for every test, a local fake arXiv, a CLI runner."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import pytest

TESTS = Path(__file__).parent
FEEDS = TESTS / "fixtures" / "feeds"


def closed_port() -> int:
    """A local port nothing listens on (connections are refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """No test touches a real home, a real config or arXiv itself.

    PAPERTERM_HOME and PAPERTERM_CONFIG point into tmp_path; the arXiv URLs point to a closed
    local port (a test that wants a server uses `fake_arxiv`); the arXiv pacer is made fast.
    """
    home = tmp_path / "home"
    config = tmp_path / "config" / "config.toml"
    monkeypatch.setenv("PAPERTERM_HOME", str(home))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    dead = closed_port()
    monkeypatch.setenv("PAPERTERM_RSS_URL", f"http://127.0.0.1:{dead}/rss/{{cats}}")
    monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", f"http://127.0.0.1:{dead}/api/query?{{}}")
    for var in ("PAPERTERM_TODAY", "PAPERTERM_DEBUG"):
        monkeypatch.delenv(var, raising=False)
    from paperterm import net

    monkeypatch.setattr(net._pacer, "interval", 0.01)
    return SimpleNamespace(home=home, config=config, db=home / "paperterm.sqlite3")


# -- a local fake arXiv ---------------------------------------------------------------------


@dataclass
class Reply:
    """One canned answer. `raw` bypasses HTTP entirely (garbage, truncated answers)."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering
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

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda *a: None  # type: ignore[method-assign]
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

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


@pytest.fixture
def fake_arxiv(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeArxiv]:
    """A fake rss.arxiv.org and export.arxiv.org on 127.0.0.1, wired in through the env."""
    fake = FakeArxiv()
    monkeypatch.setenv("PAPERTERM_RSS_URL", fake.rss_url)
    monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", fake.api_url)
    try:
        yield fake
    finally:
        fake.close()


# -- the command line in a subprocess -------------------------------------------------------


@pytest.fixture
def run_cli(isolated_home: SimpleNamespace):  # type: ignore[no-untyped-def]
    """Run `python -m paperterm ARGS` with the test's (isolated) environment.

    `python_args` go before `-m`; `script` runs `python -c SCRIPT ARGS` instead.
    """

    def run(*args: str, env: dict[str, str] | None = None, timeout: float = 30,
            python_args: tuple[str, ...] = (), script: str | None = None,
            ) -> subprocess.CompletedProcess[str]:
        full_env = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
        full_env.pop("PAPERTERM_DEBUG", None)
        target = ["-c", script] if script is not None else ["-m", "paperterm"]
        return subprocess.run(
            [sys.executable, *python_args, *target, *args],
            capture_output=True, text=True, env=full_env, timeout=timeout,
            cwd=isolated_home.home.parent,
        )

    return run
