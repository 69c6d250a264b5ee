"""A real SMTP server (aiosmtpd) and a webhook receiver on 127.0.0.1, for delivery tests."""

from __future__ import annotations

import json
import socket
import warnings
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from support.localserver import LocalServer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Handler:
    def __init__(self, box: SMTPServer) -> None:
        self.box = box

    async def handle_DATA(self, server, session, envelope) -> str:
        self.box.received.append((list(envelope.rcpt_tos),
                                  message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"


class SMTPServer:
    """aiosmtpd on 127.0.0.1; `user`/`password` set: AUTH offered and checked (plain TCP)."""

    def __init__(self, user: str | None = None, password: str | None = None) -> None:
        self.received: list[tuple[list[str], EmailMessage]] = []
        self.port = free_port()
        kwargs: dict[str, Any] = {}
        if user:
            def check(server, session, envelope, mechanism, data) -> AuthResult:
                ok = isinstance(data, LoginPassword) and (
                    data.login.decode(), data.password.decode()) == (user, password)
                return AuthResult(success=ok, handled=False)

            kwargs = {"authenticator": check,
                      "auth_require_tls": False}
        with warnings.catch_warnings():  # "AUTH without TLS": on purpose, on 127.0.0.1
            warnings.simplefilter("ignore")
            self.controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port,
                                         **kwargs)
            self.controller.start()

    def close(self) -> None:
        self.controller.stop()


class WebhookServer:
    """Records every POST (path, JSON body); answers `status` (200 unless changed)."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, Any]] = []
        self.status = 200
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.posts.append((self.path, json.loads(body)))
                self.send_response(outer.status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = LocalServer(Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/secret-token"
        self.server.serve_in_thread()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
