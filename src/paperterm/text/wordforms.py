"""Word families and typos, the same for the library's search and the day list's filter.

`family` maps a folded word to what its forms share: British spellings to American
("optimiser" -> "optimizer", "quantisation" -> "quantization", "behaviour" -> "behavior"),
then a light suffix strip ("routers", "router", "routing" -> "rout"; "quantization",
"quantized" -> "quantiz"). It is deliberately lighter than Porter's stemmer, which files
"optimizer" and "Optimal" under one stem. `close` says whether a word is a typo of another
(within one edit for words of up to 7 letters, two for longer ones; a swap of two
neighbouring letters is one edit).
"""

from __future__ import annotations

import re
from functools import lru_cache

_BRITISH = (
    (re.compile(r"(?<=\w{3})is(e|es|ed|ing|er|ers|ation|ations|ational)$"), r"iz\1"),
    (re.compile(r"(?<=\w{3})ys(e|es|ed|ing|er|ers)$"), r"yz\1"),
    (re.compile(r"(?<=\w{3})our(s|ed|ing|al)?$"), r"or\1"),
    (re.compile(r"(?<=\w{3})tre(s)?$"), r"ter\1"),
)
# longest first; a strip keeps at least 4 letters
_SUFFIXES = ("ization", "ation", "izing", "izer", "ized", "ize", "ing", "er", "ed", "e")
_KEEP = re.compile(r"(?:ss|us|is|as)$")  # "loss", "corpus", "analysis", "bias": not plurals
_ES = re.compile(r"(?:ss|x|z|ch|sh|as)es$")  # "processes", "biases": "es" is the plural


def american(word: str) -> str:
    """A British spelling as American ("optimiser" -> "optimizer"); others unchanged."""
    for pattern, repl in _BRITISH:
        new = pattern.sub(repl, word)
        if new != word:
            return new
    return word


@lru_cache(maxsize=65536)
def family(word: str) -> str:
    """What the forms of a (folded) word share: its American spelling, light suffixes off.
    Words of 3 letters or fewer and numbers are their own family."""
    if len(word) <= 3 or not word.isalpha():
        return word
    word = american(word)
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif _ES.search(word):
        word = word[:-2]
    elif word.endswith("s") and not _KEEP.search(word):
        word = word[:-1]
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            stem = word[: -len(suffix)]
            return stem + "iz" if suffix.startswith("iz") else stem
    return word


def distance(a: str, b: str, limit: int = 3) -> int:
    """The optimal string alignment distance: insertions, deletions, substitutions and
    swaps of two neighbouring characters each cost one (stops counting above `limit`)."""
    if a == b:
        return 0
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        rows.append(row)
    return rows[-1][-1]


def typo_allowance(word: str) -> int:
    """How many edits from `word` still count as a typo of it: none for words of up to 3
    letters (and numbers), one up to 7 letters, two for longer ones."""
    if len(word) <= 3 or not word.isalpha():
        return 0
    return 1 if len(word) <= 7 else 2


def close(typed: str, word: str) -> bool:
    """Whether `word` is a likely typo fix of `typed` (both folded)."""
    allowed = typo_allowance(typed)
    return allowed > 0 and distance(typed, word, allowed) <= allowed
