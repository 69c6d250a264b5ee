"""Secrets out of every message: API keys, and credentials or query values in `api_base`.

Keys are read from the environment (variables named like KEY, TOKEN, SECRET, PASSWORD) and
redacted whatever their length; short ones only where they stand alone, so that a 3-letter
key does not blank out every word containing those letters. An `api_base` is shown with its
`user:pass@` part and its query values replaced by `***`.
"""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

MASK = "***"
_SECRET_VAR = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
_SECRET = re.compile(r"\b(?:sk|pk|rk|key)-[A-Za-z0-9_\-]{4,}"
                     r"|(?i:api[_-]?key|token|access[_-]?token|password|secret)\s*[=:]\s*[^\s&,;'\"]+")
_USERINFO = re.compile(r"(?<=://)[^/\s@]+@")
_LONG = 8  # values this long are replaced anywhere; shorter ones only as a whole token


def redact_url(url: str) -> str:
    """`url` without its credentials and query values (names kept), for messages."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return _USERINFO.sub(MASK + "@", url)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = MASK + "@" + netloc.rsplit("@", 1)[1]
    query = "&".join(f"{name}={MASK}" for name, _ in parse_qsl(parts.query,
                                                                keep_blank_values=True))
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def split_credentials(url: str) -> tuple[str, str | None]:
    """`url` without its `user:pass@` part, and that part as an HTTP Basic Authorization
    header value (None when the URL has none)."""
    import base64

    try:
        parts = urlsplit(url)
    except ValueError:
        return url, None
    if "@" not in parts.netloc:
        return url, None
    user, password = unquote(parts.username or ""), unquote(parts.password or "")
    host = parts.netloc.rsplit("@", 1)[1]
    token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment)), (
        "Basic " + token)


def url_secrets(url: str) -> list[str]:
    """The secret parts of a URL: user, password and query values (raw and decoded)."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        found = [parts.username, parts.password,
                 *(v for _, v in parse_qsl(parts.query, keep_blank_values=True))]
    except ValueError:
        return []
    out: list[str] = []
    for value in found:
        if value:
            out.extend({value, unquote(value)})
    return out


def env_secrets() -> list[str]:
    return [v for k, v in os.environ.items() if v.strip() and _SECRET_VAR.search(k)]


def redact(text: str, extra: list[str] | tuple[str, ...] = ()) -> str:
    """`text` with key-looking strings, URL credentials, environment secrets and `extra`
    secret values replaced by ***."""
    text = _USERINFO.sub(MASK + "@", text)
    text = _SECRET.sub(MASK, text)
    for value in sorted({*env_secrets(), *extra}, key=len, reverse=True):
        value = value.strip()
        if not value or value == MASK:
            continue
        if len(value) >= _LONG:
            text = text.replace(value, MASK)
        else:
            pattern = r"(?<![A-Za-z0-9_\-])" + re.escape(value) + r"(?![A-Za-z0-9_\-])"
            text = re.sub(pattern, MASK, text)
    return text
