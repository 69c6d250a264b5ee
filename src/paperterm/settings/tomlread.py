"""TOML loading with the stdlib where it exists."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from typing import Any

TOMLDecodeError = tomllib.TOMLDecodeError


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads`; arrays nested too deep for its recursion are a TOMLDecodeError
    (one clear line), never a RecursionError."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise TOMLDecodeError("arrays or tables nested too deeply") from None
