"""The one arXiv identifier parser: new-style (2602.20191) and old-style (solv-int/9901001).

Accepts the forms arXiv and users write: a bare id, `arXiv:` prefix, `oai:arXiv.org:` (RSS
guids), abs/pdf URLs, with or without a version suffix (`v2`). Old-style ids come back in
arXiv's own spelling: archive in lower case, subject class in upper case (`math.GT/0309136`).
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

_PREFIX = (
    r"(?:arXiv:\s*|oai:arXiv\.org:"
    r"|(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)"
)
_NEW = r"(?<!\d)\d{4}\.\d{4,5}(?!\d)"  # YYMM.NNNN (2007-2014) or YYMM.NNNNN (2015-)
_OLD = r"(?P<archive>[a-z][a-z\-]*)(?:\.(?P<subject>[a-z]{2}))?/\d{7}(?!\d)"
_TAIL = r"(?:\.pdf)?/?$"  # what a pdf or abs URL may end with
_VERSION = r"\d{1,4}(?!\d)"  # up to v9999: a longer number is no version (never an int
# of 5,000 digits, nor one SQLite cannot store)


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The id and URL-tail patterns, compiled on first use (not on the reader's start)."""
    return (re.compile(rf"{_PREFIX}?(?P<id>{_NEW}|{_OLD})(?:v(?P<v>{_VERSION}))?", re.I),
            re.compile(_TAIL, re.I))


class ArxivId(NamedTuple):
    id: str  # without version
    version: int | None

    @property
    def versioned(self) -> str:
        """The id with its version suffix when known: "2602.20191v2"."""
        return f"{self.id}v{self.version}" if self.version else self.id


def _from_match(m: re.Match[str]) -> ArxivId:
    pid = m.group("id")
    if m.group("archive"):  # old style: arXiv's own case, whatever the input used
        number = pid.rsplit("/", 1)[1]
        subject = f".{m.group('subject').upper()}" if m.group("subject") else ""
        pid = f"{m.group('archive').lower()}{subject}/{number}"
    return ArxivId(pid, int(m.group("v")) if m.group("v") else None)


def find_arxiv_id(text: str | None) -> ArxivId | None:
    """The first arXiv id anywhere in `text` (a guid, a URL, a description), or None."""
    m = _patterns()[0].search(text or "")
    return _from_match(m) if m else None


def parse_arxiv_id(text: str | None) -> ArxivId | None:
    """`text` as a whole is one arXiv id or abs/pdf URL (surrounding spaces allowed), or None."""
    pattern, tail = _patterns()
    m = pattern.fullmatch(tail.sub("", (text or "").strip(), count=1))
    return _from_match(m) if m else None


def bare_id(text: str) -> str:
    """An arXiv id without prefix or version: "arXiv:2602.20191v2" -> "2602.20191"
    (old-style ids such as "solv-int/9901001v1" too). Text that is no arXiv id comes back
    stripped, so the caller can report it as given."""
    parsed = parse_arxiv_id(text)
    return parsed.id if parsed else text.strip()


def id_year_month(paper_id: str) -> tuple[int, int] | None:
    """(year, month) an arXiv id encodes (YYMM: "2602.20191" -> (2026, 2); old style
    "math.GT/0309136" -> (2003, 9)), or None when it encodes none."""
    parsed = parse_arxiv_id(paper_id)
    if parsed is None:
        return None
    digits = parsed.id.rsplit("/", 1)[-1]
    yy, mm = int(digits[:2]), int(digits[2:4])
    if not 1 <= mm <= 12:
        return None
    old = "/" in parsed.id
    return (1900 + yy if old and yy >= 91 else 2000 + yy), mm
