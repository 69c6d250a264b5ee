"""Which day a topic switch shows: a topic with its own `categories` is read on the
announcements of those categories, so switching to it loads the same day for them."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from paperterm.day.session import Session
from paperterm.models import Topic

if TYPE_CHECKING:
    from paperterm.services.days import LoadRequest


def topic_categories(session: Session, topic: Topic) -> list[str]:
    """The categories `topic` is read on: its own, else the config's."""
    return list(topic.categories or session.config.categories)


def reload_for_topic(session: Session, topic: Topic) -> LoadRequest | None:
    """The request that loads the shown day for `topic`'s categories; None when the day
    stays: same categories, `--categories` given, or not a day of categories (a file, the
    sample, a search, the library)."""
    req = session.request
    if req is None or session.categories_fixed:
        return None
    if req.feed is not None or req.sample or req.query or req.since:
        return None
    wanted = topic_categories(session, topic)
    if sorted(wanted) == sorted(req.categories):
        return None
    return dataclasses.replace(req, categories=wanted, refresh=False)
