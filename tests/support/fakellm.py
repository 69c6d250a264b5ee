"""A local fake OpenAI-compatible chat-completions server for tests and benchmarks.

Runs `http.server.ThreadingHTTPServer` on 127.0.0.1 (port 0) in a thread and answers
POST /v1/chat/completions and /chat/completions. By default it reads the paper ids out of
the user message (`<paper id="...">`) and replies with valid JSON scores derived
deterministically from each id (see `expected_scores`), plus a `usage` block.

Every request is recorded (`requests`: parsed JSON bodies). Behaviour is scriptable:
`push(Behaviour(...))` queues behaviours for the next requests (first in, first out);
`rule` is an optional callable `(request_number, ids) -> Behaviour | None` consulted when
the queue is empty; otherwise `default` applies.

`wire` (see `support.wires`) makes it speak another provider's API instead: Anthropic
Messages, Gemini generateContent, Ollama /api/chat and /api/generate, Azure deployments.
`requests` then holds each body in the OpenAI chat shape, `wire_requests` the body as sent,
`paths` the request paths (with their query). Point litellm at `root` for those.

    with FakeLLM() as llm:
        llm.push(Behaviour(status=429, retry_after="1"))
        ... litellm.acompletion(model="openai/gpt-4o-mini", api_base=llm.url, ...)
        assert llm.count == 2
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from support.localserver import LocalServer
from support.wires import OPENAI, Wire

_PAPER_ID = re.compile(r'<paper id="([^"]+)">')

Entries = list[dict[str, Any]]


def expected_scores(paper_id: str) -> tuple[int, int]:
    """The (relevance, novelty) the fake server gives a paper by default."""
    digest = hashlib.sha256(paper_id.encode()).digest()
    return digest[0] % 10 + 1, digest[1] % 10 + 1


def default_entries(ids: list[str]) -> Entries:
    out = []
    for pid in ids:
        rel, nov = expected_scores(pid)
        out.append({"id": pid, "relevance": rel, "novelty": nov, "reason": f"fake reason {pid}"})
    return out


def expected_summary(paper_id: str) -> str:
    """The summary the fake server writes by default when asked for summaries."""
    return (f"Paper {paper_id} studies a problem. It proposes a method. "
            f"It reports a result.")


def is_summary_request(body: dict[str, Any]) -> bool:
    """A request of paperterm's summary task (its system message asks for summaries)."""
    return any(m.get("role") == "system" and "Summarise" in str(m.get("content", ""))
               for m in body.get("messages", []))


def format_entries(entries: Entries, fmt: str) -> str:
    """Render reply entries as the assistant's message text in a given style."""
    obj = json.dumps({"papers": entries})
    if fmt == "json":
        return obj
    if fmt == "fenced":
        pretty = json.dumps({"papers": entries}, indent=2)
        return f"Here are the scores you asked for:\n```json\n{pretty}\n```\nHope this helps!"
    if fmt == "prose":
        return f"Sure. After reading every abstract carefully, my assessment is {obj} -- done."
    if fmt == "jsonl":
        return "\n".join(json.dumps(e) for e in entries)
    if fmt == "partial":  # cut off mid-way, as if max_tokens was hit
        return obj[: int(len(obj) * 0.6)]
    if fmt == "malformed":
        return "{papers: [this is not json at all,,]"
    raise ValueError(fmt)


@dataclass
class Behaviour:
    """How the server answers one request."""

    status: int = 200
    delay: float = 0.0  # seconds before answering
    retry_after: str | None = None  # Retry-After header value
    fmt: str = "json"  # json | fenced | prose | jsonl | partial | malformed
    drop: tuple[str, ...] = ()  # paper ids left out of the reply
    edit: Callable[[Entries], Entries] | None = None  # change the entries before formatting
    content: str | None = None  # the assistant text verbatim (overrides fmt/entries)
    raw_body: str | None = None  # the HTTP body verbatim (a broken response)
    error_message: str = ""
    trickle: float = 0.0  # > 0: send the body one byte every `trickle` seconds
    reasoning: str | None = None  # message.reasoning_content (reasoning models)
    usage: Any = None  # the usage block verbatim (wrong types...), instead of the counted one
    cost: Any = None  # usage.cost, as OpenRouter reports what it billed
    completion_tokens: int | None = None  # report this many (a reasoning model's bill)
    prompt_factor: float = 1.0  # bill this many prompt tokens per token counted (1.3: 30% more)


def _count_tokens_fn() -> Callable[[str], int]:
    """tiktoken (offline, from litellm's bundled cache) when available, else ~4 chars/token."""
    try:
        import importlib.util
        import os
        from pathlib import Path

        spec = importlib.util.find_spec("litellm")
        if spec and spec.origin:
            bundled = Path(spec.origin).parent / "litellm_core_utils" / "tokenizers"
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(bundled))
        import tiktoken

        enc = tiktoken.get_encoding("cl100k_base")
        return lambda text: len(enc.encode(text, disallowed_special=()))
    except Exception:
        return lambda text: max(1, len(text) // 4)


class FakeLLM:
    """The fake server. Use as a context manager, or call start() / stop()."""

    def __init__(
        self,
        default: Behaviour | None = None,
        *,
        count_tokens: bool = True,
        quiet: bool = True,
        wire: Wire = OPENAI,
        port: int = 0,
    ) -> None:
        self.default = default or Behaviour()
        self.wire = wire
        self._port = port  # 0: any free port; a fixed one raises OSError when taken
        self.wire_requests: list[dict[str, Any]] = []  # each body as the client sent it
        self.paths: list[str] = []  # each request's path and query
        self.rule: Callable[[int, list[str]], Behaviour | None] | None = None
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []  # each request's HTTP headers
        self.started: list[float] = []  # monotonic time each request arrived
        self.in_flight = 0
        self.max_in_flight = 0
        self.quiet = quiet
        self._script: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._count = _count_tokens_fn() if count_tokens else (lambda t: max(1, len(t) // 4))
        self._server: LocalServer | None = None
        self._thread: threading.Thread | None = None

    # -- control ------------------------------------------------------------------------

    def push(self, *behaviours: Behaviour) -> None:
        with self._lock:
            self._script.extend(behaviours)

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def root(self) -> str:
        """The server's address without a path (an api_base for the non-OpenAI wires)."""
        return f"http://127.0.0.1:{self.port}"

    def ids_of(self, request: dict[str, Any]) -> list[str]:
        """Paper ids in a recorded request's user message."""
        return _PAPER_ID.findall(_user_text(request))

    def requested_ids(self) -> list[str]:
        with self._lock:
            reqs = list(self.requests)
        return [pid for r in reqs for pid in self.ids_of(r)]

    def start(self) -> FakeLLM:
        server = LocalServer(_make_handler(self), self._port)
        self._server = server
        self._thread = server.serve_in_thread()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- serving ------------------------------------------------------------------------

    def _next(self, number: int, ids: list[str]) -> Behaviour:
        with self._lock:
            if self._script:
                return self._script.popleft()
        if self.rule is not None:
            chosen = self.rule(number, ids)
            if chosen is not None:
                return chosen
        return self.default

    def _respond(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes, Behaviour]:
        with self._lock:
            self.requests.append(body)
            self.started.append(time.monotonic())
            number = len(self.requests)
        ids = self.ids_of(body)
        b = self._next(number, ids)
        headers = {"Content-Type": "application/json"}
        if b.retry_after is not None:
            headers["Retry-After"] = b.retry_after
        if b.raw_body is not None:
            return b.status, headers, b.raw_body.encode(), b
        if b.status != 200:
            message = b.error_message or {
                401: "Incorrect API key provided.",
                403: "Forbidden.",
                404: "The model does not exist.",
                429: "Rate limit reached for requests.",
            }.get(b.status, "The server had an error while processing your request.")
            err = {"error": {"message": message, "type": "error", "code": str(b.status)}}
            return b.status, headers, json.dumps(err).encode(), b
        if b.content is not None:
            content = b.content
        else:
            entries = [e for e in default_entries(ids) if e["id"] not in b.drop]
            if is_summary_request(body):
                entries = [{"id": e["id"], "summary": expected_summary(e["id"])}
                           for e in entries]
            if b.edit is not None:
                entries = b.edit(entries)
            content = format_entries(entries, b.fmt)
        prompt_text = "".join(str(m.get("content", "")) for m in body.get("messages", []))
        prompt_tokens = self._count(prompt_text) + 4 * len(body.get("messages", []))
        prompt_tokens = round(prompt_tokens * b.prompt_factor)
        completion_tokens = (b.completion_tokens if b.completion_tokens is not None
                             else self._count(content) + self._count(b.reasoning or ""))
        limit = body.get("max_tokens")
        if isinstance(limit, int) and limit > 0:  # a real server stops there (and bills it)
            completion_tokens = min(completion_tokens, limit)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if b.reasoning is not None:
            message["reasoning_content"] = b.reasoning
        usage: Any = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens}
        if b.cost is not None:
            usage["cost"] = b.cost
        if b.usage is not None:
            usage = b.usage
        reply = {
            "id": f"chatcmpl-fake{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "unknown"),
            "choices": [
                {"index": 0, "message": message, "finish_reason": "stop"}
            ],
            "usage": usage,
        }
        return 200, headers, json.dumps(reply).encode(), b


def _user_text(body: dict[str, Any]) -> str:
    parts = []
    for m in body.get("messages", []):
        if m.get("role") == "user":
            content = m.get("content", "")
            if isinstance(content, list):
                content = "".join(c.get("text", "") for c in content if isinstance(c, dict))
            parts.append(str(content))
    return "\n".join(parts)


def _rewire(wire: Wire, status: int, payload: bytes, chat: dict[str, Any]) -> bytes:
    """An OpenAI-shaped answer (or error) in `wire`'s own format."""
    if wire is OPENAI:
        return payload
    answer = json.loads(payload)
    out = wire.reply(answer, chat) if status == 200 else wire.error(status, answer)
    return json.dumps(out).encode()


def _make_handler(fake: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            if not fake.quiet:
                super().log_message(format, *args)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if not fake.wire.matches(self.path):
                self._send(404, {"Content-Type": "application/json"}, b'{"error":"not found"}')
                return
            try:
                sent = json.loads(raw)
                body = fake.wire.to_chat(sent, self.path)
            except (ValueError, AttributeError, TypeError):
                self._send(400, {"Content-Type": "application/json"}, b'{"error":"bad json"}')
                return
            with fake._lock:
                fake.headers.append({k.lower(): v for k, v in self.headers.items()})
                fake.wire_requests.append(sent)
                fake.paths.append(self.path)
                fake.in_flight += 1
                fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
            try:
                status, headers, payload, b = fake._respond(body)
                if b.raw_body is None:
                    payload = _rewire(fake.wire, status, payload, body)
                if b.delay:
                    fake._stopping.wait(b.delay)
                self._send(status, headers, payload, b.trickle)
            finally:
                with fake._lock:
                    fake.in_flight -= 1

        def _send(
            self, status: int, headers: dict[str, str], payload: bytes, trickle: float = 0.0
        ) -> None:
            try:
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if trickle <= 0:
                    self.wfile.write(payload)
                    return
                self.wfile.flush()
                for i in range(len(payload)):  # alive, but never done in time
                    if fake._stopping.wait(trickle):
                        return
                    self.wfile.write(payload[i : i + 1])
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout): nothing to tell it

    return Handler


try:  # a ready-made fixture for tests that import it explicitly
    import pytest

    @pytest.fixture
    def fake_llm(monkeypatch: pytest.MonkeyPatch):  # type: ignore[misc]
        """A running FakeLLM, with OPENAI_API_KEY=sk-test set for the test."""
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        with FakeLLM() as server:
            yield server

except ImportError:  # benchmarks run without pytest
    pass
