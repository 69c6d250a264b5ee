"""The HTTP server every fake service in the tests runs on: 127.0.0.1, a thread per request,
and quiet when a client hangs up.

`http.server` prints a traceback on stderr when a client drops a kept-alive connection
(paperterm stopping at a 401 closes its pool). The fakes run inside the test process, so that
traceback landed in the stderr a test was reading as paperterm's own output.
"""

from __future__ import annotations

import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class LocalServer(ThreadingHTTPServer):
    """A ThreadingHTTPServer on 127.0.0.1 whose request threads never outlive the test."""

    daemon_threads = True

    def __init__(self, handler: type[BaseHTTPRequestHandler], port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):  # reset, broken pipe, aborted
            return
        super().handle_error(request, client_address)

    def serve_in_thread(self, poll_interval: float = 0.05) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever,
                                  kwargs={"poll_interval": poll_interval}, daemon=True)
        thread.start()
        return thread
