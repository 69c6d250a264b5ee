"""How well each scorer ranks what this user marked, day by day: `paperterm eval` and the
reader's "Evaluate ranking" screen.

A day's picks are the papers of that day the user starred, saved one by one or brought in
with `paperterm learn` for the topic (or, with a gold file, the picks it lists for one
day). Each scorer ranks the whole day as the reader would:

- `keywords`: the keyword scores alone;
- `blend`: the reader's default local ranking (`rank_locally`, what `score --json` ranks by
  without a model), taught by every label of the topic;
- `learned`: the same ranking taught only by the labels of the other days (what it would
  have shown that morning, before the day's own marks);
- each LLM model with cached scores for the day (papers it did not score ranked by their
  keyword score, as the reader shows them after a budget stop), on the
  days it ranked: scored at least as many of the day's papers as the measures look at (20,
  or 2x(picks)); a paper or two scored on another day (a paper announced twice) is not a
  ranking of this one.

Per day: the picks within the top 2x(picks), precision at 10, NDCG at 20; in total: the
picks summed, the two means over the days.
"""

from __future__ import annotations

import shlex
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
NAME_WIDTH = 24  # the scorer column: the table fits the reader's box in 80 columns
LOCAL_SCORERS = (KEYWORDS, BLEND, LEARNED)
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


def measure(day: str, ranked: Sequence[str], picks: Iterable[str]) -> DayMeasure:
    """The measures of `ranked` (paper ids, best first) against `picks`."""
    wanted = set(picks)
    return DayMeasure(day, len(wanted), picks_within(ranked, wanted, 2 * len(wanted)),
                      precision_at(ranked, wanted, 10), ndcg_at(ranked, wanted, NDCG_DEPTH))


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
                "per_day": [{"day": d.day, "picks": d.picks, "in_top_2x": d.in_top_2x,
                             "precision_at_10": round(d.precision_at_10, 4),
                             "ndcg_at_20": round(d.ndcg_at_20, 4)} for d in self.days]}


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
        mine = _best([s.on(days) for s in local])
        gain = model.in_top_2x - mine.in_top_2x
        cost = "an unknown price" if model.cost is None else f"${model.cost:.4f}"
        head = (f"{model.scorer} found {model.in_top_2x} of {model.picks} picks within the top "
                f"2x, the best local ranking ({mine.scorer}) {mine.in_top_2x} "
                f"on the same {len(days)} day(s)")
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
    head = f"{'scorer':<{w}} {'days':>4} {'picks':>5} {'in top 2x':>11} {'P@10':>6} " \
           f"{'NDCG@20':>8} {'cost':>9}"
    lines = [f"Topic {ev.topic!r}: how each scorer ranks your picks", head]
    for s in shown:
        cost = "" if s.local else ("unknown" if s.cost is None else f"${s.cost:.4f}")
        lines.append(f"{_cut(s.scorer, w):<{w}} {len(s.days):>4} {s.picks:>5} "
                     f"{s.in_top_2x:>4} ({_share(s.in_top_2x, s.picks):>4}) "
                     f"{s.precision_at_10:>6.2f} {s.ndcg_at_20:>8.2f} {cost:>9}")
    if per_day:
        days = sorted({d.day for s in ev.scorers for d in s.days})
        for day in days:
            lines.append("")
            rows = [(s.scorer, d) for s in ev.scorers for d in s.days if d.day == day]
            n = rows[0][1].picks
            lines.append(f"{day} ({n} pick{'' if n == 1 else 's'})")
            lines.extend(f"  {_cut(name, w):<{w}} {d.in_top_2x:>4} in top {2 * d.picks:<4} "
                         f"P@10 {d.precision_at_10:.2f}  NDCG@20 {d.ndcg_at_20:.2f}"
                         for name, d in rows)
    if ev.skipped:
        lines += ["", f"Not cached, not evaluated: {', '.join(ev.skipped)}"]
    if ev.dayless:
        lines += ["", f"{ev.dayless} label(s) on papers of no cached day: not evaluated."]
    verdict = ev.verdict()
    if verdict:
        lines += ["", verdict]
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
             progress: Callable[[str], None] | None = None) -> Evaluation:
    """Measure every scorer on each day with picks (from `since` on; or only `gold`'s day,
    with its picks), each day loaded from the cache as `request` (its categories and
    announcement types) would load it. Loads the embedding model (call off the UI
    thread)."""
    from paperterm.day.scores import with_stand_ins
    from paperterm.scoring.local import rank_locally
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
    measures: dict[str, list[DayMeasure]] = {name: [] for name in LOCAL_SCORERS}
    scored: dict[str, list[str]] = {}  # model -> the papers it scored on those days
    skipped: list[str] = []
    left_out: list[str] = []
    for day in sorted(picks_by_day):
        papers = _cached_day(store, request, day)
        picks = picks_by_day[day] & {p.id for p in papers}
        if gold is not None and picks:
            left_out = sorted(picks_by_day[day] - picks)
        if not picks:
            skipped.append(day)
            continue
        if progress is not None:
            progress(day)
        keywords = rank_locally(store, papers, topic, day=day, keywords_only=True) or []
        measures[KEYWORDS].append(measure(day, ranked_ids(papers, keywords), picks))
        blend = rank_locally(store, papers, topic, day=day) or []
        measures[BLEND].append(measure(day, ranked_ids(papers, blend), picks))
        learned = _learned(store, papers, topic, examples)
        if learned is not None:
            measures[LEARNED].append(measure(day, ranked_ids(papers, learned), picks))
        for model, scores in _models(store, papers, topic):
            if len(scores) < min(len(papers), max(NDCG_DEPTH, 2 * len(picks))):
                continue  # not a ranking of this day: a few papers scored elsewhere
            # the papers it did not reach keep their local value, as the reader shows them
            shown = with_stand_ins({s.paper_id: s for s in scores},
                                   {k.paper_id: k for k in keywords})
            measures.setdefault(model, []).append(
                measure(day, ranked_ids(papers, list(shown.values())), picks))
            scored.setdefault(model, []).extend(s.paper_id for s in scores)
    costs = {model: _cost(store, topic, model, ids) for model, ids in scored.items()}
    scorers = tuple(ScorerMeasure(name, tuple(days), costs.get(name))
                    for name, days in measures.items())
    return Evaluation(topic.name, scorers, tuple(skipped),
                      since.isoformat() if since else None, earlier, tuple(left_out),
                      dayless)


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


def _learned(store: Store, papers: Sequence[Paper], topic: Topic,
             examples: Sequence[Example]) -> list[Score] | None:
    """The blend taught only by the labels of papers not of this day; None without the
    embedding model."""
    from paperterm.scoring.local.blend import blended

    here = {p.id for p in papers}
    return blended(store, papers, topic, [e for e in examples if e.id not in here])


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
