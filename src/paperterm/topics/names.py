"""Topic names as typed: a defined topic up to case, a near miss ("did you mean 'agents'?"),
or free text; and topic files that cannot be read, named by file and line.

A value is free text when it is more than one word, or one word not within a small edit
distance of any defined topic's name (`near`: one edit for names up to four letters, two
for longer ones; a swap of two neighbouring letters is one edit).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypeVar

from paperterm.text.wordforms import distance

T = TypeVar("T")


def allowed(name: str) -> int:
    """How many edits from `name` still count as a typo of it."""
    return 1 if len(name) <= 4 else 2


def near(value: str, names: Iterable[str]) -> str | None:
    """The defined name `value` is a likely typo of (case aside), the closest first; None
    when none is within `allowed` edits."""
    typed = value.strip().lower()
    best: tuple[int, str] | None = None
    for name in sorted(names):
        d = distance(typed, name.lower())
        if d <= allowed(name) and (best is None or d < best[0]):
            best = (d, name)
    return best[1] if best else None


def by_name(value: str, topics: Mapping[str, T]) -> T | None:
    """The topic `value` names, exactly or up to case (and surrounding spaces)."""
    if value in topics:
        return topics[value]
    typed = value.strip().lower()
    same = [name for name in topics if name.lower() == typed]
    return topics[same[0]] if len(same) == 1 else None


def is_one_word(value: str) -> bool:
    return len(value.split()) == 1


def did_you_mean(value: str, names: Iterable[str], config_file: Path | None = None,
                 ) -> str | None:
    """The error for a one-word value that is a near miss of a defined topic, else None
    (free text). `config_file`: the value is that file's `topic`, and the fix goes there
    (not a `--topic` flag)."""
    if not is_one_word(value):
        return None
    names = list(names)
    guess = near(value, names)
    if guess is None:
        return None
    typed, defined = value.strip(), ", ".join(sorted(names))
    if config_file is not None:
        return (f"the config's topic '{typed}' is not defined: did you mean '{guess}'? "
                f"Fix it: topic = \"{guess}\" in {config_file} (defined: {defined}; for "
                f"free text, write more than one word, e.g. topic = \"{typed} papers\")")
    return (f"topic '{typed}' is not defined: did you mean '{guess}'? "
            f"(defined: {defined}; for free text, write more than one word, "
            f"e.g. --topic \"{typed} papers\")")


# -- topic files that cannot be read --------------------------------------------------------

_KEY = re.compile(r"key '([A-Za-z_]+)'|unknown key\(s\) \['([A-Za-z_]+)'")
_AT_LINE = re.compile(r"\(at line (\d+)")


def located(message: str, path: Path | None, table: str | None = None) -> str:
    """`message` (a ConfigError about a topic file or a [topics.NAME] table) with the file
    and line it is about: "FILE, line N: …". The line is the TOML parser's, else the line
    of the key the message names, else the table's header (or line 1)."""
    if path is None:
        return message
    where = str(path)
    rest = message[len(where) + 2:] if message.startswith(where + ": ") else message
    if (m := _AT_LINE.search(rest)) is not None:
        return f"{where}, line {m.group(1)}: {rest}"
    line = _line_of(path, message, table)
    return f"{where}, line {line}: {rest}" if line else f"{where}: {rest}"


def _line_of(path: Path, message: str, table: str | None) -> int | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    start = 0
    if table is not None:
        header = re.compile(rf"^\s*\[\s*topics\s*\.\s*[\"']?{re.escape(table)}[\"']?\s*\]")
        start = next((i for i, text in enumerate(lines) if header.match(text)), 0)
    m = _KEY.search(message)
    key = (m.group(1) or m.group(2)) if m else None
    if key:
        pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
        for i in range(start, len(lines)):
            if i > start and table is not None and lines[i].lstrip().startswith("["):
                break
            if pattern.match(lines[i]):
                return i + 1
    return start + 1 if lines else None
