"""The reader's text filter: case- and accent-insensitive, whole words (not substrings),
quoted phrases, `word*` prefixes; and where its terms (or a topic's keywords) occur in a text,
for highlighting.

"MoE" matches "MoE" and "moe", never "Moein"; "Rémi" and "R\\'emi" match "remi";
`"mixture of experts"` matches those three words in a row (also "mixture-of-experts").
A word matches its family as the library's search does (`wordforms.family`: "router"
matches "routers", "quantisation" "quantization", "optimizer" never "Optimal"), and a word
no paper of the list holds matches the nearest words within a typo (`typo_fixed`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from paperterm.text.texrender import fold_tex
from paperterm.text.wordforms import close, distance, family, typo_allowance

_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r'"([^"]*)"?|(\S+)')


def fold(text: str) -> str:
    """Lower-cased (casefold), accents removed, TeX accent commands resolved."""
    text = fold_tex(text).casefold()
    if text.isascii():
        return text
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch))


FAMILIES = " \x00 "  # between a text's words and their families in `index_text`


def index_text(parts: Iterable[str]) -> str:
    """The words of `parts`, folded, one space apart and between spaces, then their families
    (`wordforms.family`): what `Term.pattern` and `Term.family_pattern` look for with a
    plain substring test (fast for thousands of papers)."""
    words = _WORD.findall(fold(" ".join(parts)))
    return " " + " ".join(words) + FAMILIES + " ".join(map(family, words)) + " "


class Term(NamedTuple):
    """One word or quoted phrase of a query; `prefix` for a trailing `*`."""

    words: tuple[str, ...]
    prefix: bool = False

    @property
    def pattern(self) -> str:
        return " " + " ".join(self.words) + ("" if self.prefix else " ")

    @property
    def family_pattern(self) -> str:
        """What the term matches: its words' families in a row; a prefix as typed."""
        if self.prefix:
            return self.pattern
        return " " + " ".join(map(family, self.words)) + " "


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


Alternatives = Sequence["Term | list[Term]"]


def matches(index: str, terms: Alternatives) -> bool:
    """Every term (or one of a list of alternatives, `typo_fixed`) occurs in `index` (made
    by `index_text`), as a word of its family."""
    return all(any(a.family_pattern in index for a in t) if isinstance(t, list)
               else t.family_pattern in index for t in terms)


def typo_fixed(terms: Sequence[Term], indexes: Sequence[str]) -> list[Term | list[Term]]:
    """`terms`, where a single word no index holds in any form is replaced by the nearest
    words within a typo of it that the indexes hold (the list's own vocabulary); kept as
    it is when there are none."""
    out: list[Term | list[Term]] = []
    vocabulary: set[str] | None = None
    for t in terms:
        allowed = typo_allowance(t.words[0]) if len(t.words) == 1 and not t.prefix else 0
        if not allowed or any(t.family_pattern in index for index in indexes):
            out.append(t)
            continue
        if vocabulary is None:
            vocabulary = {w for index in indexes
                          for w in index.split(FAMILIES, 1)[0].split()}
        word = t.words[0]
        near = [(distance(word, w, allowed), w) for w in vocabulary if close(word, w)]
        best = min((d for d, _ in near), default=0)
        fixes = [Term((w,)) for d, w in sorted(near) if d == best]
        out.append(fixes or t)
    return out


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
    families = {family(t.words[0]) for t in terms if len(t.words) == 1 and not t.prefix}
    matched = [_pattern(t).finditer(folded) for t in terms]
    if families:  # a word of the same family ("routers" for "router")
        matched.append(m for m in _WORD.finditer(folded) if family(m.group()) in families)
    for m in (m for found_by in matched for m in found_by):
        if m.end() > m.start():
            found.append((m.start(), m.end()) if where is None
                         else (where[m.start()], where[m.end() - 1] + 1))
    return sorted(set(found))


def keyword_terms(keywords: Iterable[str]) -> list[Term]:
    """A topic's keywords (each a word or a phrase) as terms."""
    out = []
    for k in keywords:
        words = tuple(_WORD.findall(fold(k)))
        if words:
            out.append(Term(words))
    return out
