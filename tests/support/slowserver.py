"""Hostile HTTP servers on 127.0.0.1 for the network limits: one that answers a byte at a
time (from the status line on), one that streams an endless body, one that accepts the
connection and never answers. Each serves every connection until closed."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator


class HostileServer:
    """`mode`: "trickle" (one byte every `interval` s of a valid HTTP answer, or of `raw`
    from the moment a client connects: an SMTP greeting), "stream" (an endless body as fast
    as the client reads) or "hang" (read the request, say nothing)."""

    def __init__(self, mode: str, interval: float = 0.2, body: bytes = b"ok" * 5000,
                 raw: bytes | None = None) -> None:
        self.mode, self.interval, self.body, self.raw = mode, interval, body, raw
        self.stop = threading.Event()
        self.sent = 0  # bytes of body sent (stream)
        self.requests: list[bytes] = []
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(2)
            try:
                if self.raw is not None:  # a protocol whose server speaks first
                    for i in range(len(self.raw)):
                        if self.stop.wait(self.interval):
                            return
                        conn.sendall(self.raw[i:i + 1])
                    return
                self.requests.append(conn.recv(65536))
                if self.mode == "hang":
                    self.stop.wait()
                elif self.mode == "trickle":
                    answer = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                              b"Content-Length: %d\r\n\r\n" % len(self.body)) + self.body
                    for i in range(len(answer)):
                        if self.stop.wait(self.interval):
                            return
                        conn.sendall(answer[i:i + 1])
                else:
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\n"
                                 b"Content-Length: 2000000000\r\n\r\n<rss>")
                    for piece in self._zeros():
                        conn.sendall(piece)
                        self.sent += len(piece)
            except OSError:
                return

    def _zeros(self) -> Iterator[bytes]:
        piece = b" " * 65536
        while not self.stop.is_set() and self.sent < 2_000_000_000:
            yield piece

    def close(self) -> None:
        self.stop.set()
        self.sock.close()
        self.thread.join(2)

    def __enter__(self) -> HostileServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
