"""Sort keys for text columns: what a title sorts by once TeX and leading punctuation are
ignored (`"$\\alpha$-Nets"` sorts with N, `"\\'Etude"` and `"Étude"` with E)."""

from __future__ import annotations

import re
import unicodedata

_TEX_COMMAND = re.compile(r"\\(?:[A-Za-z]+|[^A-Za-z])")
_TEX_MARKUP = re.compile(r"[${}]")
_LEADING = re.compile(r"^[\W_]+")


def title_key(title: str) -> str:
    """`title` case-folded, without TeX commands, math delimiters, braces, accents or
    leading punctuation: the text a title sort compares."""
    text = _TEX_MARKUP.sub("", _TEX_COMMAND.sub("", title))
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _LEADING.sub("", text).casefold().strip()
