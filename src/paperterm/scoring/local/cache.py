"""The local ranking's cache (per day, topic criteria and follows, scorer version and set of
papers) and its keys, without numpy: the reader asks it at first paint, before anything
heavy is imported. A store that cannot be read or written is ignored: only slower."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic
from paperterm.scoring.local import keywords
from paperterm.scoring.local.follow import local_key
from paperterm.scoring.types import Score

if TYPE_CHECKING:
    from paperterm.store import Example, Store

BLEND_VERSION = "blend-7"  # bump when the blend would change: old cache rows go unused
MAX_DAYS_READ = 30  # cached_by_paper reads at most this many days' rankings
EMBEDDING_MODEL = "wordllama-l2_supercat-256"  # semantic.MODEL_KEY (kept equal by a test)


def papers_fingerprint(papers: Sequence[Paper]) -> str:
    """A hash of which papers (id and version) a set of scores was made for."""
    digest = hashlib.sha256()
    for p in papers:
        digest.update(f"{p.id}v{p.version}\n".encode())
    return digest.hexdigest()[:16]


def examples_fingerprint(examples: Sequence[Example]) -> str:
    """Which examples a model would be trained on."""
    digest = hashlib.sha256()
    for e in sorted(examples, key=lambda e: e.id):
        digest.update(f"{e.id}:{e.kind}\n".encode())
    return digest.hexdigest()[:12]


def blend_prefix() -> str:
    """The blend's scorer version without what it was taught: its parts' versions."""
    return f"{BLEND_VERSION}/{keywords.SCORER_VERSION}/{EMBEDDING_MODEL}/"


def blend_version(examples: Sequence[Example]) -> str:
    """The blend's scorer version: its parts' versions and what it was taught."""
    return blend_prefix() + examples_fingerprint(examples)


def training_examples(store: Store, topic: Topic) -> list[Example]:
    """What the user taught the ranking for `topic` (none without a readable store)."""
    with contextlib.suppress(Exception):
        return store.marks.training_examples(topic.name)
    return []


def cached(store: Store, day: str, papers: Sequence[Paper], topic: Topic,
           version: str, *, newest_of: bool = False) -> list[Score] | None:
    """The cached scores of `papers` for this day, topic and scorer version, or None.
    `newest_of`: `version` is a prefix; the newest such ranking of these papers wins."""
    rows = None
    with contextlib.suppress(Exception):  # an unreadable cache is only a slower start
        rows = store.scores.local_scores(day, local_key(topic), version,
                                         papers_fingerprint(papers), newest_of=newest_of)
    if rows is None:
        return None
    return [Score(i, v, r, None, why, "scored", fine=f) for i, v, r, why, f in rows]


def save(store: Store, day: str, papers: Sequence[Paper], topic: Topic, version: str,
         scores: Sequence[Score]) -> None:
    if not papers:  # nothing to rank (the loading screen's empty day): nothing to keep
        return
    with contextlib.suppress(Exception):  # not cached: computed again next time
        store.scores.save_local_scores(day, local_key(topic), version, papers_fingerprint(papers),
                                       [(s.paper_id, s.version, s.relevance or 1, s.reason,
                                         s.fine or 0.0) for s in scores])


def cached_by_paper(store: Store, papers: Sequence[Paper], topic: Topic,
                    version: str, *, newest_of: bool = False) -> dict[str, Score]:
    """Paper id -> its score in a cached ranking of the day it was announced on, for this
    topic and scorer version, where there is one for that very paper version: a version
    whose values do not depend on the rest of the day (the blend's) is then not computed
    again for papers of any days (a search, the starred list). Papers of more than
    MAX_DAYS_READ days: none (reading every day's ranking would cost more than ranking
    them). `newest_of`: `version` is a prefix; the newest ranking of the day wins."""
    rows: dict[str, tuple] = {}
    with contextlib.suppress(Exception):  # an unreadable cache: computed instead
        days = set(store.library.paper_days([p.id for p in papers]).values())
        if len(days) > MAX_DAYS_READ:
            return {}
        rows = store.scores.scores_in_days(sorted(days), local_key(topic), version,
                                           newest_of=newest_of)
    out: dict[str, Score] = {}
    for p in papers:
        row = rows.get(p.id)
        if row is not None and row[1] == p.version:
            out[p.id] = Score(p.id, row[1], row[2], None, row[3], "scored", fine=row[4])
    return out
