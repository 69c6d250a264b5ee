"""The reader's text filter: case- and accent-insensitive, whole words (not substrings),
quoted phrases, `word*` prefixes; and where its terms (or a topic's keywords) occur in a text,
for highlighting.

"MoE" matches "MoE" and "moe", never "Moein"; "Rémi" and "R\\'emi" match "remi";
`"mixture of experts"` matches those three words in a row (also "mixture-of-experts").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from paperterm.text.texrender import fold_tex

_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r'"([^"]*)"?|(\S+)')


def fold(text: str) -> str:
    """Lower-cased (casefold), accents removed, TeX accent commands resolved."""
    text = fold_tex(text).casefold()
    if text.isascii():
        return text
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch))


def index_text(parts: Iterable[str]) -> str:
    """The words of `parts`, folded, one space apart and between spaces: what `Term.pattern`
    looks for with a plain substring test (fast for thousands of papers)."""
    return " " + " ".join(_WORD.findall(fold(" ".join(parts)))) + " "


class Term(NamedTuple):
    """One word or quoted phrase of a query; `prefix` for a trailing `*`."""

    words: tuple[str, ...]
    prefix: bool = False

    @property
    def pattern(self) -> str:
        return " " + " ".join(self.words) + ("" if self.prefix else " ")


# English function words: a match on one alone is not worth pointing at
STOP_WORDS = frozenset(_WORD.findall(
    "a about above after all also an and any are as at be been but by can could did do does "
    "for from had has have how i if in into is it its may might no nor not of on or our over "
    "so such than that the their them then there these they this those through to under up "
    "us via was we were what when where which while who why will with would you"))


def only_stop_words(text: str) -> bool:
    """Whether every word of `text` is a stop word (so is an empty text)."""
    return all(w in STOP_WORDS for w in _WORD.findall(fold(text)))


def parse_query(text: str) -> list[Term]:
    """Words and "quoted phrases" (an unclosed quote runs to the end), each folded."""
    out: list[Term] = []
    for m in _TOKEN.finditer(text):
        raw = m.group(1) if m.group(1) is not None else m.group(2)
        words = tuple(_WORD.findall(fold(raw)))
        if words:
            prefix = m.group(2) is not None and raw.endswith("*")
            out.append(Term(words, prefix))
    return out


def matches(index: str, terms: Sequence[Term]) -> bool:
    """Every term occurs in `index` (made by `index_text`)."""
    return all(t.pattern in index for t in terms)


def _folded_with_map(text: str) -> tuple[str, list[int] | None]:
    """`text` folded character by character, and for each folded character the index of
    the original one (folding can change the length: "ß" -> "ss", "é" -> "e"); None when
    folding kept every position (ASCII text, the usual case)."""
    if text.isascii():
        return text.lower(), None
    chars: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        f = ch.casefold()
        if not f.isascii():
            f = "".join(c for c in unicodedata.normalize("NFKD", f)
                        if not unicodedata.combining(c))
        chars.append(f)
        where.extend([i] * len(f))
    return "".join(chars), where


@lru_cache(maxsize=512)
def _pattern(term: Term) -> re.Pattern[str]:
    body = r"\W+".join(re.escape(w) for w in term.words)
    return re.compile(rf"(?<!\w){body}" + ("" if term.prefix else r"(?!\w)"))


def spans(text: str, terms: Sequence[Term]) -> list[tuple[int, int]]:
    """Where the terms occur in `text` as shown (start, end), whole words only, sorted."""
    if not terms or not text:
        return []
    folded, where = _folded_with_map(text)
    found: list[tuple[int, int]] = []
    for t in terms:
        for m in _pattern(t).finditer(folded):
            if m.end() > m.start():
                found.append((m.start(), m.end()) if where is None
                             else (where[m.start()], where[m.end() - 1] + 1))
    return sorted(found)


def keyword_terms(keywords: Iterable[str]) -> list[Term]:
    """A topic's keywords (each a word or a phrase) as terms."""
    out = []
    for k in keywords:
        words = tuple(_WORD.findall(fold(k)))
        if words:
            out.append(Term(words))
    return out
