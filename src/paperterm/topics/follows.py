"""Followed authors: names from the config (`follow`, globally and per topic) and from the
reader, matched against a paper's authors however arXiv spelled them."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic

if TYPE_CHECKING:
    from paperterm.store import Store

_TEX_ACCENT = re.compile(r"\\[`'^\"~=.uvHckbdr]\s*\{?([A-Za-z])\}?")
_AFFILIATION = re.compile(r"\s*\([^)]*\)\s*$")


@functools.lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """A name as compared: accents (also TeX ones) and dots dropped, case folded, "Last,
    First" turned around, an affiliation in parentheses ignored."""
    text = _AFFILIATION.sub("", _TEX_ACCENT.sub(r"\1", name)).strip()
    if text.count(",") == 1:
        last, first = (part.strip() for part in text.split(","))
        text = f"{first} {last}"
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"[.{}\\]", " ", text.casefold())
    return " ".join(text.split())


def clean_author(name: str) -> str:
    """An author as shown and stored: the affiliation in parentheses dropped."""
    return " ".join(_AFFILIATION.sub("", name).split())


class Followed:
    """A set of followed names that papers are checked against."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names = tuple(dict.fromkeys(n for n in names if name_key(n)))
        self._keys = frozenset(name_key(n) for n in self.names)

    def __bool__(self) -> bool:
        return bool(self._keys)

    def follows(self, author: str) -> bool:
        return name_key(author) in self._keys

    def authors_of(self, paper: Paper) -> list[str]:
        """The paper's authors that are followed, as the paper spells them."""
        if not self._keys:
            return []
        return [clean_author(a) for a in paper.authors if name_key(a) in self._keys]


def merged(*lists: Sequence[str]) -> tuple[str, ...]:
    """The names of several lists, each once (by `name_key`), first spelling kept."""
    out: dict[str, str] = {}
    for names in lists:
        for n in names:
            key = name_key(n)
            if key:
                out.setdefault(key, n.strip())
    return tuple(out.values())


def following(topic: Topic, *lists: Sequence[str]) -> Topic:
    """The topic following its own authors and those of `lists` (the config's global
    `follow`, those followed in the reader)."""
    from dataclasses import replace

    names = merged(topic.follow, *lists)
    return replace(topic, follow=names) if names != topic.follow else topic


def with_follows(topic: Topic, config_follow: Sequence[str], store: Store) -> Topic:
    """The topic following its own authors, the config's (`follow`) and those followed in
    the reader (kept in the store): the one place they are merged, for the CLI and the
    reader. An unreadable store only loses the reader's follows this time."""
    try:
        stored = store.marks.followed_authors()
    except Exception:
        stored = []
    return following(topic, config_follow, stored)
