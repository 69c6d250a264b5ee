"""A parsed query's words widened to the index's own words: each word matches every
indexed word of its family (`text.wordforms.family`: "quantisation" finds "quantization",
"router" finds "routers", "optimizer" never "Optimal"), and a word no paper holds in any
form matches the indexed words within a typo of it ("momentun" finds "momentum").

Works on the FTS5 expression `fts.parse` makes (every word and phrase quoted), so the
query syntax (phrases, prefixes, OR, fields, -exclusions) and the parser's own checks stay
the parser's; the vocabulary is read through its index (`paper_vocab`, a range per word).
"""

from __future__ import annotations

import itertools
import re
import sqlite3

from paperterm.text.wordforms import close, distance, family, typo_allowance

_QUOTED = re.compile(r'"((?:[^"]|"")*)"(\*?)')
_WORD = re.compile(r"\w+")
MAX_FORMS = 24  # indexed forms a word matches at most (the most common kept)
MAX_PHRASES = 16  # spellings a phrase matches at most
TYPO_PREFIX = 2  # a typo keeps its word's first letters: the vocabulary read per word


class Vocabulary:
    """The index's words by family, read per prefix and kept until the index changes."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._forms: dict[str, tuple[str, ...]] = {}
        self._seen_version: tuple[int, int] | None = None

    def _fresh(self) -> None:
        try:
            version = (self.conn.execute("PRAGMA data_version").fetchone()[0],
                       self.conn.total_changes)
        except sqlite3.Error:
            version = None
        if version != self._seen_version:
            self._forms.clear()
            self._seen_version = version

    def _words(self, prefix: str) -> list[tuple[str, int]]:
        """Indexed words starting with `prefix`, with how many papers hold each."""
        try:
            return self.conn.execute(
                "SELECT term, doc FROM paper_vocab WHERE term >= ? AND term < ?",
                (prefix, prefix + "\U0010ffff")).fetchall()
        except sqlite3.Error:
            return []

    def forms(self, word: str) -> tuple[str, ...]:
        """The indexed words `word` (folded) matches: its family's, else its typo fixes';
        the word itself when neither is indexed."""
        self._fresh()
        if word in self._forms:
            return self._forms[word]
        mine = family(word)
        # a family shares its first letters: the American spelling's, up to the suffix
        stem = mine[: max(3, min(len(mine), len(word)) - 1)]
        found = [(w, n) for w, n in self._words(stem[:max(3, len(stem) - 2)])
                 if family(w) == mine]
        if not found and (allowed := typo_allowance(word)):
            near = [(distance(word, w, allowed), w, n)
                    for w, n in self._words(word[:TYPO_PREFIX]) if close(word, w)]
            best = min((d for d, _, _ in near), default=0)
            found = [(w, n) for d, w, n in near if d == best]  # the nearest words only
        found.sort(key=lambda wn: (wn[0] != word, -wn[1]))
        forms = tuple(dict.fromkeys([w for w, _ in found[:MAX_FORMS]])) or (word,)
        if len(self._forms) > 4096:
            self._forms.clear()
        self._forms[word] = forms
        return forms


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def widen(expr: str, vocabulary: Vocabulary) -> str:
    """`expr` (an FTS5 expression from `fts.parse`) with each quoted word or phrase
    matching its indexed forms; prefixes (`"transform"*`) as they are."""

    def one(m: re.Match[str]) -> str:
        text, star = m.group(1).replace('""', '"'), m.group(2)
        if star:
            return m.group(0)
        words = _WORD.findall(text.casefold())
        if not words:
            return m.group(0)
        if len(words) == 1:
            forms = vocabulary.forms(words[0])
            if forms == (words[0],) and words[0] == text:
                return m.group(0)
            return _any([_quoted(f) for f in forms])
        per_word = [vocabulary.forms(w)[:4] if len(w) > 3 else (w,) for w in words]
        phrases = itertools.islice(itertools.product(*per_word), MAX_PHRASES)
        return _any([_quoted(" ".join(p)) for p in phrases])

    return _QUOTED.sub(one, expr)


def _any(alternatives: list[str]) -> str:
    return alternatives[0] if len(alternatives) == 1 else "(" + " OR ".join(alternatives) + ")"
