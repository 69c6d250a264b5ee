"""Every HTTP request paperterm makes (arXiv, enrichment, the webhook, the Zotero connector,
`doctor`): one place that bounds it as a whole, not per read; `within` does it for the
third-party clients (pyzotero, huggingface_hub). LLM calls have their own (scoring.provider).

A socket timeout bounds each read, so a server answering a byte a second would hold a run
forever; here a watchdog shuts the request's socket down at the deadline, whatever the
request is doing then (connecting, sending, reading the status line, the headers or the
body), and the answer is read in pieces up to `limits.MAX_DOWNLOAD`. Failures are raised as
`HttpFailure` (an HTTP error status: `Answer` with its code), `InputTooSlow` or
`InputTooLarge` (one line each); connection errors as OSError.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import Message
from typing import Any, TypeVar

from paperterm.io import limits

T = TypeVar("T")


@dataclass
class Answer:
    """An HTTP answer: status, headers and (capped) body."""

    status: int
    reason: str = ""
    headers: Message | dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    def header(self, name: str) -> str | None:
        value = self.headers.get(name)
        return None if value is None else str(value)


class HttpFailure(Exception):
    """The server answered with an error status (4xx, 5xx); `answer` holds it (its body
    read up to 64 KiB)."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(f"HTTP {answer.status} {answer.reason}".strip())
        self.answer = answer


class _Watchdog:
    """Shuts down every socket of one request when its deadline passes."""

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._socks.append(sock)
            if self.expired:
                _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._socks:
                _shut(sock)

    def cancel(self) -> None:
        self._timer.cancel()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


def _opener(dog: _Watchdog) -> urllib.request.OpenerDirector:
    """A urllib opener (proxies and redirects as usual) whose connections `dog` watches."""

    class Conn(http.client.HTTPConnection):
        def connect(self) -> None:
            super().connect()
            dog.watch(self.sock)

    class TlsConn(http.client.HTTPSConnection):
        def connect(self) -> None:
            super().connect()
            dog.watch(self.sock)

    class Plain(urllib.request.HTTPHandler):
        def http_open(self, req: Any) -> Any:
            return self.do_open(Conn, req)

    class Tls(urllib.request.HTTPSHandler):
        def https_open(self, req: Any) -> Any:
            return self.do_open(TlsConn, req)

    return urllib.request.build_opener(Plain, Tls)


def request(url: str, *, what: str, method: str = "GET", data: bytes | None = None,
            headers: dict[str, str] | None = None, deadline: float | None = None,
            max_bytes: int = limits.MAX_DOWNLOAD) -> Answer:
    """One HTTP request that finishes within `deadline` seconds in all (default:
    `limits.http_deadline()`) with an answer of at most `max_bytes`. `what` names the
    source in the messages ("RSS feed", "webhook example.org")."""
    seconds = limits.http_deadline() if deadline is None else deadline
    started = time.monotonic()
    dog = _Watchdog(seconds)
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        try:
            with _opener(dog).open(req, timeout=seconds) as resp:
                body = _read_body(resp, what, max_bytes, started + seconds, dog)
                return Answer(resp.status, resp.reason, resp.headers, body)
        except urllib.error.HTTPError as exc:
            try:
                body = exc.read(65536)
            except (OSError, http.client.HTTPException):
                body = b""
            raise HttpFailure(Answer(exc.code, str(exc.reason or ""), exc.headers, body)) \
                from None
    except (OSError, http.client.HTTPException):
        if dog.expired or time.monotonic() - started >= seconds:
            raise limits.too_slow(what, seconds) from None
        raise
    finally:
        dog.cancel()


def _read_body(resp: Any, what: str, max_bytes: int, deadline: float,
               dog: _Watchdog) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while chunk := resp.read1(65536):  # read() would wait for all 64 KiB
        chunks.append(chunk)
        total += len(chunk)
        if total > max_bytes:
            raise limits.too_large(what, max_bytes)
        if dog.expired or time.monotonic() > deadline:
            raise OSError("deadline passed")  # reported as too slow by `request`
    if dog.expired:  # the watchdog's shutdown reads as the end of the answer: it is not
        raise OSError("deadline passed")
    return b"".join(chunks)


def within(work: Callable[[], T], what: str, seconds: float | None = None) -> T:
    """Run `work`, a request through a third-party client whose reads we do not control
    (pyzotero, huggingface_hub: their timeouts bound each read, not the whole), with the
    whole-request deadline (default `limits.http_deadline()`); raises InputTooSlow after it.

    `work` runs in a daemon thread, which cannot block the interpreter's exit, and is left
    to finish on its own after the deadline. Its exceptions are raised here."""
    limit = limits.http_deadline() if seconds is None else seconds
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # handed over to the caller's thread
            outcome["error"] = exc

    worker = threading.Thread(target=run, name=f"paperterm {what}", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        raise limits.too_slow(what, limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def one_line(exc: BaseException) -> str:
    """A connection error's reason on one line."""
    return " ".join(str(getattr(exc, "reason", exc)).split())
