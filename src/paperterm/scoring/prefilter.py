"""Two-stage LLM scoring (`--prefilter F`): only the local scorer's top part of the day is
sent to the model, plus papers by followed authors and papers like those the user starred
or keeps (`paperterm learn`). The rest keep their local score, marked "not sent (prefilter)".

F below 1 is a fraction of the day (0.3: the top 30%), from 1 up a count of papers (40);
"auto" (`PREFILTER_AUTO`) the smallest top part expected to hold 9 of 10 of the papers that
matter (`recall.choose`). The top part is the reader's default local ranking (the blend).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic
from paperterm.scoring.estimate import START_PER_PAPER
from paperterm.scoring.types import RunSummary, Score
from paperterm.topics.follows import Followed

if TYPE_CHECKING:
    from paperterm.store import Store

NOT_SENT = "not sent (prefilter)"
SIMILAR_MIN = 0.15  # cosine similarity (TF-IDF) to a positive that sends a paper too:
# on the shared days, 20 stars from other days send 4 close neighbours of 302 papers
QUERY_TERMS = 24  # a positive's most distinctive words find the candidates ...
CANDIDATE_MIN = 0.05  # ... whose part of the cosine reaches this; then the exact cosine
MAX_POSITIVES = 300  # the most recent stars and kept papers compared with the day
CHARS_PER_TOKEN = 4  # prompt estimate when the run sent nothing to measure it by
PAPER_OVERHEAD = 30  # tokens of markup around each paper in a request

_WORD = re.compile(r"[^\W\d_]{3,}")
_STOP = frozenset(re.findall(r"\w+", (
    "the and for with that this from are was were which their these those into than then "
    "also can has have not our its over such using use used via based new show shows paper "
    "propose proposed approach method methods results model models while where when how "
    "both between more most other each only well large across however they them we "
    "work study task tasks data performance")))


@dataclass(frozen=True)
class Positive:
    """A paper the user likes: its id (to skip itself on the day) and its text."""

    id: str
    title: str
    text: str


@dataclass
class Split:
    """Which papers go to the model, and the local scores of those that do not."""

    send: list[Paper]
    held: list[Score]
    why: dict[str, str] = field(default_factory=dict)  # sent beyond the top part: why
    recall_line: str | None = None  # what it sent and is expected to hold (run summary)


def quota(value: float, n: int) -> int:
    """How many of `n` papers the top part holds (all of them when `value` is 0)."""
    if value <= 0:
        return n
    if value < 1:
        return min(n, max(1, math.ceil(value * n)))
    return min(n, int(value))


def split_day(papers: Sequence[Paper], local: Sequence[Score], value: float, topic: Topic,
              positives: Sequence[Positive] = (), keep: frozenset[str] = frozenset(),
              ) -> Split:
    """Split the day: the local top `quota`, papers in `keep` (e.g. with a cached LLM
    score), followed authors and papers like the positives are sent; the rest are held."""
    order = {p.id: i for i, p in enumerate(papers)}
    by_id = {s.paper_id: s for s in local}
    ranked = sorted(papers, key=lambda p: (-(by_id[p.id].relevance or 0),
                                           -(by_id[p.id].fine or 0.0), order[p.id]))
    top = {p.id for p in ranked[:quota(value, len(papers))]}
    why: dict[str, str] = {}
    followed = Followed(topic.follow)
    for p in papers:
        authors = followed.authors_of(p)
        if authors and p.id not in top:
            why[p.id] = "followed: " + ", ".join(authors)
    for pid, title in similar_to(papers, positives).items():
        if pid not in top and pid not in why:
            why[pid] = f"like a paper you keep: {title}"
    send = [p for p in papers if p.id in top or p.id in why or p.id in keep]
    held = [replace(by_id[p.id], status="prefiltered",
                    reason=f"{NOT_SENT}; local: {by_id[p.id].reason}")
            for p in papers if p.id not in top and p.id not in why and p.id not in keep]
    return Split(send, held, why)


def extras_notice(split: Split) -> str | None:
    """What was sent beyond the local top part, for the run summary."""
    followed = sum(1 for w in split.why.values() if w.startswith("followed: "))
    liked = len(split.why) - followed
    if not split.why:
        return None
    return (f"prefilter: also sent {followed} paper{'s' * (followed != 1)} by followed "
            f"authors and {liked} like papers you starred, saved or learned")


def _terms(text: str) -> Counter[str]:
    return Counter(w for w in _WORD.findall(text.lower()) if w not in _STOP)


def similar_to(papers: Sequence[Paper], positives: Sequence[Positive]) -> dict[str, str]:
    """Papers of the day whose TF-IDF cosine similarity to a positive (not themselves) is at
    least SIMILAR_MIN: paper id -> the title of the most similar positive."""
    if not positives or not papers:
        return {}
    docs = [_terms(f"{p.title} {p.title} {p.abstract}") for p in papers]
    likes = [_terms(f"{q.title} {q.title} {q.text}") for q in positives]
    df: Counter[str] = Counter()
    for d in (*docs, *likes):
        df.update(d.keys())
    n = len(docs) + len(likes)
    idf = {w: math.log(1 + n / c) for w, c in df.items()}

    def vector(d: Counter[str]) -> dict[str, float]:
        v = {w: (1 + math.log(c)) * idf[w] for w, c in d.items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {w: x / norm for w, x in v.items()}

    # an inverted index over the day: a positive's most distinctive words find candidate
    # papers quickly; their exact cosine decides
    vectors = [vector(d) for d in docs]
    postings: dict[str, list[tuple[int, float]]] = {}
    for i, v in enumerate(vectors):
        for w, x in v.items():
            postings.setdefault(w, []).append((i, x))
    best = [0.0] * len(papers)
    title = [""] * len(papers)
    for q, like in zip(positives, likes, strict=True):
        lv = vector(like)
        partial: dict[int, float] = {}
        for w, x in sorted(lv.items(), key=lambda wx: -wx[1])[:QUERY_TERMS]:
            for i, y in postings.get(w, ()):
                partial[i] = partial.get(i, 0.0) + x * y
        for i, part in partial.items():
            if part < CANDIDATE_MIN or papers[i].id == q.id:
                continue
            v = vectors[i]
            small, big = (v, lv) if len(v) < len(lv) else (lv, v)
            sim = sum(x * big.get(w, 0.0) for w, x in small.items())
            if sim > best[i]:
                best[i], title[i] = sim, q.title
    return {p.id: " ".join(title[i].split()) for i, p in enumerate(papers)
            if best[i] >= SIMILAR_MIN}


def stored_positives(store: Store, topic: str) -> list[Positive]:
    """The papers the user starred or saved under `topic`, and those `paperterm learn`
    recorded for it."""
    liked = store.library.liked_ids(topic)[:MAX_POSITIVES]
    cached = store.library.cached_papers(liked)
    out = {pid: Positive(pid, cached[pid].title, cached[pid].abstract)
           for pid in liked if pid in cached}
    for q in store.library.positives(topic=topic):
        out.setdefault(q.id, Positive(q.id, q.title, q.abstract))
    return [q for q in out.values() if q.title or q.text][:MAX_POSITIVES]


def estimate_saved(summary: RunSummary, held: Sequence[Score], papers: Sequence[Paper],
                   ) -> None:
    """Fill the summary's prefilter fields: what sending the held papers would have cost,
    at this run's tokens per paper (else earlier runs', else an estimate from the text and
    `estimate.START_PER_PAPER`) and its price per token."""
    summary.prefiltered = len(held)
    if not held:
        return
    held_ids = {s.paper_id for s in held}
    held_chars = sum(len(p.title) + len(p.abstract) for p in papers if p.id in held_ids)
    asked = summary.scored
    if asked and summary.prompt_tokens:
        prompt, completion = summary.prompt_tokens / asked, summary.completion_tokens / asked
        per_token = (summary.cost / summary.total_tokens
                     if summary.cost is not None and summary.total_tokens else None)
        tokens = round(len(held) * (prompt + completion))
    else:
        tokens = held_chars // CHARS_PER_TOKEN + len(held) * (PAPER_OVERHEAD + START_PER_PAPER)
        earlier = summary.earlier_prompt_tokens + summary.earlier_completion_tokens
        per_token = (summary.earlier_cost / earlier
                     if summary.earlier_cost is not None and earlier else None)
    summary.saved_tokens = tokens
    summary.saved_cost = None if per_token is None else tokens * per_token


def prefilter_day(store: Store, day_key: str, papers: Sequence[Paper], topic: Topic,
                  value: float, model: str) -> Split:
    """`split_day` with what the store knows: the day's local scores (cached), the papers
    with a cached score from `model` (sent: they cost nothing) and the user's positives."""
    from paperterm.scoring import recall
    from paperterm.scoring.cache import cached_results
    from paperterm.scoring.local import rank_locally
    from paperterm.scoring.task import ScoringTask
    from paperterm.settings.scoring import PREFILTER_AUTO

    local = rank_locally(store, papers, topic, day=day_key) or []
    if value == PREFILTER_AUTO:
        name, choice = "auto", recall.choose(store, topic)
        value = choice.share
    else:  # a fixed part says what it is expected to hold too (it cut picks silently)
        name = f"{value:g}"
        choice = recall.expect(store, topic, quota(value, len(papers)) / max(len(papers), 1))
    keep: frozenset[str] = frozenset()
    positives: list[Positive] = []
    try:
        keep = frozenset(cached_results(store.scores, ScoringTask(topic), papers, model))
        positives = stored_positives(store, topic.name)
    except Exception:  # an unreadable cache only sends fewer extras
        pass
    split = split_day(papers, local, value, topic, positives, keep)
    line = recall.summary_line(len(split.send), len(papers), choice.expected)
    split.recall_line = f"prefilter {name}: {line} (calibrated on {choice.source})"
    return split
