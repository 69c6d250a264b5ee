"""Text hygiene: what untrusted text (feeds, model replies, provider errors) may contain.

One place decides which characters never reach the store, the screen or a written file:

- terminal escape sequences (ESC/CSI/OSC/DCS, 7-bit and the 8-bit C1 introducers),
- C0 and C1 control characters (U+009B CSI and U+009D OSC included), except newline,
- bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) and the
  direction marks U+200E/U+200F/U+061C, which can make text display reversed,
- zero-width characters (U+200B-U+200D, U+2060, U+FEFF) that hide text or split words.

Applied at ingest (when papers enter the store) and to any model or provider text before it
is displayed or written. Tabs become spaces and CRLF becomes a newline.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import fields, replace
from typing import Any

from paperterm.models import Paper

# Whole escape sequences, so their parameters do not stay behind as text: CSI (7-bit and the
# 8-bit U+009B), other ESC sequences, and OSC/DCS/APC/PM/SOS strings that end in BEL or ST.
# An unterminated string loses only its introducer (below): a terminal would swallow the rest
# of the text, but here it is plain text once the introducer is gone. The 8-bit string
# introducers (U+0090, U+0098, U+009D-U+009F) are dropped on their own: they also occur in
# mis-decoded text (curly quotes read as Latin-1 give U+009C and U+009D), where the text
# between them is real.
_ESCAPES = re.compile(
    r"(?:\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c))"  # OSC ... BEL | ST
    r"|(?:\x1b[P_^X][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c))"  # DCS, APC, PM, SOS ... ST
    r"|(?:(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~])"  # CSI
    r"|(?:\x1b[ -/]*[0-~])"  # other ESC sequences
)
# C0 except \n, DEL, C1; bidi controls; zero-width characters.
_UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f"
    "\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u061c\ufeff]"
)


def clean_text(value: object) -> str:
    """`value` as text with escapes, controls, bidi and zero-width characters removed, in
    Unicode normal form C.

    Newlines are kept (CRLF and CR become LF); tabs become spaces.
    """
    text = "" if value is None else str(value)
    if not text:
        return text
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = _ESCAPES.sub("", text)
    text = _UNSAFE.sub("", text)
    # one Unicode form (NFC) for what is the same text: "é" precomposed or as "e" and a
    # combining accent compare, index and dedupe alike (issue 31, item 18)
    return text if text.isascii() else unicodedata.normalize("NFC", text)


_UNSAFE_OUT = re.compile(  # as _UNSAFE, but tabs and carriage returns stay (TSV, CRLF)
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
    "\u202a-\u202e\u2066-\u2069]"
)


def terminal_safe(text: str) -> str:
    """What a command writes, without escape sequences, control or bidi characters (every
    line a command prints, whatever it quotes from a file, feed, server or database)."""
    if text.isascii() and text.isprintable():
        return text
    return _UNSAFE_OUT.sub("", _ESCAPES.sub("", text))


class SafeStream:
    """A text stream whose writes go through `terminal_safe`: `cli.main` puts stdout and
    stderr behind one for every headless command, so no string from outside reaches the
    terminal raw, whichever line prints it."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.failed: OSError | None = None  # a write or flush that failed (a full disk)

    def write(self, text: str) -> int:
        try:
            self._stream.write(terminal_safe(text))
        except OSError as exc:
            self.failed = exc
            raise
        return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            self.failed = exc
            raise

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding, buffer...
        return getattr(self._stream, name)


def clean_line(value: object) -> str:
    """`clean_text`, and whitespace runs (newlines too) collapsed to single spaces."""
    return " ".join(clean_text(value).split())


def cut(value: object, width: int) -> str:
    """`clean_line(value)` in at most `width` characters, ending in "…" when it was cut."""
    text = clean_line(value)
    if len(text) <= width:
        return text
    return text[: max(width - 1, 0)].rstrip() + "…"


def clean_paper(paper: Paper) -> Paper:
    """`paper` with every text field passed through `clean_line`.

    Tuples of text (authors, categories) lose the items that clean to nothing; an optional
    field (DOI, journal, comment, ...) that cleans to nothing becomes None.
    """
    changes: dict[str, Any] = {}
    for f in fields(paper):
        value = getattr(paper, f.name)
        if isinstance(value, str):
            cleaned: object = clean_line(value)
            if not cleaned and f.default is None:
                cleaned = None
        elif isinstance(value, tuple):
            cleaned = tuple(c for c in map(clean_line, value) if c)
        else:
            continue
        if cleaned != value:
            changes[f.name] = cleaned
    return replace(paper, **changes) if changes else paper
