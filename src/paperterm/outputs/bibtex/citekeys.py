"""Citation keys: arXiv's convention (surname + year + first significant title word)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from itertools import count, product
from string import ascii_lowercase

from paperterm.arxiv_id import id_year_month
from paperterm.models import Paper
from paperterm.outputs.bibtex.errors import KeyPatternError
from paperterm.outputs.bibtex.latex import plain_words
from paperterm.outputs.bibtex.names import parse

DEFAULT_PATTERN = "{author}{year}{title}"
_STOP = frozenset({
    "a", "an", "the", "on", "of", "in", "for", "to", "with", "and", "or", "at", "by", "from",
    "via", "is", "are", "be", "do", "does", "can", "how", "what", "when", "why", "which", "who",
    "into", "onto", "over", "under", "toward", "towards", "through", "beyond", "its", "their",
    "your", "our", "we", "you", "not", "no", "as", "vs", "versus",
})
_FIELD = re.compile(r"\{([a-z]+)(\d?)\}")
_LITERAL_OK = re.compile(r"[A-Za-z0-9_:.+/-]*")


def arxiv_date(paper: Paper) -> tuple[int | None, int | None]:
    """(year, month) from the arXiv id (YYMM), else from `published`, else (None, None)."""
    encoded = id_year_month(paper.id)
    if encoded:
        return encoded
    if paper.published:
        m = re.match(r"(\d{4})-(\d{2})", paper.published)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None, None


def _title_words(paper: Paper, n: int) -> str:
    words = [w for w in plain_words(paper.title) if w not in _STOP and not w.isdigit()]
    return "".join(words[:n])


def _author(paper: Paper) -> str:
    return (parse(paper.authors[0]).key_part if paper.authors else "") or "anon"


_FIELDS: dict[str, Callable[[Paper, int], str]] = {
    "author": lambda p, n: _author(p),
    "year": lambda p, n: str(arxiv_date(p)[0] or ""),
    "yy": lambda p, n: str(arxiv_date(p)[0] or "")[2:],
    "month": lambda p, n: f"{arxiv_date(p)[1]:02d}" if arxiv_date(p)[1] else "",
    "title": lambda p, n: _title_words(p, n or 1),
    "id": lambda p, n: re.sub(r"[^A-Za-z0-9.-]", "-", p.id),
}


def check_pattern(pattern: str) -> None:
    """Raise KeyPatternError unless `pattern` is usable (known placeholders, key-safe text)."""
    if not pattern or not _FIELD.search(pattern):
        raise KeyPatternError(
            f"citation key pattern {pattern!r} has no placeholder; use some of "
            + ", ".join("{" + f + "}" for f in _FIELDS)
        )
    for m in _FIELD.finditer(pattern):
        if m.group(1) not in _FIELDS or (m.group(2) and m.group(1) != "title"):
            raise KeyPatternError(
                f"citation key pattern {pattern!r}: unknown placeholder {m.group()}; known: "
                + ", ".join("{" + f + "}" for f in _FIELDS)
                + " (and {title2}..{title9} for more title words)"
            )
    literal = _FIELD.sub("", pattern)
    if not _LITERAL_OK.fullmatch(literal):
        bad = sorted(set(re.sub(r"[A-Za-z0-9_:.+/-]", "", literal)))
        raise KeyPatternError(
            f"citation key pattern {pattern!r}: characters {''.join(bad)!r} are not allowed "
            "in BibTeX keys (braces must enclose a placeholder name)"
        )


def citation_key(paper: Paper, pattern: str = DEFAULT_PATTERN) -> str:
    """The base key for `paper` (no collision suffix), e.g. "vandermaaten2026visualizing"."""
    check_pattern(pattern)
    key = _FIELD.sub(lambda m: _FIELDS[m.group(1)](paper, int(m.group(2) or 0)), pattern)
    return key or f"arxiv{_FIELDS['id'](paper, 0)}"


def unique_key(base: str, taken: Collection[str]) -> str:
    """`base`, or `base` + a, b, ..., z, aa, ... : the first not in `taken` (lowercase set)."""
    if base.lower() not in taken:
        return base
    for size in count(1):
        for letters in product(ascii_lowercase, repeat=size):
            key = base + "".join(letters)
            if key.lower() not in taken:
                return key
    raise AssertionError("unreachable")
