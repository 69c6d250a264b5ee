"""A topic's areas: the parts of its description the closeness to the topic is measured
against, each on its own (a paper close to one area is close to the topic), and the parts
it turns down.

A description written as "Relevant: <area>; <area>; ... Not relevant: <part>; <part>" has
an area per part between semicolons; one without semicolons is a single area (its name,
description and keywords, as one text). No numpy here: the blend embeds them.
"""

from __future__ import annotations

import re

from paperterm.models import Topic

_NOT_RELEVANT = re.compile(r"\b(?:not relevant|irrelevant|exclude[sd]?)\s*:", re.IGNORECASE)
_RELEVANT = re.compile(r"^\s*relevant\s*:", re.IGNORECASE)
MIN_AREA_WORDS = 3  # a shorter part is a term, not an area


def _parts(text: str) -> list[str]:
    parts = [" ".join(p.split()) for p in text.split(";")]
    return [p for p in parts if len(p.split()) >= MIN_AREA_WORDS]


def split_description(description: str) -> tuple[str, str]:
    """The description's relevant part (without its "Relevant:") and its "Not relevant:"
    part ("" when it has none)."""
    m = _NOT_RELEVANT.search(description)
    relevant, negative = (description[: m.start()], description[m.end():]) if m else (
        description, "")
    return _RELEVANT.sub("", relevant).strip(), negative.strip()


def topic_areas(topic: Topic) -> list[str]:
    """The texts a paper's closeness to `topic` is measured against (the best one counts):
    the areas it was understood to have (`topics/understand.py`), else its description's."""
    if topic.areas:
        return list(topic.areas)
    relevant, _ = split_description(topic.description)
    parts = _parts(relevant)
    if len(parts) >= 2:
        return parts
    return [" ".join([topic.name, topic.description, *topic.keywords])]


def turned_down(topic: Topic) -> list[str]:
    """The texts of what `topic` turns down (its "Not relevant:" part, by semicolons); none
    without such a part or with a single short one; those it was understood to turn down
    when it has understood areas."""
    if topic.areas or topic.turned_down:
        return list(topic.turned_down)
    _, negative = split_description(topic.description)
    return _parts(negative)
