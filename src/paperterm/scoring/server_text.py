"""The server's own words and HTTP status in a provider error, out of litellm's wrapping.

litellm words a failed request as "litellm.InternalServerError: AnthropicException - " and
the raw body, which may be the provider's JSON error, a Python dict, or a proxy's HTML page,
and sometimes reports a 503 as 500 or a gateway's 502 as a connection error. `server_words`
keeps the message the server wrote; `answered_status` is the status it really sent.
"""

from __future__ import annotations

import ast
import html
import json
import re
from typing import Any

MAX_PARSED = 20_000  # characters: a longer body is not parsed, only cut

_WRAPPER = re.compile(
    r"^(?:litellm\.\w+:\s*)?(?:\w+Error:\s*)?"
    r"(?:\w+(?:Exception|Error)(?:\s+\w+Error)?\s*-\s*)?"
    r"(?:Error code:\s*\d+\s*-\s*)?")
_HANDLE = re.compile(r"\.?[ \t]*Handle with `litellm\.\w+`\.?")
_HTML = re.compile(r"^\s*<(?:!doctype|html|head|body|\?xml)", re.IGNORECASE)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_MESSAGE_KEYS = ("message", "error", "detail", "error_message", "msg", "title")


def server_words(raw: str, depth: int = 0) -> str:
    """The message in an error's text: the `message` of a JSON (or Python dict) error
    body, the title or text of an HTML page, else the first line, without litellm's
    wrapping; a message that is itself wrapped (a litellm proxy relaying a provider's
    error) is unwrapped too. May be "" (an empty body)."""
    text = _HANDLE.sub("", _WRAPPER.sub("", raw.strip())).strip()
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    # the body, alone or followed by notes (a proxy adds "Received Model Group=...")
    for candidate in dict.fromkeys((text, first)):
        if candidate[:1] in "{[" and len(candidate) <= MAX_PARSED:
            found = _message(_structure(candidate))
            if found:
                return (server_words(found, depth + 1) or found) if depth < 3 else found
    if _HTML.match(text):
        return _html_text(text)
    return first


def _structure(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(text)
    except Exception:  # SyntaxError, ValueError, RecursionError, MemoryError...
        return None


def _message(value: Any, depth: int = 0) -> str:
    """The first non-empty message string in a decoded error body."""
    if depth > 4:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return next((m for m in (_message(v, depth + 1) for v in value[:3]) if m), "")
    if isinstance(value, dict):
        for key in _MESSAGE_KEYS:
            found = _message(value.get(key), depth + 1)
            if found:
                return found
    return ""


def _html_text(text: str) -> str:
    title = _TITLE.search(text)
    words = title.group(1) if title else _TAG.sub(" ", text)
    return " ".join(html.unescape(words).split())


def answered_status(exc: BaseException) -> int | None:
    """The HTTP status the server really answered with (the innermost response among the
    exception's causes), or None when none came back: a cause is a transport failure
    (litellm gives a refused connection a made-up 500), or no cause carries a response."""
    status = None
    current: BaseException | None = exc
    for _ in range(10):
        if current is None:
            break
        if _transport_failure(current):
            return None
        code = getattr(getattr(current, "response", None), "status_code", None)
        if isinstance(code, int) and not isinstance(code, bool) and 100 <= code <= 599:
            status = code
        current = current.__cause__ or current.__context__
    return status


def _transport_failure(exc: BaseException) -> bool:
    """httpx's TransportError (connect, read, timeout...) or an OS-level socket error."""
    return isinstance(exc, OSError) or any(
        c.__name__ == "TransportError" for c in type(exc).__mro__)
