"""Where a topic's terms occur in a day's papers, without splitting the day into words.

Splitting 5,000 abstracts into a million word objects and stemming each one was most of a
ranking's time. Instead each title and abstract becomes canonical bytes (its lower-cased
ASCII words between spaces, exactly as `local.words` splits them) and one regex finds, at
each word, the longest run of words that could start a term: the first word begins like a
first stem of some term, the second like a second stem, and so on (a word starts with its
Snowball stem, or with all of it but a last letter Snowball changed: `_prefix`;
`_IRREGULAR` lists the exceptions). Only these runs are stemmed (a few hundred
distinct ones a day, each once), and every term whose stems begin a run's stems occurs
there. A field's length in words is a count of word starts, not a split.

The result is what matching the stemmed words would give, occurrence for occurrence (a
test compares the two on the shared real days).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Protocol

from paperterm.models import Paper

_ALNUM = b"abcdefghijklmnopqrstuvwxyz0123456789"
# bytes.translate tables: A-Z lower-cased, every byte but a-z and 0-9 a space; then each
# word byte an "x" (to count words as " x" pairs)
_CANON = bytes(c + 32 if 65 <= c <= 90 else c if c in _ALNUM else 32 for c in range(256))
_MARK = bytes(120 if c in _ALNUM else 32 for c in range(256))
# words that do not start with `_prefix` of their Snowball stem
_IRREGULAR = {"die": (b"dying",), "lie": (b"lying",), "tie": (b"tying",)}


class Term(Protocol):
    @property
    def seq(self) -> tuple[str, ...]: ...


def canonical(texts: Sequence[str]) -> tuple[bytes, list[int]]:
    """The words of each text (as `local.words` splits them) between spaces, the texts
    separated by newlines, in one bytes; and each text's number of words. An ASCII text
    is lower-cased by the translation table; only the others go through `str.lower`."""
    if not texts:
        return b"", []
    parts = [(t if t.isascii() else t.lower()).encode("ascii", "replace").translate(_CANON)
             for t in texts]
    sizes = [m.count(b" x") + m.startswith(b"x")
             for m in map(bytes.translate, parts, repeat(_MARK))]
    parts[0] = b" " + parts[0]
    parts[-1] += b" "
    return b" \n ".join(parts), sizes


def _prefix(stem: str) -> str:
    """What every word with this stem starts with: the stem, but for its last letter where
    Snowball may have changed it (y -> i, an e added, "-bility" -> "-bl")."""
    if len(stem) > 2 and (stem[-1] in "eiy" or stem.endswith("bl")):
        return stem[:-1]
    return stem


def _word_pattern(stems: set[str]) -> bytes:
    """A regex matching one whole word that starts like any of `stems` (a trie of the
    prefixes: one alternative per letter, not per stem)."""
    root: dict = {}
    words = {_prefix(s).encode() for s in stems}
    words.update(w[: len(_prefix(s))] for s in stems for w in _IRREGULAR.get(s, ()))
    for word in words:
        node = root
        for byte in word:
            node = node.setdefault(byte, {})
        node[None] = {}

    # emitted bottom-up with a stack of its own, not by recursion: a keyword of 600 letters
    # is a trie 600 deep, beyond Python's recursion limit (issue 31, item 3)
    done: dict[int, bytes] = {}
    stack: list[tuple[dict, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if None in node:  # a prefix ends here: the rest of the word is anything
            done[id(node)] = b"[a-z0-9]*"
        elif not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in node.values())
        else:
            alts = [re.escape(bytes([byte])) + done[id(child)]
                    for byte, child in sorted(node.items())]
            done[id(node)] = alts[0] if len(alts) == 1 else b"(?:" + b"|".join(alts) + b")"
    return done[id(root)]


def run_pattern(terms: Sequence[Term]) -> re.Pattern[bytes]:
    """At a space before a word, captures the longest run of words where the i-th word
    starts like the i-th stem of some term (a term occurring there is a start of it); at
    the space before a newline (the end of a text), the newline."""
    depth = max(len(t.seq) for t in terms)
    body = b""
    for i in reversed(range(depth)):
        word = _word_pattern({t.seq[i] for t in terms if len(t.seq) > i})
        body = word + (b"(?: +" + body + b")?" if body else b"")
    return re.compile(b" (?=(" + body + b"|\n) )")


CHUNK = 400  # texts per regex pass: each pass holds the GIL, so the reader stays responsive


def occurrences(papers: Sequence[Paper], terms: Sequence[Term],
                stem: Callable[[str], str]) -> tuple[
        list[dict[int, tuple[int, int]]], list[int], list[tuple[int, int]]]:
    """Per paper, term index -> (count in title, count in abstract) where it occurs; each
    term's document frequency; each paper's (title words, abstract words)."""
    n = len(papers)
    texts = [p.title for p in papers] + [p.abstract for p in papers]
    finder = run_pattern(terms) if terms else None
    by_seq = {t.seq: k for k, t in enumerate(terms)}
    starting: dict[bytes, tuple[int, ...]] = {}  # a run -> the terms occurring at its start

    def terms_at(run: bytes) -> tuple[int, ...]:
        stems = [stem(w) for w in run.decode().split()]
        return tuple(k for i in range(len(stems))
                     if (k := by_seq.get(tuple(stems[: i + 1]))) is not None)

    sizes: list[int] = []
    per_text: list[dict[int, int]] = []  # term -> count, titles then abstracts
    for start in range(0, len(texts), CHUNK):
        text, chunk_sizes = canonical(texts[start:start + CHUNK])
        sizes += chunk_sizes
        if finder is None:
            per_text += [{} for _ in chunk_sizes]
            continue
        here: dict[int, int] = {}
        for run in finder.findall(text):
            if run == b"\n":  # the end of a text
                per_text.append(here)
                here = {}
                continue
            ks = starting.get(run)
            if ks is None:
                ks = starting[run] = terms_at(run)
            for k in ks:
                here[k] = here.get(k, 0) + 1
        per_text.append(here)
    df = [0] * len(terms)
    found: list[dict[int, tuple[int, int]]] = [{} for _ in papers]
    for d in range(n):
        in_title, in_body = per_text[d], per_text[n + d]
        if in_title or in_body:
            row = found[d]
            for k in in_title.keys() | in_body.keys():
                row[k] = (in_title.get(k, 0), in_body.get(k, 0))
                df[k] += 1
    return found, df, list(zip(sizes[:n], sizes[n:], strict=True))
