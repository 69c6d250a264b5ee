"""A small tolerant .bib scanner (with line numbers) and the lock for writing one (on the
folder holding it).

Only what merging needs: the span, type, key and fields of each block. Text between
blocks is free text (BibTeX treats it as a comment); nothing is ever re-serialised.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from paperterm.outputs.bibtex.errors import BibError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locking
    fcntl = None  # type: ignore[assignment]

_AT = re.compile(r"@[ \t]*([A-Za-z][\w:.+-]*)[ \t\r\n]*([{(])")
_NAME = re.compile(r"[^\s\"#%'(),={}]+")
_ENTRY_START = re.compile(r"\n[ \t]*@[ \t]*[A-Za-z]\w*[ \t]*[{(]")


@dataclass
class Block:
    kind: str  # lowercase: "misc", "article", "string", "comment", "preamble", ...
    start: int  # offset of "@"
    end: int  # offset after the closing delimiter
    line: int
    key: str = ""
    fields: dict[str, str] = field(default_factory=dict)  # lowercase name -> raw value


class _Parser:
    def __init__(self, text: str, name: str) -> None:
        self.text = text
        self.name = name
        self.lines = [m.start() for m in re.finditer("\n", text)]

    def line(self, pos: int) -> int:
        return bisect.bisect_left(self.lines, pos) + 1

    def fail(self, pos: int, msg: str, entry: int | None = None) -> BibError:
        """Error at `pos`; inside an entry, name the entry's first line and then `pos`'s."""
        if entry is None or self.line(entry) == self.line(pos):
            return BibError(f"{self.name}:{self.line(pos)}: {msg}")
        return BibError(f"{self.name}:{self.line(entry)}: in the entry starting here: {msg} "
                        f"(line {self.line(pos)})")

    def skip_ws(self, pos: int) -> int:
        while pos < len(self.text) and self.text[pos].isspace():
            pos += 1
        return pos

    def braced(self, pos: int, start: int, guard: bool = True) -> int:
        """`pos` is just after "{": return the offset after the matching "}".

        With `guard`, a line starting a new entry inside the braces is reported as an
        unclosed brace rather than swallowed (not for @comment, which may hold entries).
        """
        depth, text = 1, self.text
        while pos < len(text):
            ch = text[pos]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return pos + 1
            elif guard and ch == "\n" and _ENTRY_START.match(text, pos):
                raise self.fail(start, f"unbalanced braces: the block starting here runs into "
                                       f"the entry at line {self.line(pos + 1)}")
            pos += 1
        raise self.fail(start, "unbalanced braces: block starting here is never closed")

    def value(self, pos: int, start: int) -> tuple[str, int]:
        """A field value: pieces ({...}, "...", number, @string name) joined by "#"."""
        text = self.text
        first = pos = self.skip_ws(pos)
        while True:
            pos = self.skip_ws(pos)
            ch = text[pos : pos + 1]
            if ch == "{":
                pos = self.braced(pos + 1, start)
            elif ch == '"':
                depth, pos = 0, pos + 1
                while pos < len(text) and not (text[pos] == '"' and depth == 0):
                    depth += {"{": 1, "}": -1}.get(text[pos], 0)
                    if depth < 0:
                        raise self.fail(pos, 'unbalanced braces in a "..." value', start)
                    pos += 1
                if pos >= len(text):
                    raise self.fail(start, 'unterminated "..." value in the entry starting here')
                pos += 1
            else:
                m = _NAME.match(text, pos)
                if m is None:
                    what = ch or "end of file"
                    raise self.fail(pos, f"expected a field value, found {what!r}", start)
                pos = m.end()
            after = self.skip_ws(pos)
            if text[after : after + 1] != "#":
                return text[first:pos], pos
            pos = after + 1

    def entry(self, at: int, kind: str, pos: int, close: str) -> Block:
        """Parse an entry or @string body; `pos` is just after the opening delimiter."""
        text, block = self.text, Block(kind, at, at, self.line(at))
        pos = self.skip_ws(pos)
        if kind != "string":
            m = re.compile(r"[^,\s{}()]*").match(text, pos)
            assert m is not None
            block.key = m.group()
            pos = self.skip_ws(m.end())
            if text[pos : pos + 1] == close:
                block.end = pos + 1
                return block
            if text[pos : pos + 1] != ",":
                raise self.fail(pos, f"expected ',' after the key of @{kind}{{{block.key}", at)
            pos += 1
        while True:
            pos = self.skip_ws(pos)
            if text[pos : pos + 1] == close:
                block.end = pos + 1
                return block
            m = _NAME.match(text, pos)
            if m is None:
                what = text[pos : pos + 1] or "end of file"
                raise self.fail(pos, f"expected a field name or {close!r} in @{kind}, "
                                     f"found {what!r}", at)
            name = m.group().lower()
            pos = self.skip_ws(m.end())
            if text[pos : pos + 1] != "=":
                raise self.fail(pos, f"expected '=' after field {m.group()!r} in @{kind}", at)
            raw, pos = self.value(pos + 1, at)
            block.fields[name] = raw
            pos = self.skip_ws(pos)
            if text[pos : pos + 1] == ",":
                pos += 1
            elif text[pos : pos + 1] != close:
                what = text[pos : pos + 1] or "end of file"
                raise self.fail(pos, f"expected ',' or {close!r} after field {m.group()!r}, "
                                     f"found {what!r} (unbalanced braces or missing comma?)", at)

    def blocks(self) -> list[Block]:
        if "\x00" in self.text:
            raise BibError(f"{self.name}: contains NUL bytes; not a BibTeX file")
        out: list[Block] = []
        pos, text = 0, self.text
        while True:
            at = text.find("@", pos)
            if at < 0:
                return out
            m = _AT.match(text, at)
            if m is None:  # a stray "@" in free text (e.g. an e-mail address)
                pos = at + 1
                continue
            kind, delim = m.group(1).lower(), m.group(2)
            close = "}" if delim == "{" else ")"
            if kind in ("comment", "preamble"):
                if delim == "{":
                    end = self.braced(m.end(), at, guard=kind != "comment")
                else:
                    end = text.find(")", m.end()) + 1 or len(text)
                out.append(Block(kind, at, end, self.line(at)))
                pos = end
                continue
            block = self.entry(at, kind, m.end(), close)
            out.append(block)
            pos = block.end


def parse_bib(text: str, name: str = "<string>") -> list[Block]:
    """Scan .bib text into blocks; raise BibError naming `name` and the line on bad input."""
    return _Parser(text, name).blocks()


def field_text(raw: str) -> str:
    """A raw field value without its outer braces/quotes (good enough for ids and DOIs)."""
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] + raw[-1] in ("{}", '""'):
        raw = raw[1:-1]
    return raw.replace("{", "").replace("}", "").strip()


def lock_file(path: Path) -> Path:
    """What is locked for writing `path`: the folder holding it, so every process writing
    that .bib (whatever its data dir) waits for the others, and no `.lock` file is left in
    the user's folder. The .bib itself cannot serve: each write replaces it (a new inode)."""
    return path.parent


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock for writing `path` (see `lock_file`). No-op without
    fcntl, or when the folder cannot be opened (the write reports its own error)."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    try:
        fd = os.open(lock_file(path), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
