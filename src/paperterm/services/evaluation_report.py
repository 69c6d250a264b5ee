"""What `paperterm eval` reports: the measures of a scorer on a day and over the days, the
learning curve's points, the tables the command and the reader's "Evaluate ranking" screen
print, and the gold file's reader. Computing them is `services.evaluation`.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from paperterm.scoring.metrics import ndcg_at, picks_within, precision_at

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
