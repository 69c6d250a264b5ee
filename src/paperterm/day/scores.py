"""One score and one order per paper, wherever a paper is shown.

The score of a paper for a topic is the current model's, if cached for this paper version,
topic and model; else the local ranking's (the learned blend). Each resolved score says
where it comes from (`provenance`: the model's name, "local", or "prefilter" when a model is
configured but `--prefilter` keeps local scores for the papers it does not send). In the
library (search, Similar, Starred) without a model, a paper shows its day's cached blend;
else the keyword score its day list shows while the blend is on its way ("keywords
(provisional)"); a paper whose day was never ranked for the topic has no score yet. No
embedding model is loaded for a search.

The order: relevance, then novelty, then the local scorer's fine score (best first), then
the announcement order; papers without a score last. A paper a model run did not reach
(budget, failed batches) keeps the day's local value, the blend `rank_locally` gives the
same day without a model (`stand_in_ranking`, `with_stand_ins`, `score_from` NOT_REACHED),
as the day list shows it ("~7"), and ranks by it. The day list, `score
--json`, the digest, `digest --send` and `eval` rank by `rank_key`/`ranked`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from paperterm.models import Paper, Topic
from paperterm.scoring.types import Score, has_score
from paperterm.settings import ScoringSettings

if TYPE_CHECKING:
    from paperterm.store import Store

LOCAL = "local"
PREFILTER = "prefilter"
PROVISIONAL = "keywords (provisional)"  # the keyword score, until the paper's day is ranked
# a paper the model did not reach (budget, failed batches) keeps its local value (the day's
# blend), as the day list shows it ("~7"): ranked by it everywhere, and said so
NOT_REACHED = "local (not reached by the model)"

LocalScores = Callable[[Sequence[Paper]], Sequence[Score]]


class ShownScore(NamedTuple):
    """The score a paper is shown with, and where it comes from."""

    score: Score
    provenance: str  # the model's name, LOCAL or PREFILTER

    @property
    def relevance(self) -> int | None:
        return self.score.relevance

    @property
    def provisional(self) -> bool:
        """A keyword score standing in for the blend its day has not been ranked with."""
        return self.provenance == PROVISIONAL


def score_text(relevance: int | None, shown: ShownScore | None) -> str:
    """A relevance as the library's lists show it: right in two columns, "~7" when
    provisional (as the day list shows a stand-in), " ·" for none."""
    if relevance is None:
        return " ·"
    return f"~{relevance}" if shown is not None and shown.provisional else f"{relevance:>2}"


def score_tuple(relevance: int | None, novelty: int | None, fine: float | None,
                ) -> tuple[int, int, float]:
    """What ranks a scored paper, greater is better: relevance, novelty, fine score."""
    return (relevance or 0, novelty or 0, fine or 0.0)


def is_stand_in(score: Score | None) -> bool:
    """A paper the model did not reach, shown and ranked by its local value
    (`with_stand_ins`)."""
    return score is not None and score.status == "unscored" and score.relevance is not None


def rankable(score: Score | None) -> bool:
    """A score the one order ranks by: a judgement (`has_score`) or a local stand-in."""
    return has_score(score) or is_stand_in(score)


def with_stand_ins(scores: Mapping[str, Score], local: Mapping[str, Score],
                   ) -> dict[str, Score]:
    """`scores` where each paper the model did not reach (no score, or "unscored")
    keeps its local value from `local`: relevance, fine score and reason, no novelty (as
    the day list shows it, "~7"); still "unscored" (counted so, with its error) but ranked
    by that value (`rank_key`). Papers with neither stay as they are."""
    out = dict(scores)
    for pid, mine in local.items():
        theirs = out.get(pid)
        if mine.relevance is None or has_score(theirs) or (
                theirs is not None and theirs.status not in ("unscored", "queued")):
            continue
        error = (theirs.error if theirs is not None else None) or "not scored by the model"
        out[pid] = Score(pid, mine.version, mine.relevance, None, mine.reason, "unscored",
                         error, mine.fine)
    return out


def stand_in_ranking(store: Store, papers: Sequence[Paper], topic: Topic, day: str, *,
                     compute: bool = True) -> list[Score] | None:
    """The local value of a day's papers the model did not reach: the day's blend, as the
    same day shows without a model (`rank_locally` over all of `papers`, cached per day;
    the keyword scores without the embedding model). The one stand-in of `score --json`,
    the digest and the reader (its ranking process makes this same call). `compute` False:
    only what is cached (None when it is not)."""
    from paperterm.scoring.local import rank_locally

    return rank_locally(store, papers, topic, day=day or None, compute=compute)


def local_stand_ins(store: Store, papers: Sequence[Paper], topic: Topic,
                    scores: Mapping[str, Score], *, day: str = "") -> dict[str, Score]:
    """`with_stand_ins` with the day's local values (`stand_in_ranking`: the blend over all
    the day's `papers`) under the papers the model did not reach."""
    if all(has_score(scores.get(p.id)) for p in papers):
        return dict(scores)
    try:
        local = stand_in_ranking(store, papers, topic, day) or []
    except Exception:  # no local value: the papers stay unscored, last
        local = []
    return with_stand_ins(scores, {s.paper_id: s for s in local})


def rank_key(score: Score | None, order: int) -> tuple[bool, int, int, float, int]:
    """The sort key of a paper in the one order (ascending = best first): papers with a
    score (or a local stand-in, `is_stand_in`) first, by `score_tuple` descending, then by
    announcement `order`."""
    if not rankable(score):
        return (True, 0, 0, 0.0, order)
    assert score is not None
    r, n, f = score_tuple(score.relevance, score.novelty, score.fine)
    return (False, -r, -n, -f, order)


def ranked(papers: Sequence[Paper], scores: Mapping[str, Score]) -> list[Paper]:
    """The scored papers (and local stand-ins), best first (`rank_key`); papers without a
    score are left out."""
    order = {p.id: i for i, p in enumerate(papers)}
    scored = [p for p in papers if rankable(scores.get(p.id))]
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
    PREFILTER (not sent, its local score kept), LOCAL, or NOT_REACHED (a local stand-in);
    None for a paper left unscored."""
    if is_stand_in(score):
        return NOT_REACHED
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
    local ranking of the papers without one. `local` (a stand-in ranking) replaces the
    default: with a model, the blend of each paper's ranked day (what the day list and
    `score --json` show for a paper the model did not score, and the prefilter keeps for
    the papers it does not send), else the keyword scores; without a model,
    `library_local` (the blend of each paper's ranked day, else its provisional keyword
    score, else none yet). No embedding model is
    loaded either way."""
    cached: dict[str, Score] = {}
    if settings.use_llm and papers:
        from paperterm.scoring.cache import cached_scores

        try:
            cached = cached_scores(store.scores, papers, topic, settings)
        except Exception:  # an unreadable cache: local scores instead
            cached = {}
    rest = [p for p in papers if p.id not in cached]
    if local is None and not settings.use_llm:
        return {**resolve(papers, settings, cached, {}), **library_local(store, rest, topic)}
    kept: dict[str, ShownScore] = {}
    if local is None:
        # the papers without the model's score keep their day's blend, as the day list and
        # `score --json` show them (the prefilter's, or a paper the model did not reach:
        # `stand_in_ranking`), not the keyword score; a day never ranked: keywords
        fallback = local_provenance(settings)
        kept = {pid: ShownScore(s.score, fallback)
                for pid, s in library_local(store, rest, topic).items()
                if s.provenance == LOCAL}
        rest = [p for p in rest if p.id not in kept]
    if local is None:
        from paperterm.scoring.local import rank_locally

        def local(ps: Sequence[Paper]) -> Sequence[Score]:
            return rank_locally(store, ps, topic, keywords_only=True) or []

    local_by_id = {s.paper_id: s for s in local(rest)} if rest else {}
    return {**resolve(papers, settings, cached, local_by_id), **kept}


def library_local(store: Store, papers: Sequence[Paper], topic: Topic,
                  ) -> dict[str, ShownScore]:
    """The local scores of papers of any days as their day lists show them now: the blend
    from the cached ranking of the paper's day (LOCAL), with what the user taught it now, else
    the day's newest blend (marks given since its ranking: a star, papers read; the list
    shows that one until the day is ranked again); else, its day never blended, the keyword
    score its day list shows first while the blend is on its way (PROVISIONAL). A paper
    whose day was never ranked for the topic has no score yet (as a large day's list shows
    it until its ranking comes) and is left out. The embedding model is never loaded: a
    search answers in a fraction of a second whatever days its hits are of.

    A topic that follows authors the days were ranked without (followed since): the
    ranking without the follows, with their boost (`boost_followed`), as the day list
    shows it once ranked again."""
    out = _library_local(store, papers, topic)
    rest = [p for p in papers if p.id not in out]
    if rest and topic.follow:
        from dataclasses import replace

        from paperterm.scoring.local.follow import boost_followed

        plain = _library_local(store, rest, replace(topic, follow=()))
        found = [p for p in rest if p.id in plain]
        boosted = boost_followed([plain[p.id].score for p in found], found, topic)
        out.update((p.id, ShownScore(b, plain[p.id].provenance))
                   for p, b in zip(found, boosted, strict=True))
    return out


def _library_local(store: Store, papers: Sequence[Paper], topic: Topic,
                   ) -> dict[str, ShownScore]:
    from paperterm.scoring.local import cache, keywords

    if not papers:
        return {}
    version = cache.blend_version(cache.training_examples(store, topic))
    out = {pid: ShownScore(s, LOCAL)
           for pid, s in _cached_by_paper(store, papers, topic, version).items()}
    rest = [p for p in papers if p.id not in out]
    if rest:  # marked since (a star, papers read): the day's newest blend, as its list shows
        newest = _cached_by_paper(store, rest, topic, cache.blend_prefix(), newest_of=True)
        out.update((pid, ShownScore(s, LOCAL)) for pid, s in newest.items())
        rest = [p for p in rest if p.id not in out]
    if rest:
        first = _cached_by_paper(store, rest, topic, keywords.SCORER_VERSION)
        out.update((pid, ShownScore(s, PROVISIONAL)) for pid, s in first.items())
    return out


def _cached_by_paper(store: Store, papers: Sequence[Paper], topic: Topic,
                     version: str, *, newest_of: bool = False) -> dict[str, Score]:
    """`cache.cached_by_paper`, asked for at most its MAX_DAYS_READ days at a time, so that
    hits of many days still find their days' rankings."""
    from paperterm.scoring.local import cache

    try:
        days = store.library.paper_days([p.id for p in papers])
    except Exception:  # an unreadable store: nothing cached
        return {}
    by_day: dict[str, list[Paper]] = {}
    for p in papers:
        by_day.setdefault(days.get(p.id, ""), []).append(p)
    groups = list(by_day.values())
    out: dict[str, Score] = {}
    for i in range(0, len(groups), cache.MAX_DAYS_READ):
        chunk = [p for group in groups[i:i + cache.MAX_DAYS_READ] for p in group]
        out.update(cache.cached_by_paper(store, chunk, topic, version, newest_of=newest_of))
    return out
