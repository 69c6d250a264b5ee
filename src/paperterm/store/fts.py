"""The full-text index (SQLite FTS5) over every cached paper: one row per paper id (its
latest version) with title, abstract, authors, the user's note and tags. Kept current by
whoever writes those (papers.save_day, notes) through `reindex`; `parse` turns what a
user types into safe FTS5 terms (words stemmed by the index's porter tokenizer)."""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

# bm25 weights per column: title, abstract, authors, note, tags
WEIGHTS = (10.0, 1.0, 4.0, 3.0, 6.0)
HIT_OPEN, HIT_CLOSE = "\x02", "\x03"  # snippet highlight markers (stripped from paper text)

_COLUMNS = {"title": "title", "abstract": "abstract", "author": "authors",
            "authors": "authors", "note": "note", "notes": "note", "tag": "tags", "tags": "tags"}
_TOKEN = re.compile(r'(-?)(?:(\w+):)?(?:"([^"]*)"?|(\S+))')
_WORD = re.compile(r"\w")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # never part of a word; NUL ends an FTS5 string


def reindex(c: sqlite3.Connection, ids: Iterable[str]) -> None:
    """Rebuild the index rows of these paper ids (run inside the writer's transaction)."""
    ids = list(dict.fromkeys(ids))
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        marks = ",".join("?" * len(chunk))
        c.executemany("INSERT OR IGNORE INTO fts_docs (id) VALUES (?)", [(x,) for x in chunk])
        c.execute(f"""DELETE FROM paper_fts WHERE rowid IN
                      (SELECT doc FROM fts_docs WHERE id IN ({marks}))""", chunk)
        c.execute(
            f"""INSERT INTO paper_fts (rowid, title, abstract, authors, note, tags)
                SELECT d.doc, p.title, p.abstract,
                       (SELECT group_concat(value, ', ') FROM json_each(p.authors)),
                       coalesce((SELECT body FROM notes WHERE id = p.id), ''),
                       coalesce((SELECT group_concat(tag, ' ') FROM tags WHERE id = p.id), '')
                FROM fts_docs d JOIN papers p ON p.id = d.id
                AND p.version = (SELECT max(version) FROM papers WHERE id = d.id)
                WHERE d.id IN ({marks})""", chunk)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


_VOWELS = "aeiouy"


def _prefix(word: str) -> str:
    """A prefix term over the stemmed index: `word*`, or also its stem-like start when the
    typed prefix ends in a vowel the stemmer may have cut ("quantiza*" finds "quantize",
    indexed as "quantiz")."""
    term = _quoted(word) + "*"
    short = word.rstrip(_VOWELS)
    if short != word and len(short) >= 4 and _WORD.search(short[-1]):
        return f"{term} OR {_quoted(short)}*"
    return term


MAX_TERMS = 32  # words, phrases, prefixes and -exclusions of one query, together
MAX_PREFIXES = 10  # prefix terms (word*): each costs a scan of the index's vocabulary


class QueryTooLarge(ValueError):
    """A query over the caps above; the message is one line for the user."""


class SearchFailed(Exception):
    """The full-text index could not run a query (never reported as "no results")."""


def index_error(exc: Exception) -> bool:
    """Whether an SQLite error is the index refusing a query (not a lock, a full disk...)."""
    text = str(exc).lower()
    return any(w in text for w in ("fts5", "parser stack", "syntax error", "malformed match",
                                   "no such column", "unknown special query"))


class Query(NamedTuple):
    """A user's query as FTS5 terms: each positive term (a word, a phrase, a prefix, an OR
    of them, limited to a field or not) and the excluded ones."""

    terms: tuple[str, ...]
    excluded: tuple[str, ...] = ()

    def _without_excluded(self, expr: str) -> str:
        # one NOT of an OR, not a NOT per term: 100 nested NOTs overflow FTS5's parser stack
        if not self.excluded:
            return expr
        return f"({expr}) NOT ({' OR '.join(self.excluded)})"

    @property
    def all_terms(self) -> str:
        """Every term: the papers that match all of them."""
        return self._without_excluded(" AND ".join(f"({t})" for t in self.terms))

    @property
    def any_term(self) -> str:
        """Any term: the candidates for a near miss."""
        return self._without_excluded(" OR ".join(f"({t})" for t in self.terms))

    @property
    def near_miss_min(self) -> int:
        """How many of the terms a near miss must match: at least half of them (rounded up),
        at least one."""
        return max(1, (len(self.terms) + 1) // 2)


def parse(query: str) -> Query | None:
    """The terms of a user's query, or None when it has no words.

    Words are ANDed; "quoted phrases" match in order; a trailing * makes a prefix
    (transform*); OR between two terms means either; -word excludes; title:, author:,
    abstract:, note: and tag: limit a term to that field. Words are stemmed by the index
    ("quantization" finds "Quantize"). FTS5 syntax never leaks through: every term is
    quoted, so no query is a syntax error. A query over MAX_TERMS terms or MAX_PREFIXES
    prefixes raises QueryTooLarge (its cost grows with their product).
    """
    positive: list[str] = []
    negative: list[str] = []
    pending_or = False
    prefixes = 0
    query = unicodedata.normalize("NFC", _CONTROL.sub(" ", query))  # as the index holds it
    for m in _TOKEN.finditer(query):
        neg, field, phrase, bare = m.groups()
        if bare == "OR" and not neg and not field:
            pending_or = bool(positive)
            continue
        text = phrase if phrase is not None else bare
        prefix = phrase is None and text.endswith("*")
        text = text.rstrip("*") if phrase is None else text
        if field and field.lower() not in _COLUMNS:  # "arXiv:2602.1" is a word, not a field
            text, field = f"{field}:{text}", None
        if not _WORD.search(text):
            continue
        prefixes += prefix
        term = _prefix(text) if prefix else _quoted(text)
        if field:
            term = f"{_COLUMNS[field.lower()]} : ({term})" if " OR " in term else (
                f"{_COLUMNS[field.lower()]} : {term}")
        if neg:
            negative.append(f"({term})" if " OR " in term else term)
        elif pending_or:
            positive[-1] = f"{positive[-1]} OR {term}"
            pending_or = False
        else:
            positive.append(term)
    if len(positive) + len(negative) > MAX_TERMS:
        raise QueryTooLarge(f"the query has {len(positive) + len(negative)} terms; paperterm "
                            f"searches at most {MAX_TERMS} (words, phrases, prefixes and "
                            "-exclusions together)")
    if prefixes > MAX_PREFIXES:
        raise QueryTooLarge(f"the query has {prefixes} prefix terms (word*); paperterm "
                            f"searches at most {MAX_PREFIXES}")
    if not positive:
        return None
    return Query(tuple(positive), tuple(negative))


def match_expression(query: str) -> str | None:
    """An FTS5 MATCH expression for the papers matching every term of a user's query
    (`parse`), or None when it has no words."""
    parsed = parse(query)
    return parsed.all_terms if parsed is not None else None
