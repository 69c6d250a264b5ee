"""How well each scorer ranks what this user marked, day by day: `paperterm eval` and the
reader's "Evaluate ranking" screen.

A day's picks are the papers of that day the user starred, saved one by one or brought in
with `paperterm learn` for the topic (or, with a gold file, the picks it lists for one
day). Each scorer ranks the whole day as the reader would:

- `keywords`: the keyword scores alone;
- `blend`: the reader's default local ranking (`rank_locally`, what `score --json` ranks by
  without a model), taught by every label of the topic;
- `learned`: the same ranking taught only by the marks of EARLIER days (time order, never
  the day's own or a later day's marks: what it would have shown that morning);
- each LLM model with cached scores for the day, counted over the papers it scored (the
  day's picks among them; how many it skipped is said), on the days it scored at least 20
  of them (or all): a paper or two scored on another day (a paper announced twice) is not
  a ranking of this one.

Per day: the picks within the top 2x(picks), precision at 10, NDCG at 20, the seconds the
ranking took (local scorers; the cache keeps no time for an LLM's) and, for a model, the
dollars; in total: the picks summed, the means over the days. `curve` is the learned
ranking's learning curve: taught the user's first 5, 10, 20, 40 ... marks, on the days
after them, and all of them (in time order).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic
from paperterm.scoring.types import Score

if TYPE_CHECKING:
    from paperterm.sources.loader import LoadRequest
    from paperterm.store import Example, Store
    from paperterm.store.repositories import Library

from paperterm.services.evaluation_report import (
    BLEND,
    CURVE_STEPS,
    KEYWORDS,
    LEARNED,
    LOCAL_SCORERS,
    MIN_SCORED,
    POSITIVE,
    CurvePoint,
    DayMeasure,
    Evaluation,
    ScorerMeasure,
    measure,
)

# -- computing it ---------------------------------------------------------------------------


def labelled_days(library: Library, examples: Sequence[Example]) -> dict[str, set[str]]:
    """Day -> the ids of the papers of that day among the positive `examples` (starred,
    saved, `learn`); the day a paper was first announced."""
    positive = [e.id for e in examples if e.positive]
    out: dict[str, set[str]] = {}
    for pid, day in library.paper_days(positive).items():
        out.setdefault(day, set()).add(pid)
    return out


def ranked_ids(papers: Sequence[Paper], scores: Sequence[Score]) -> list[str]:
    """Every paper's id in the one order (`services.scores.default_ranks`): the ranks
    `score --json` prints."""
    from paperterm.day.scores import default_ranks

    ranks = default_ranks(papers, scores)
    return sorted(ranks, key=ranks.__getitem__)


def evaluate(store: Store, request: LoadRequest, topic: Topic, *,
             since: date | None = None, gold: tuple[date, set[str]] | None = None,
             progress: Callable[[str], None] | None = None,
             curve: bool = False) -> Evaluation:
    """Measure every scorer on each day with picks (from `since` on; or only `gold`'s day,
    with its picks), each day loaded from the cache as `request` (its categories and
    announcement types) would load it; `curve`: the learned ranking's learning curve too.
    Loads the embedding model (call off the UI thread)."""
    from paperterm.scoring.local import keywords as keyword_scores
    from paperterm.scoring.local import rank_locally
    from paperterm.scoring.local.blend import blended
    from paperterm.scoring.local.cache import training_examples

    examples = training_examples(store, topic)
    earlier = dayless = 0
    if gold is not None:
        picks_by_day = {gold[0].isoformat(): set(gold[1])}
    else:
        labelled = labelled_days(store.library, examples)
        picks_by_day = {d: ids for d, ids in labelled.items()
                        if since is None or d >= since.isoformat()}
        earlier = sum(len(ids) for d, ids in labelled.items() if d not in picks_by_day)
        dayless = len({e.id for e in examples if e.positive}) - sum(map(len, labelled.values()))
    days_of = example_days(store.library, examples)
    measures: dict[str, list[DayMeasure]] = {name: [] for name in LOCAL_SCORERS}
    versus: dict[str, dict[str, list[DayMeasure]]] = {}  # model -> local scorer -> days
    scored: dict[str, list[str]] = {}  # model -> the papers it scored on those days
    skipped: list[str] = []
    left_out: list[str] = []
    loaded: dict[str, tuple[list[Paper], set[str]]] = {}
    for day in sorted(picks_by_day):
        papers = _cached_day(store, request, day)
        picks = picks_by_day[day] & {p.id for p in papers}
        if gold is not None and picks:
            left_out = sorted(picks_by_day[day] - picks)
        if not picks:
            skipped.append(day)
            continue
        loaded[day] = (papers, picks)
        if progress is not None:
            progress(day)
        local: dict[str, list[str]] = {}
        start = time.perf_counter()
        keywords = keyword_scores.local_scores(papers, topic)
        local[KEYWORDS] = ranked_ids(papers, keywords)
        measures[KEYWORDS].append(measure(day, local[KEYWORDS], picks,
                                          seconds=time.perf_counter() - start))
        start = time.perf_counter()
        blend = blended(store, papers, topic, examples)
        seconds = time.perf_counter() - start
        if blend is None:  # no embedding model: what the reader ranks by then
            blend = rank_locally(store, papers, topic, day=day) or []
        local[BLEND] = ranked_ids(papers, blend)
        measures[BLEND].append(measure(day, local[BLEND], picks, seconds=seconds))
        start = time.perf_counter()
        learned = blended(store, papers, topic, before(examples, days_of, day))
        if learned is not None:
            local[LEARNED] = ranked_ids(papers, learned)
            measures[LEARNED].append(measure(day, local[LEARNED], picks,
                                             seconds=time.perf_counter() - start))
        for model, scores in _models(store, papers, topic):
            ids = {s.paper_id for s in scores}
            mine = picks & ids
            if len(ids) < min(len(papers), MIN_SCORED) or not mine:
                continue  # not a ranking of this day: a few papers scored elsewhere
            ranked = [pid for pid in ranked_ids(papers, scores) if pid in ids]
            left = len(papers) - len(ids)
            measures.setdefault(model, []).append(measure(day, ranked, mine, skipped=left))
            scored.setdefault(model, []).extend(ids)
            against = versus.setdefault(model, {})
            for name, order in local.items():  # the local scorers over the same papers
                against.setdefault(name, []).append(
                    measure(day, [pid for pid in order if pid in ids], mine))
    costs = {model: _cost(store, topic, model, ids) for model, ids in scored.items()}
    scorers = tuple(ScorerMeasure(name, tuple(days), costs.get(name))
                    for name, days in measures.items())
    same = {model: tuple(ScorerMeasure(name, tuple(days)) for name, days in by.items())
            for model, by in versus.items()}
    learned_days = next(s for s in scorers if s.scorer == LEARNED)
    points = (_curve(store, topic, examples, days_of, loaded, learned_days)
              if curve and gold is None else ())
    return Evaluation(topic.name, scorers, tuple(skipped),
                      since.isoformat() if since else None, earlier, tuple(left_out),
                      dayless, same, points)


def example_days(library: Library, examples: Sequence[Example]) -> dict[str, str]:
    """Paper id -> the day it was first announced, for the examples of a cached day."""
    with contextlib.suppress(Exception):
        return dict(library.paper_days([e.id for e in examples]))
    return {}


def before(examples: Sequence[Example], days_of: dict[str, str],
           day: str) -> list[Example]:
    """The examples given on papers of days before `day` (time order: never the day's own
    or a later day's marks); `learn` records of papers of no cached day count as before."""
    return [e for e in examples if days_of.get(e.id, "") < day]


def _curve(store: Store, topic: Topic, examples: Sequence[Example],
           days_of: dict[str, str],
           loaded: dict[str, tuple[list[Paper], set[str]]],
           time_order: ScorerMeasure) -> tuple[CurvePoint, ...]:
    """The learned ranking taught the first N marks (positives and "not interested", in the
    order of their papers' days; with the weaker negatives of those days), on each day with
    picks after the last of them; then taught all of them (`time_order`: each day taught
    every mark of the days before it, eval's own `learned`) on the first row's days."""
    from paperterm.scoring.local.blend import blended

    marks = sorted((e for e in examples if e.positive or e.kind == "dismissed"),
                   key=lambda e: (days_of.get(e.id, ""), e.id))
    steps: list[int] = list(CURVE_STEPS)
    while steps[-1] * 2 < len(marks):
        steps.append(steps[-1] * 2)
    steps = [n for n in steps if n < len(marks)]  # all of them: the last row
    untaught: dict[str, DayMeasure] = {}
    out = []
    for n in steps:
        if n < CURVE_STEPS[0]:
            continue
        given = marks[:n]
        last = max(days_of.get(e.id, "") for e in given)
        chosen = {e.id for e in given}
        taught = [e for e in examples if e.id in chosen
                  or (e.kind not in ("dismissed", *POSITIVE) and days_of.get(e.id, "") <= last)]
        learned, plain = [], []
        for day in sorted(d for d in loaded if d > last):
            papers, picks = loaded[day]
            start = time.perf_counter()
            scores = blended(store, papers, topic, taught)
            if scores is None:
                return ()
            learned.append(measure(day, ranked_ids(papers, scores), picks,
                                   seconds=time.perf_counter() - start))
            if day not in untaught:
                untaught[day] = measure(day, ranked_ids(papers, blended(
                    store, papers, topic, []) or []), picks)
            plain.append(untaught[day])
        if learned:
            out.append(CurvePoint(n, False, ScorerMeasure(LEARNED, tuple(learned)),
                                  ScorerMeasure(BLEND, tuple(plain))))
    if out:  # no day comes after every mark: each day taught all the marks before it
        first = out[0]
        out.append(CurvePoint(len(marks), True, time_order.on(d.day for d in first.learned.days),
                              first.untaught))
    return tuple(out)


def _cached_day(store: Store, request: LoadRequest, day: str) -> list[Paper]:
    """The day's papers as `request` loads them offline from the cache (announcement types
    filtered), else, for the sample's categories, the bundled sample day's when it was
    shown as that day (where the reader's stars go with arXiv unreachable), else none."""
    from paperterm.sources.loader import SAMPLE_CATEGORIES, SAMPLE_FEED, load_day

    asked = date.fromisoformat(day)
    offline = replace(request, date=asked, offline=True, feed=None, query=None, sample=False,
                      since=None, refresh=False)
    loaded = load_day(offline, store)
    if loaded.day == asked and not loaded.instead and loaded.source == "cache":
        return loaded.papers
    if not set(request.categories) >= SAMPLE_CATEGORIES:
        return []
    return store.papers.day_papers(SAMPLE_FEED, asked)  # shown when arXiv was unreachable


def _models(store: Store, papers: Sequence[Paper], topic: Topic,
            ) -> list[tuple[str, list[Score]]]:
    """Each model with cached scores of this day's papers for `topic`, and those scores."""
    from paperterm.scoring.cache import cached_results
    from paperterm.scoring.task import ScoringTask

    task = ScoringTask(topic)
    out = []
    for model in store.scores.models_scored([p.id for p in papers],
                                            topic_fp=task.key.topic_fp,
                                            prompt_version=task.key.kind):
        scores = list(cached_results(store.scores, task, papers, model).values())
        if scores:
            out.append((model, scores))
    return out


def _cost(store: Store, topic: Topic, model: str, ids: Sequence[str]) -> float | None:
    """What the requests that made `model`'s cached scores of these papers cost (each
    request once; None: a price unknown)."""
    from paperterm.scoring.task import ScoringTask

    key = ScoringTask(topic).key
    return store.scores.request_totals(list(ids), topic_fp=key.topic_fp, model=model,
                                       prompt_version=key.kind)[2]
