"""Secrets out of every message, the one owner: API keys, and the credentials of every URL
paperterm prints (`api_base`, the webhook, the Zotero addresses, config values).

Keys are read from the environment (variables named like KEY, TOKEN, SECRET, PASSWORD) and
redacted whatever their length; short ones only where they stand alone, so that a 3-letter
key does not blank out every word containing those letters. A URL is shown with its
`user:pass@` part, its query values and its token-looking path segments (a Slack hook's
`T.../B.../xxx`, a Discord webhook's token) replaced by `***`.
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
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s'\"<>]+")
_BARE_USERINFO = re.compile(r"(?<![A-Za-z0-9*])[^\s/@:'\"*]+:[^\s/@'\"]+@(?=[A-Za-z0-9\[])")
_SEGMENT = re.compile(r"[A-Za-z0-9_\-]+")


def _token_like(segment: str) -> bool:
    """A path segment that looks like a secret: long, or mixing letters and digits (Slack's
    T0123ABCD, B0123ABCD and its 24-letter token; Discord's webhook token)."""
    if not _SEGMENT.fullmatch(segment):
        return False
    if len(segment) >= 20:
        return True
    return (len(segment) >= 8 and any(c.isdigit() for c in segment)
            and any(c.isalpha() for c in segment))


def _path_secrets(path: str) -> list[str]:
    return [seg for seg in path.split("/") if _token_like(seg)]


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
    path = "/".join(MASK if _token_like(seg) else seg for seg in parts.path.split("/"))
    return urlunsplit((parts.scheme, netloc, path, query, ""))


def redact_urls(text: str) -> str:
    """`text` with every URL in it shown as `redact_url` shows it, and a `user:pass@` left
    of a host even without a scheme (a mistyped `https//user:pass@host`)."""
    return _BARE_USERINFO.sub(MASK + "@", _URL.sub(lambda m: redact_url(m.group(0)), text))


def url_host(url: str) -> str:
    """Where a URL goes, host and port only (no credentials, path or query)."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return redact_url(url)
    return f"{host}:{port}" if port else host


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
    """The secret parts of a URL: user, password, query values and token-looking path
    segments (raw and decoded)."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        found = [parts.username, parts.password,
                 *(v for _, v in parse_qsl(parts.query, keep_blank_values=True)),
                 *_path_secrets(parts.path)]
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
    text = redact_urls(text)
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
