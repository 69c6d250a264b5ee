"""A free-text topic that no paper of the day matches: no title or abstract holds any of its
words in any form (a typo, "spekulative decodng"), so the day would be ranked by the topic's
cues alone, silently. `unmatched_note` says so once, with "did you mean …?" when a defined
topic's name (`names.near`) or a phrase of the day's own words (`textsearch.typo_fixed`) is
within a typo of it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from paperterm.models import Paper, Topic
from paperterm.text.textsearch import (
    STOP_WORDS,
    Term,
    fold,
    index_text,
    parse_query,
    typo_fixed,
)
from paperterm.topics.names import near

_WORD = re.compile(r"\w+")


def unmatched_note(topic: Topic, papers: Sequence[Paper], names: Iterable[str],
                   day: str) -> str | None:
    """What to say when no paper of `papers` (the day `day`) holds any word of the free-text
    `topic`; None for a defined topic, an empty day, or a topic some paper matches."""
    if not topic.adhoc or not papers:
        return None
    terms = [Term((w,)) for t in parse_query(topic.name) for w in t.words
             if w not in STOP_WORDS]
    if not terms:
        return None
    indexes = [index_text((p.title, p.abstract)) for p in papers]
    if any(t.family_pattern in index for t in terms for index in indexes):
        return None
    said = f"No paper of {day} contains any word of the topic '{topic.name}'"
    guess = near(topic.name, names) or _day_phrase(topic.name, terms, indexes)
    if guess:
        return f"{said}: did you mean '{guess}'?"
    return f"{said}: its ranking has nothing to match."


def _day_phrase(text: str, terms: list[Term], indexes: list[str]) -> str | None:
    """`text` with each word that is a typo of a word of the day written as that word; None
    when none is."""
    fixes = {t.words[0]: f[0].words[0] for t, f in zip(terms, typo_fixed(terms, indexes),
                                                       strict=True) if isinstance(f, list)}
    if not fixes:
        return None
    return _WORD.sub(lambda m: fixes.get(fold(m.group()), m.group()), " ".join(text.split()))
