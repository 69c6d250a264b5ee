"""The followed-author boost of the local score: a paper by someone the user follows moves
up FOLLOW_BOOST points (at most to 10) and its reason names them. The local scorer calls
`boost_followed` on its results and keys its cache with `local_key`."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace

from paperterm.models import Paper, Topic
from paperterm.scoring.types import Score
from paperterm.topics.follows import Followed, name_key

FOLLOW_BOOST = 3


def followed_reason(authors: Sequence[str]) -> str:
    return "followed: " + ", ".join(authors)


def boost_followed(scores: Sequence[Score], papers: Sequence[Paper], topic: Topic,
                   ) -> list[Score]:
    """`scores` (one per paper, same order) with the boost applied."""
    followed = Followed(topic.follow)
    if not followed:
        return list(scores)
    out = []
    for score, paper in zip(scores, papers, strict=True):
        authors = followed.authors_of(paper)
        if authors and score.relevance is not None:
            score = replace(score, relevance=min(10, score.relevance + FOLLOW_BOOST),
                            reason=f"{followed_reason(authors)}; {score.reason}")
        out.append(score)
    return out


def local_key(topic: Topic) -> str:
    """The topic's cache key for local scores: its criteria, and whom it follows."""
    if not topic.follow:
        return topic.fingerprint
    names = "\n".join(sorted(name_key(n) for n in topic.follow))
    return f"{topic.fingerprint}+{hashlib.sha256(names.encode()).hexdigest()[:8]}"
