"""TOML loading with the stdlib where it exists."""

from __future__ import annotations

import re
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from typing import Any

TOMLDecodeError = tomllib.TOMLDecodeError

# what tomllib says where it noticed a value is not closed: the line after it, or the end
_WHERE = re.compile(r"\((?:at line (\d+), column (\d+)|at end of document)\)\s*$")
_UNCLOSED = re.compile(r"^(?:Unclosed|Unterminated)\b")
_KEY_LINE = re.compile(r"^\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')\s*(?:\.|=)")
MAX_LOCATED_LINES = 2000  # a longer text keeps tomllib's position


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads`; arrays nested too deep for its recursion are a TOMLDecodeError
    (one clear line), never a RecursionError. A value not closed ("Unclosed array") is
    placed on the line where it begins: tomllib places it where it noticed (the next
    key's line, or "end of document", which a reader of the file cannot place)."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise TOMLDecodeError("arrays or tables nested too deeply") from None
    except TOMLDecodeError as exc:
        message = str(exc)
        where = _WHERE.search(message)
        if where is None:
            raise
        noticed = int(where.group(1)) if where.group(1) else None
        lines = text.splitlines()
        at_next_key = (noticed is not None and where.group(2) == "1"
                       and noticed <= len(lines) and _KEY_LINE.match(lines[noticed - 1]))
        if not (noticed is None or _UNCLOSED.match(message) or at_next_key):
            raise
        line = opened_on(text, noticed)
        if line is None or line == noticed:
            raise
        head = message[: where.start()].rstrip()
        tail = "where it begins" if _UNCLOSED.match(message) else (
            "a value begun there is not closed")
        raise TOMLDecodeError(f"{head} (at line {line}, {tail})") from None


def opened_on(text: str, noticed: int | None) -> int | None:
    """The line where the statement tomllib failed on (noticed on line `noticed`, None: at
    the end) begins: the line after the longest start of `text` that parses, up to that
    line. None for a text too long to look."""
    lines = text.splitlines(keepends=True)
    if len(lines) > MAX_LOCATED_LINES:
        return None
    last = len(lines) if noticed is None else min(noticed, len(lines))
    for k in range(last - 1, -1, -1):
        try:
            tomllib.loads("".join(lines[:k]))
        except (TOMLDecodeError, RecursionError):
            continue
        return k + 1
    return 1
