"""The fakes' HTTP server: a client hanging up is not an error printed into the stderr a test
reads as paperterm's (a CI run failed on `Traceback` from the fake LLM after a 401 stop)."""

from __future__ import annotations

import socket
import struct
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler

import pytest
from support.localserver import LocalServer
from support.waiting import wait_for


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/boom":
            raise ValueError("a bug in a fake")
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


_BEFORE: set[threading.Thread] = set()  # threads an earlier test left (not this server's)


def _request_threads() -> list[threading.Thread]:
    """This test's server's request threads (a lingering thread of another test's server in
    the same worker never counts: waiting for it to end made this test flaky under load)."""
    return [t for t in threading.enumerate() if "process_request" in t.name
            and t not in _BEFORE]


def reset_connection(port: int) -> None:
    """Connect, wait for the server to read, then close with RST (as a dropped keep-alive)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        wait_for(_request_threads, what="a request thread reading")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


@pytest.fixture
def server():  # type: ignore[no-untyped-def]
    _BEFORE.clear()
    _BEFORE.update(threading.enumerate())
    srv = LocalServer(Handler)
    srv.serve_in_thread()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_a_client_resetting_its_connection_prints_nothing(server, capsys):
    port = server.server_address[1]
    for _ in range(3):
        reset_connection(port)
    wait_for(lambda: not _request_threads(), what="the request threads seeing the reset")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as reply:  # still serving
        assert reply.status == 204
    assert capsys.readouterr().err == ""


def test_a_fake_that_fails_still_says_so(server, capsys):
    port = server.server_address[1]
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/boom")
    err = ""

    def printed() -> bool:
        nonlocal err
        err += capsys.readouterr().err
        return "ValueError: a bug in a fake" in err and not _request_threads()

    wait_for(printed, what="the fake's traceback")
    assert "ValueError: a bug in a fake" in err
