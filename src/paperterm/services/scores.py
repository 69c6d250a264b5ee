"""One score and one order per paper, wherever a paper is shown.

The score of a paper for a topic is the current model's, if cached for this paper version,
topic and model; else the local ranking's (the learned blend). Each resolved score says
where it comes from (`provenance`: the model's name, "local", or "prefilter" when a model is
configured but `--prefilter` keeps local scores for the papers it does not send).

The order: relevance, then novelty, then the local scorer's fine score (best first), then
the announcement order; papers without a score last. The day list, `score --json`, the
digest and `digest --send` rank by `rank_key`/`ranked`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic
from paperterm.scoring.types import Score, ScoringSettings, has_score

if TYPE_CHECKING:
    from paperterm.store import Store

LOCAL = "local"
PREFILTER = "prefilter"

LocalScores = Callable[[Sequence[Paper]], Sequence[Score]]


@dataclass(frozen=True)
class ShownScore:
    """The score a paper is shown with, and where it comes from."""

    score: Score
    provenance: str  # the model's name, LOCAL or PREFILTER

    @property
    def relevance(self) -> int | None:
        return self.score.relevance


def score_tuple(relevance: int | None, novelty: int | None, fine: float | None,
                ) -> tuple[int, int, float]:
    """What ranks a scored paper, greater is better: relevance, novelty, fine score."""
    return (relevance or 0, novelty or 0, fine or 0.0)


def rank_key(score: Score | None, order: int) -> tuple[bool, int, int, float, int]:
    """The sort key of a paper in the one order (ascending = best first): papers with a
    score first, by `score_tuple` descending, then by announcement `order`."""
    if not has_score(score):
        return (True, 0, 0, 0.0, order)
    assert score is not None
    r, n, f = score_tuple(score.relevance, score.novelty, score.fine)
    return (False, -r, -n, -f, order)


def ranked(papers: Sequence[Paper], scores: Mapping[str, Score]) -> list[Paper]:
    """The scored papers, best first (`rank_key`); papers without a score are left out."""
    order = {p.id: i for i, p in enumerate(papers)}
    scored = [p for p in papers if has_score(scores.get(p.id))]
    return sorted(scored, key=lambda p: rank_key(scores.get(p.id), order[p.id]))


def default_ranks(papers: Sequence[Paper], scores: Sequence[Score]) -> dict[str, int]:
    """Paper id -> rank (1 = top) in the one order (`rank_key`), as the reader shows by
    default; unscored papers last, in announcement order."""
    by_id = {s.paper_id: s for s in scores}
    order = sorted(range(len(papers)), key=lambda i: rank_key(by_id.get(papers[i].id), i))
    return {papers[i].id: rank for rank, i in enumerate(order, 1)}


def local_provenance(settings: ScoringSettings) -> str:
    """What a local score stands for: the ranking itself, or the prefilter's stand-in."""
    return PREFILTER if settings.use_llm and settings.prefilter else LOCAL


def provenance(score: Score, settings: ScoringSettings) -> str | None:
    """Where a score of the day's scoring run (`services.scoring`) comes from: the model,
    PREFILTER (not sent, its local score kept) or LOCAL; None for a paper left unscored."""
    if not has_score(score):
        return None
    if score.status == "prefiltered":
        return PREFILTER
    return settings.model if settings.use_llm else LOCAL


def resolve(papers: Sequence[Paper], settings: ScoringSettings, cached: Mapping[str, Score],
            local: Mapping[str, Score]) -> dict[str, ShownScore]:
    """Paper id -> its shown score: the model's cached one (`cached`, already for this
    model and topic), else the local one; papers with neither are left out."""
    out: dict[str, ShownScore] = {}
    fallback = local_provenance(settings)
    for p in papers:
        model = cached.get(p.id)
        if settings.use_llm and model is not None and model.relevance is not None:
            out[p.id] = ShownScore(model, settings.model)
        elif (mine := local.get(p.id)) is not None:
            out[p.id] = ShownScore(mine, fallback)
    return out


def shown_scores(store: Store, papers: Sequence[Paper], topic: Topic,
                 settings: ScoringSettings, *, local: LocalScores | None = None,
                 ) -> dict[str, ShownScore]:
    """`resolve` with what the store holds: the current model's cached scores, and the
    local ranking of the papers without one (`local`, default: `scoring.local.rank_locally`
    for papers of any day: the learned blend, as the day list shows without a model; with a
    model, the keyword scores, as the day list shows for papers the model did not score,
    and no embedding model is loaded for them)."""
    cached: dict[str, Score] = {}
    if settings.use_llm and papers:
        from paperterm.scoring.cache import cached_scores

        try:
            cached = cached_scores(store.scores, papers, topic, settings)
        except Exception:  # an unreadable cache: local scores instead
            cached = {}
    rest = [p for p in papers if p.id not in cached]
    if local is None:
        from paperterm.scoring.local import rank_locally

        def local(ps: Sequence[Paper]) -> Sequence[Score]:
            return rank_locally(store, ps, topic, keywords_only=settings.use_llm) or []

    local_by_id = {s.paper_id: s for s in local(rest)} if rest else {}
    return resolve(papers, settings, cached, local_by_id)
