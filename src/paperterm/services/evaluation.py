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
import shlex
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic
from paperterm.scoring.metrics import ndcg_at, picks_within, precision_at
from paperterm.scoring.types import Score

if TYPE_CHECKING:
    from paperterm.sources.loader import LoadRequest
    from paperterm.store import Example, Store

KEYWORDS, BLEND, LEARNED = "keywords", "blend", "learned"
NDCG_DEPTH = 20  # NDCG@20
NAME_WIDTH = 21  # the scorer column: the table fits the reader's box in 80 columns
MIN_SCORED = 20  # a model counts on a day that it scored at least this many papers of (or all)
CURVE_STEPS = (5, 10, 20, 40)  # then doubling; then all of them, in time order
LOCAL_SCORERS = (KEYWORDS, BLEND, LEARNED)
POSITIVE = ("starred", "saved", "learned")  # the kinds of a pick (store.POSITIVE_KINDS)
NO_LABELS = ("No labels to evaluate against yet for topic {topic!r}: star the papers you "
             "want in the reader (`*`), or `paperterm star --topic {arg} ID...`, or bring in "
             "the papers you keep with `paperterm learn --topic {arg}`; then run "
             "`paperterm eval` again.")


@dataclass(frozen=True)
class DayMeasure:
    """One scorer on one day."""

    day: str
    picks: int
    in_top_2x: int
    precision_at_10: float
    ndcg_at_20: float
    seconds: float | None = None  # what ranking the day took (None: not known)
    skipped: int = 0  # papers of the day the scorer did not score (an LLM's), left out


def measure(day: str, ranked: Sequence[str], picks: Iterable[str], *,
            seconds: float | None = None, skipped: int = 0) -> DayMeasure:
    """The measures of `ranked` (paper ids, best first) against `picks`."""
    wanted = set(picks)
    return DayMeasure(day, len(wanted), picks_within(ranked, wanted, 2 * len(wanted)),
                      precision_at(ranked, wanted, 10), ndcg_at(ranked, wanted, NDCG_DEPTH),
                      seconds, skipped)


@dataclass(frozen=True)
class ScorerMeasure:
    """One scorer over the days it could rank; `cost`: the dollars its cached scores of
    those days cost (LLM models; None: local, or a price unknown)."""

    scorer: str
    days: tuple[DayMeasure, ...]
    cost: float | None = None

    @property
    def local(self) -> bool:
        return self.scorer in LOCAL_SCORERS

    @property
    def picks(self) -> int:
        return sum(d.picks for d in self.days)

    @property
    def in_top_2x(self) -> int:
        return sum(d.in_top_2x for d in self.days)

    @property
    def precision_at_10(self) -> float:
        return sum(d.precision_at_10 for d in self.days) / len(self.days) if self.days else 0.0

    @property
    def ndcg_at_20(self) -> float:
        return sum(d.ndcg_at_20 for d in self.days) / len(self.days) if self.days else 0.0

    @property
    def seconds_per_day(self) -> float | None:
        known = [d.seconds for d in self.days if d.seconds is not None]
        return sum(known) / len(known) if known and len(known) == len(self.days) else None

    @property
    def cost_per_day(self) -> float | None:
        if self.local or self.cost is None or not self.days:
            return None
        return self.cost / len(self.days)

    @property
    def skipped(self) -> int:
        return sum(d.skipped for d in self.days)

    def on(self, days: Iterable[str]) -> ScorerMeasure:
        """The same scorer on these days only."""
        keep = set(days)
        return replace(self, days=tuple(d for d in self.days if d.day in keep))

    def record(self) -> dict[str, object]:
        """The JSON object of `paperterm eval --json`."""
        return {"scorer": self.scorer, "days": len(self.days), "picks": self.picks,
                "in_top_2x": self.in_top_2x,
                "precision_at_10": round(self.precision_at_10, 4),
                "ndcg_at_20": round(self.ndcg_at_20, 4),
                "cost": None if self.local or self.cost is None else round(self.cost, 6),
                "cost_per_day": _round(self.cost_per_day, 6),
                "seconds_per_day": _round(self.seconds_per_day, 3),
                "skipped": self.skipped,
                "per_day": [{"day": d.day, "picks": d.picks, "in_top_2x": d.in_top_2x,
                             "precision_at_10": round(d.precision_at_10, 4),
                             "ndcg_at_20": round(d.ndcg_at_20, 4),
                             "seconds": _round(d.seconds, 3), "skipped": d.skipped}
                            for d in self.days]}


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


@dataclass(frozen=True)
class CurvePoint:
    """The learned ranking taught the user's first `marks` marks, on the `days` after the
    last of them (`all`: `marks` is every one; each of the first row's days taught all the
    marks before it); `untaught` the same days ranked by the topic alone."""

    marks: int
    all: bool
    learned: ScorerMeasure
    untaught: ScorerMeasure

    def record(self) -> dict[str, object]:
        return {"marks": self.marks, "all": self.all, "days": len(self.learned.days),
                "picks": self.learned.picks, "in_top_2x": self.learned.in_top_2x,
                "untaught_in_top_2x": self.untaught.in_top_2x,
                "precision_at_10": round(self.learned.precision_at_10, 4),
                "seconds_per_day": _round(self.learned.seconds_per_day, 3)}


@dataclass(frozen=True)
class Evaluation:
    """Every scorer's measures for one topic; `skipped`: labelled days not in the cache;
    `since` (ISO) the window asked for, `earlier` the labels before it (left out);
    `left_out`: a gold file's ids that are no cached paper of its day; `dayless`: labels
    on papers of no cached day (not evaluated)."""

    topic: str
    scorers: tuple[ScorerMeasure, ...]
    skipped: tuple[str, ...] = ()
    since: str | None = None
    earlier: int = 0
    left_out: tuple[str, ...] = ()  # a gold file's ids that are no paper of its day
    dayless: int = 0  # labels on papers of no cached day (`learn` records of older papers)
    versus: dict[str, tuple[ScorerMeasure, ...]] | None = None  # model -> the local
    # scorers over the same papers it scored (its days, its papers)
    curve: tuple[CurvePoint, ...] = ()

    @property
    def labelled(self) -> bool:
        return any(s.days for s in self.scorers)

    def no_labels(self) -> str:
        """Why there is nothing to evaluate: no labels at all, none in the window, or none
        on a day cached for the categories asked for."""
        if self.skipped:
            return (f"Your labels for topic {self.topic!r} are on days not cached for these "
                    f"categories ({', '.join(self.skipped)}): evaluate with the categories "
                    "you loaded them with (--categories, the config's `categories`).")
        if self.dayless and not self.earlier:
            arg = shlex.quote(self.topic)
            return (f"Your {self.dayless} label(s) for topic {self.topic!r} are papers of no "
                    "cached day (`paperterm learn` records the papers you keep, whatever their "
                    "day), and eval replays the ranking of a day: star papers of the days you "
                    f"load, in the reader (`*`) or with `paperterm star --topic {arg} ID...`, "
                    "then run `paperterm eval` again.")
        if self.earlier:
            return (f"No labels since {self.since} for topic {self.topic!r}; {self.earlier} "
                    f"label(s) before: drop --since (or give an earlier date) to evaluate "
                    "against them.")
        return NO_LABELS.format(topic=self.topic, arg=shlex.quote(self.topic))

    def scorer(self, name: str) -> ScorerMeasure | None:
        return next((s for s in self.scorers if s.scorer == name), None)

    def verdict(self) -> str:
        """Whether an LLM is worth its money here: the best one against the best local
        scorer on the days both ranked."""
        models = [s for s in self.scorers if not s.local and s.days]
        local = [s for s in self.scorers if s.local and s.days]
        if not local:
            return ""
        if not models:
            return ("No LLM scores are cached for these days: score one with a model "
                    "(`paperterm score --date DAY --model ...`) to see whether it beats "
                    f"the local ranking (best here: {_best(local).scorer}).")
        model = _best(models)
        days = [d.day for d in model.days]
        same = (self.versus or {}).get(model.scorer)
        mine = _best(list(same) if same else [s.on(days) for s in local])
        gain = model.in_top_2x - mine.in_top_2x
        cost = "an unknown price" if model.cost is None else f"${model.cost:.4f}"
        head = (f"{model.scorer} found {model.in_top_2x} of {model.picks} picks within the top "
                f"2x, the best local ranking ({mine.scorer}) {mine.in_top_2x} "
                f"on the same {len(days)} day(s)")
        if model.skipped:
            head += (f" (over the papers it scored: it skipped {model.skipped}, left out for "
                     "both)")
        if gain > 0:
            return (f"{head}: +{gain} pick(s) for {cost} ({_share(gain, model.picks)} more "
                    "of your picks on top): the LLM is worth it if that is worth the money.")
        if gain < 0:
            return (f"{head}: the LLM found {-gain} fewer for {cost}: the local ranking does "
                    "better for this topic, for free.")
        return (f"{head}: the LLM found no more for {cost}: the local ranking does as well "
                "for this topic, for free.")


def _share(n: int, of: int) -> str:
    return f"{n / of:.0%}" if of else "-"


def _best(scorers: Sequence[ScorerMeasure]) -> ScorerMeasure:
    return max(scorers, key=lambda s: (_ratio(s), s.ndcg_at_20, s.precision_at_10))


def _ratio(s: ScorerMeasure) -> float:
    return s.in_top_2x / s.picks if s.picks else 0.0


def _cut(name: str, width: int) -> str:
    return name if len(name) <= width else name[:width - 1] + "…"


def table(ev: Evaluation, *, per_day: bool = True) -> list[str]:
    """The evaluation as text lines: totals per scorer, then per day, then the verdict."""
    if not ev.labelled:
        return [ev.no_labels()]
    shown = [s for s in ev.scorers if s.days]
    w = min(NAME_WIDTH, max(len("scorer"), *(len(s.scorer) for s in shown)))
    head = f"{'scorer':<{w}} {'days':>4} {'picks':>5} {'in top 2x':>11} {'P@10':>5} " \
           f"{'NDCG@20':>7} {'s/day':>6} {'$/day':>8}"
    lines = [f"Topic {ev.topic!r}: how each scorer ranks your picks", head]
    for s in shown:
        daily = s.cost_per_day
        cost = "" if s.local else ("unknown" if daily is None else f"${daily:.4f}")
        secs = "-" if s.seconds_per_day is None else f"{s.seconds_per_day:.2f}"
        lines.append(f"{_cut(s.scorer, w):<{w}} {len(s.days):>4} {s.picks:>5} "
                     f"{s.in_top_2x:>4} ({_share(s.in_top_2x, s.picks):>4}) "
                     f"{s.precision_at_10:>5.2f} {s.ndcg_at_20:>7.2f} {secs:>6} {cost:>8}")
    notes = [f"{s.scorer}: counted over the papers it scored; it skipped {s.skipped} "
             "paper(s) of these days" for s in shown if s.skipped]
    if any(not s.local for s in shown):
        notes.append("s/day: the local rankings' time; the cache keeps no time for an LLM's")
    if notes:
        lines += ["", *notes]
    if per_day:
        days = sorted({d.day for s in ev.scorers for d in s.days})
        for day in days:
            lines.append("")
            rows = [(s.scorer, d) for s in ev.scorers for d in s.days if d.day == day]
            n = rows[0][1].picks
            lines.append(f"{day} ({n} pick{'' if n == 1 else 's'})")
            lines.extend(f"  {_cut(name, w):<{w}} {d.in_top_2x:>4} in top {2 * d.picks:<4} "
                         f"P@10 {d.precision_at_10:.2f}  NDCG@20 {d.ndcg_at_20:.2f}"
                         + (f"  ({d.picks} picks among the scored; {d.skipped} skipped)"
                            if d.skipped else "")
                         for name, d in rows)
    if ev.skipped:
        lines += ["", f"Not cached, not evaluated: {', '.join(ev.skipped)}"]
    if ev.dayless:
        lines += ["", f"{ev.dayless} label(s) on papers of no cached day: not evaluated."]
    verdict = ev.verdict()
    if verdict:
        lines += ["", verdict]
    return lines


def curve_table(ev: Evaluation) -> list[str]:
    """The learned ranking's learning curve as text lines (`eval --curve`)."""
    if not ev.curve:
        return [f"Topic {ev.topic!r}: no learning curve yet: it needs at least "
                f"{CURVE_STEPS[0]} marks on days before another day with picks."]
    lines = [f"Topic {ev.topic!r}: the learned ranking after your first N marks, on the days "
             "after them (time order)",
             f"{'marks':>7} {'days':>4} {'picks':>5} {'in top 2x':>11} {'untaught':>8} "
             f"{'P@10':>5} {'s/day':>6}"]
    for p in ev.curve:
        s = p.learned
        secs = "-" if s.seconds_per_day is None else f"{s.seconds_per_day:.2f}"
        marks = f"all {p.marks}" if p.all else str(p.marks)
        lines.append(f"{marks:>7} {len(s.days):>4} {s.picks:>5} {s.in_top_2x:>4} "
                     f"({_share(s.in_top_2x, s.picks):>4}) {p.untaught.in_top_2x:>8} "
                     f"{s.precision_at_10:>5.2f} {secs:>6}")
    lines += ["", "marks: stars, papers saved one by one, `learn` records and 'not "
              "interested', in the order of their papers' days; all: each day taught every "
              "mark of the days before it, on the first row's days; untaught: the topic alone "
              "on the same days."]
    return lines


def read_gold(text: str) -> set[str]:
    """The picks of a gold file: JSON lines with an `id` field, or one arXiv id per line
    (blank lines and `#` comments skipped). Raises ValueError naming the first bad line."""
    import json

    from paperterm.arxiv_id import parse_arxiv_id

    out: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        raw: object = line
        if line.startswith("{"):
            try:
                raw = json.loads(line).get("id")
            except (ValueError, AttributeError):
                raise ValueError(f"line {n}: not a JSON object") from None
            except RecursionError:  # the decoder recurses: `{"id": ` 100,000 times
                raise ValueError(f"line {n}: not a JSON object (nested too deeply)") from None
        parsed = parse_arxiv_id(raw) if isinstance(raw, str) else None
        if parsed is None:
            shown = line if len(line) <= 40 else line[:37] + "..."
            raise ValueError(f"line {n}: no arXiv id in {shown!r}")
        out.add(parsed.id)
    return out


# -- computing it ---------------------------------------------------------------------------


def labelled_days(store: Store, examples: Sequence[Example]) -> dict[str, set[str]]:
    """Day -> the ids of the papers of that day among the positive `examples` (starred,
    saved, `learn`); the day a paper was first announced."""
    positive = [e.id for e in examples if e.positive]
    out: dict[str, set[str]] = {}
    for pid, day in store.library.paper_days(positive).items():
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
        labelled = labelled_days(store, examples)
        picks_by_day = {d: ids for d, ids in labelled.items()
                        if since is None or d >= since.isoformat()}
        earlier = sum(len(ids) for d, ids in labelled.items() if d not in picks_by_day)
        dayless = len({e.id for e in examples if e.positive}) - sum(map(len, labelled.values()))
    days_of = example_days(store, examples)
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


def example_days(store: Store, examples: Sequence[Example]) -> dict[str, str]:
    """Paper id -> the day it was first announced, for the examples of a cached day."""
    with contextlib.suppress(Exception):
        return dict(store.library.paper_days([e.id for e in examples]))
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
