"""The local score the reader shows: keywords (BM25), closeness to the topic's areas
(embeddings), closeness to what it turns down, cue words for foundational work (topics that
ask for it) and what the user taught it (a per-topic model), blended into one calibrated fine
score.

Each part is on a fixed scale, so the blend is too: keyword evidence through the BM25 curve,
with how common each word is measured on a fixed reference (the bundled sample day);
closeness as the paper's similarity to its closest area against the same reference (its
median is 0, its 99th percentile 1); what the model learned as a lift up or down relative to
the reference. The same paper gets the same value whatever else the day holds.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from paperterm.models import Paper, Topic
from paperterm.scoring.local import keywords
from paperterm.scoring.local.areas import topic_areas, turned_down
from paperterm.scoring.local.cues import Cues, cues
from paperterm.scoring.local.follow import boost_followed
from paperterm.scoring.local.learned import LIKE_MIN_SIMILARITY, LearnedModel, train
from paperterm.scoring.local.prior import PRIOR_WEIGHT, prior
from paperterm.scoring.local.semantic import embed_texts, paper_embeddings
from paperterm.scoring.types import Score

if TYPE_CHECKING:
    from paperterm.store import Example, Store

KEYWORDS = 0.6  # share of the keyword evidence in the blend
CLOSENESS = 0.4  # share of the closeness to the topic's closest area
AGAINST = 0.3  # how far closeness to what the topic turns down lowers a paper
FLOOR, CEILING = 0.05, 0.95  # the blend is bent (not cut) below and above these
LEARNED = 0.9  # the most what the model learned moves a paper towards 1 (or towards 0)
LEARNED_HALF = 20  # the marks at which it moves a paper half that far (`learned_weight`)
DISMISSED = 0.3  # the least a paper marked not interested is lowered by (of its value)
PRIOR_HALF = 40  # ... and the marks more a topic with a prior (built-in moe) asks for
CLOSE_REASON = 0.6  # closeness from which the reason says so
TOP_VALUE = 1.3  # the blend's value (before the bend) shown as 10
SHORT_TEXT_WORDS = 6  # an area of fewer words is short: its closeness is anchored ...
SHORT_TEXT_SPREAD = 0.2  # ... at least this similarity above the reference's median is 100%
LOOSE_CLOSE = 0.6  # closeness below which a paper is only loosely close (CLOSE_REASON) ...
# ... or below the closeness the papers matching the topic's words have that day (`loose_below`)
LOOSE_MAX, LOOSE_SLOPE = 0.5, 0.005  # such a paper matching nothing: at most 4
LIKE_MIN_LIFT = 0.3  # the learned lift from which the reason names the closest positive

_background_lock = threading.Lock()
_background: np.ndarray | None = None
_reference: list[Paper] = []


def reference_papers() -> list[Paper]:
    """The bundled sample day (244 real papers): the fixed reference for how common a word
    is and how close a paper is to a topic."""
    with _background_lock:
        if not _reference:
            from paperterm.sources.feeds import parse_feed
            from paperterm.sources.loader import sample_bytes

            _reference.extend(parse_feed(sample_bytes()).papers)
        return _reference


def background(store: Store) -> np.ndarray:
    """Embeddings of the reference papers (cached in the store like any paper's, and in
    this process)."""
    global _background
    papers = reference_papers()
    with _background_lock:
        if _background is None:
            vectors = paper_embeddings(store, papers)
            if vectors is None:
                return np.zeros((0, 0), dtype=np.float32)
            _background = vectors
        return _background


def closest(vectors: np.ndarray, texts: list[str], bg: np.ndarray) -> np.ndarray:
    """Per paper: its similarity to the closest of `texts`, each measured against the
    background (0 at its median, 1 at its 99th percentile and above)."""
    tv = embed_texts(texts) if texts else None
    if tv is None or not len(bg) or not len(tv):
        return np.zeros(len(vectors), dtype=np.float32)
    ref = bg @ tv.T
    low, high = np.median(ref, axis=0), np.percentile(ref, 99, axis=0)
    # a short text ("mixture of experts") is close to few reference papers, so its 99th
    # percentile sits near its median and any paper near it would be 100% close: anchored
    short = np.array([len(t.split()) < SHORT_TEXT_WORDS for t in texts])
    spread = np.where(short, np.maximum(high - low, SHORT_TEXT_SPREAD), high - low)
    sims = (vectors @ tv.T - low) / np.maximum(spread, 1e-6)
    return np.clip(sims, 0.0, 1.0).max(axis=1).astype(np.float32)


def closeness(vectors: np.ndarray, topic: Topic, bg: np.ndarray) -> np.ndarray:
    """Per paper: closeness to the topic's closest area (`areas.topic_areas`)."""
    return closest(vectors, topic_areas(topic), bg)


def against(vectors: np.ndarray, topic: Topic, bg: np.ndarray) -> np.ndarray:
    """Per paper: closeness to the closest part of what the topic turns down (0 without)."""
    return closest(vectors, turned_down(topic), bg)


def bounded(x: float) -> float:
    """`x` kept inside (0, 1) without ties: unchanged from FLOOR to CEILING, beyond them
    bent smoothly towards 0 and 1 (so a paper lowered below 0 still ranks by how far)."""
    if x < FLOOR:
        return FLOOR * math.exp((x - FLOOR) / FLOOR)
    if x > CEILING:
        room = 1 - CEILING
        return CEILING + room * (1 - math.exp(-(x - CEILING) / room))
    return x


def unbent(fine: float) -> float:
    """The blend's value before `bounded` bent it above CEILING (kept finite)."""
    if fine <= CEILING:
        return fine
    room = 1 - CEILING
    return CEILING - room * math.log(max(1 - (fine - CEILING) / room, 1e-12))


def shown_relevance(fine: float, matched: bool = True) -> int:
    """The 1-10 relevance a blended paper is shown with (the reader, `score`, the digest,
    `eval`): 1 + 9 x its value before the bend, TOP_VALUE and above 10. Monotone in the
    fine score, so the order is the fine score's; 10 is the top few percent of a day (on the
    development days, 3%; it was 10% when 10 began at 0.94 of the bent value)."""
    if not matched:
        return 1
    return min(10, max(2, 1 + round(9 * unbent(fine) / TOP_VALUE)))


def lifted(base: float, lift: float, weight: float) -> float:
    """`base` moved towards 1 by `weight` x `lift` of its distance (`lift` > 0), or towards
    0 (`lift` < 0): a paper already near the top moves little."""
    return base + weight * (1 - base) * lift if lift > 0 else base + weight * base * lift


def learned_weight(evidence: int, has_prior: bool = False) -> float:
    """How far the learned lift moves a paper, from the user's marks it learned from (stars,
    saves, `learn` records, "not interested"): 5 marks nudge (0.18), 20 weigh as much as the
    topic's own parts (0.45), 80 lead (0.72); never more than LEARNED. A topic with a prior
    (its own direction learned from a judge's picks) asks for PRIOR_HALF marks more before
    the user's weigh as much: measured on the development days (the learning case and
    `eval --curve`, time order), the built-in topic then ranks no day worse at any number of
    stars (with 0 or 20 marks more it did, at 80 and at 40 stars)."""
    n = max(evidence, 0)
    return LEARNED * n / (n + LEARNED_HALF + (PRIOR_HALF if has_prior else 0))


def blend(bm25: Sequence[tuple[Score, float]], close: np.ndarray,
          learned: np.ndarray | None = None, likes: Sequence[str | None] = (),
          away: np.ndarray | None = None, cue: Sequence[Cues] = (),
          prior_lift: np.ndarray | None = None, learned_by: float = LEARNED,
          loose_cap: bool = True) -> list[Score]:
    """The blended scores: `bm25` from `keywords.scores_and_exclusions` (the exclusions damp the
    closeness too), `close` per paper in [0, 1], `learned` the model's lift per paper in
    [-1, 1] (None without a model), `likes` "your starred: <title>" per paper, for the
    reason; `away` the closeness to what the topic turns down, `cue` the cue words found (a
    foundational topic's), `prior_lift` the topic's prior per paper in [-1, 1] (None
    without one), `learned_by` how far the learned lift moves a paper (`learned_weight`);
    `loose_cap`: a paper matching nothing and only loosely close (`loose_below`) is kept at
    most 4 (a topic carried by phrases, `loose_capped`)."""
    out = []
    close = close * np.array([factor for _, factor in bm25], dtype=np.float32)
    own = [bool(s.fine) and not keywords.related_only(s) for s, _ in bm25]
    loose = loose_below(close, own) if loose_cap else 0.0
    for i, (s, _) in enumerate(bm25):
        base = KEYWORDS * (s.fine or 0.0) + CLOSENESS * float(close[i])
        if away is not None:
            base -= AGAINST * float(away[i])
        reasons = [s.reason]
        if float(close[i]) >= CLOSE_REASON:
            reasons.append(f"close to the topic ({float(close[i]):.0%})")
        if i < len(cue):
            base += cue[i].lift
            if cue[i].foundational:
                reasons.append("foundational: " + ", ".join(cue[i].foundational[:3]))
            if cue[i].application:
                reasons.append("application: " + ", ".join(cue[i].application[:3]))
        matched = base > 0
        if loose_cap and not own[i] and float(close[i]) < loose and base > LOOSE_MAX:
            # nothing of the topic's own words matched and only loosely close: cues and
            # related terms alone never carry it
            base = LOOSE_MAX + LOOSE_SLOPE * (base - LOOSE_MAX)
        base = bounded(base)
        if prior_lift is not None:
            base = lifted(base, float(prior_lift[i]), PRIOR_WEIGHT)
        if learned is not None:  # a lift towards 1 or a drop towards 0, by what it learned
            base = lifted(base, float(learned[i]), learned_by)
            like = likes[i] if i < len(likes) else None
            if like:
                reasons.insert(0, f"like {like}")
        reason = "; ".join(r for r in reasons if r != "no match" or len(reasons) == 1)
        out.append(Score(s.paper_id, s.version, shown_relevance(base, matched), None,
                         reason, "scored", fine=base))
    return out


def loose_below(close: np.ndarray, matched: Sequence[bool]) -> float:
    """The closeness below which a paper matching none of the topic's words is only loosely
    close: LOOSE_CLOSE, or the median closeness of the papers ranked with it that do match
    them when that is higher; above every closeness when none does. Closeness to a short
    area saturates (a paper on LLM reasoning is 78% close to "speculative decoding"), so
    it counts only next to how close the papers matching the topic's words are that day:
    a paper matching nothing is shown above 4 only when it is at least as close as they
    typically are."""
    near = [float(c) for c, m in zip(close, matched, strict=True) if m]
    if not near:
        return math.inf
    return max(LOOSE_CLOSE, float(np.median(near)))


def loose_capped(topic: Topic) -> bool:
    """Whether a paper matching nothing of `topic` and only loosely close is kept at most 4:
    for a topic carried by its phrases (free text, prose, pasted criteria), whose closeness
    to a few words saturates. A topic with keywords of its own (the built-in ones, a keywords
    file) is not capped: its keywords say what matches, and on the built-in topic the cap
    cost a pick left out (`measure_local.py --lodo`)."""
    return not topic.keywords


_models: dict[tuple[object, ...], LearnedModel | None] = {}  # the last few trained
_MODELS_MAX = 8


def _trained(store: Store, examples: Sequence[Example],
             bg: np.ndarray) -> LearnedModel | None:
    """The model of these examples, trained once per process for each set of them."""
    key = (id(bg), bg.shape, *((e.id, e.kind, e.title, e.abstract) for e in examples))
    if key in _models:
        return _models[key]
    texts = [Paper(e.id, None, e.title, (), e.abstract, (), "") for e in examples]
    x = paper_embeddings(store, texts)
    if x is None:
        return None
    if len(_models) >= _MODELS_MAX:
        _models.clear()
    model = _models[key] = train(examples, x, bg)
    return model


def _learned(store: Store, examples: Sequence[Example], vectors: np.ndarray, ids: list[str],
             bg: np.ndarray, has_prior: bool) -> tuple[np.ndarray | None, list[str | None],
                                                       float]:
    """The learned lift per paper, the reason's closest positive, and the lift's weight
    (`learned_weight`). A paper marked not interested goes down by at least DISMISSED of
    its value, whatever the model makes of it (one "d" against a similar star would barely
    move it)."""
    if not examples:
        return None, [], 0.0
    model = _trained(store, examples, bg)
    if model is None:
        return None, [], 0.0
    lift = model.lift(vectors)
    weight = learned_weight(model.evidence, has_prior)
    dismissed = {e.id for e in examples if e.kind == "dismissed"}
    for i, pid in enumerate(ids):
        if pid in dismissed:
            lift[i] = -max(1.0, DISMISSED / max(weight, 1e-6))
    best, sims = model.nearest(vectors, ids)
    likes = [model.labels[int(b)] if up >= LIKE_MIN_LIFT and s >= LIKE_MIN_SIMILARITY
             else None for b, s, up in zip(best, sims, lift, strict=True)]
    return lift, likes, weight


def blended(store: Store, papers: Sequence[Paper], topic: Topic,
            examples: Sequence[Example]) -> list[Score] | None:
    """The blend of `papers` (follows boosted), computed: loads the embedding model (call
    off the UI thread). None without the embedding model."""
    vectors = paper_embeddings(store, papers)
    if vectors is None:
        return None
    bm25 = keywords.scores_and_exclusions(papers, topic, reference_papers())
    bg = background(store)
    prior_lift = prior(vectors, topic, bg)
    lift, likes, weight = _learned(store, examples, vectors, [p.id for p in papers], bg,
                                   prior_lift is not None)
    own = [*topic.keywords, *topic.phrases, *keywords.topic_related(topic)]
    cue = cues(papers, own) if topic.foundational else []
    return boost_followed(blend(bm25, closeness(vectors, topic, bg), lift, likes,
                                against(vectors, topic, bg), cue, prior_lift, weight,
                                loose_capped(topic)),
                          papers, topic)
