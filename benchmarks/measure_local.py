"""Measure the local scorer on real days with the built-in topics.

    python benchmarks/measure_local.py ../shared/data/day-*.jsonl [--top 10] [--titles]
    python benchmarks/measure_local.py ../shared/data/day-*.jsonl --gold ../shared/data/gold-dev

With `--gold DIR` (files `gold-<day>.jsonl`: the papers a judge picked for the `moe` profile):
per day and in all, the picks within the top 2x(picks) of the moe ranking and within its top
30%, precision at 10 and NDCG@20, for each scorer: keywords (what the reader paints first),
closeness (to the topic's closest area alone), blend (`score --json` without a model) and
learned (the blend with the picks of the OTHER days starred: leave one day out). With
`--lodo` too: the learned cue words and the topic's prior derived again and the tuned weights
chosen again on four days, measured on the fifth (the honest figure: the shipped cue words
and prior were derived on all five). `--without-prior`: the blend without the topic's prior
(`benchmarks/derive_prior.py`), for comparison.
Otherwise (the hand-judged top-10 table: `--titles` prints each day's top papers), per day
and topic: papers at each relevance level (>= 8, >= 5), the largest group of papers sharing
the top value (ties the reader had to break by announcement order), how many papers
reach >= 7 on description words alone, and the time to score the day.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.shared import gold_days, load_day

from paperterm.models import Paper
from paperterm.scoring.local import rank_locally
from paperterm.scoring.metrics import ndcg_at, picks_within, precision_at
from paperterm.store import Store
from paperterm.topics import builtin_topics


def score(scorer: str, papers: list[Paper], topic, store: Store) -> list:
    """The scores of `papers` by `scorer` (the hand-judged table's scorers)."""
    from paperterm.scoring.local.blend import background, closeness, reference_papers
    from paperterm.scoring.local.keywords import scores_and_exclusions
    from paperterm.scoring.local.semantic import paper_embeddings

    if scorer == "blend":
        return rank_locally(store, papers, topic) or []
    pairs = scores_and_exclusions(papers, topic, None if scorer == "bm25" else
                                  reference_papers())
    bm25 = [s for s, _ in pairs]
    if scorer == "bm25":
        return bm25
    close = closeness(paper_embeddings(store, papers), topic, background(store))
    from dataclasses import replace

    by_kw = sorted(range(len(papers)), key=lambda i: -(bm25[i].fine or 0))
    by_sem = sorted(range(len(papers)), key=lambda i: -close[i] * pairs[i][1])
    fused = [0.0] * len(papers)
    for ranking in (by_kw, by_sem):
        for r, i in enumerate(ranking):
            fused[i] += 1 / (60 + r)
    return [replace(s, fine=fused[i]) for i, s in enumerate(bm25)]


def ranked_ids(papers: list[Paper], scores: list) -> list[str]:
    """The reader's default order: relevance, then the fine score, then announcement."""
    order = sorted(range(len(papers)), key=lambda i: (
        -(scores[i].relevance or 0), -(scores[i].fine or 0.0), i))
    return [papers[i].id for i in order]


SCORERS = ("keywords", "closeness", "blend", "learned")


def rank_by(scorer: str, day: str, papers: list[Paper], topic, store: Store,
            others: list[tuple[str, list[Paper], set[str]]]) -> list[str]:
    """The day ranked by `scorer`; `learned` is the blend with the picks of the `others`
    days starred for the topic (trained without this day's picks)."""
    from paperterm.scoring.local.blend import background, blended, closeness
    from paperterm.scoring.local.semantic import paper_embeddings
    from paperterm.store import Example

    if scorer == "keywords":  # what the reader paints first
        return ranked_ids(papers, rank_locally(store, papers, topic, day=day,
                                                keywords_only=True) or [])
    if scorer == "closeness":
        close = closeness(paper_embeddings(store, papers), topic, background(store))
        return [papers[i].id for i in sorted(range(len(papers)), key=lambda i: (-close[i], i))]
    if scorer == "blend":  # `score --json` without a model
        return ranked_ids(papers, rank_locally(store, papers, topic, day=day) or [])
    stars = [Example(p.id, p.title, p.abstract, "starred")
             for _, other, picks in others for p in other if p.id in picks]
    return ranked_ids(papers, blended(store, papers, topic, stars) or [])


def measure(days: list[tuple[str, list[Paper], set[str]]], topic, store: Store,
            scorers: tuple[str, ...] = SCORERS) -> dict[str, dict[str, list[float]]]:
    """Per scorer and day: [picks, within top 2x, within top 30%, precision@10, NDCG@20]."""
    out: dict[str, dict[str, list[float]]] = {}
    for scorer in scorers:
        out[scorer] = {}
        for day, papers, picks in days:
            others = [d for d in days if d[0] != day]
            ranked = rank_by(scorer, day, papers, topic, store, others)
            out[scorer][day] = [len(picks), picks_within(ranked, picks, 2 * len(picks)),
                                picks_within(ranked, picks, round(0.3 * len(papers))),
                                precision_at(ranked, picks, 10), ndcg_at(ranked, picks, 20)]
    return out


def totals(per_day: dict[str, list[float]]) -> list[float]:
    """Picks and picks found summed over days; precision and NDCG averaged."""
    rows = list(per_day.values())
    n = len(rows) or 1
    return [sum(r[0] for r in rows), sum(r[1] for r in rows), sum(r[2] for r in rows),
            sum(r[3] for r in rows) / n, sum(r[4] for r in rows) / n]


def recall(gold_dir: Path, days: list[Path], store: Store) -> None:
    """Per scorer, per day and in all: the judge's picks within the top 2x(picks) and the
    top 30% of the moe ranking, precision at 10 and NDCG@20."""
    topic = builtin_topics()["moe"]
    results = measure(gold_days(gold_dir, days), topic, store)
    print("scorer     day         picks  in top 2x     in top 30%    p@10  ndcg@20")
    for scorer, per_day in results.items():
        for day, row in [*per_day.items(), ("all", totals(per_day))]:
            n, top2x, top30, p10, ndcg = row
            print(f"{scorer:10} {day:10} {int(n):6} {int(top2x):4} ({top2x / n:4.0%})  "
                  f"{int(top30):4} ({top30 / n:4.0%})   {p10:4.2f}  {ndcg:5.3f}")


# the tuned weights, and a small grid around them for the leave-one-day-out check
GRID = {"CLOSENESS": (0.3, 0.4, 0.5), "AGAINST": (0.15, 0.3, 0.45),
        "LEARNED_WEIGHT": (0.03, 0.05, 0.08)}
LEARNED_WORDS = 30  # learned cue words of each kind (benchmarks/derive_cues.py)


def _set(values: dict[str, object]) -> None:
    from paperterm.scoring.local import blend, cues

    for k, v in values.items():
        setattr(blend if k in ("CLOSENESS", "AGAINST") else cues, k, v)
    blend.KEYWORDS = 1 - blend.CLOSENESS


def lodo(gold_dir: Path, days: list[Path], store: Store) -> None:
    """Leave one day out: for each day, the learned cue words and the prior (unless left
    out) derived again on the other four days, and the grid's weights that rank those four
    best (picks within the top 2x plus within the top 30%), measured on the day left out;
    against the shipped weights with the same cue words and prior (only what was learned
    without the day)."""
    import itertools

    from derive_cues import derive
    from derive_prior import derive as derive_prior

    from paperterm.scoring.local import blend, cues, prior

    topic = builtin_topics()["moe"]
    data = gold_days(gold_dir, days)
    keys = (*GRID, "LEARNED_FOUNDATIONAL", "LEARNED_APPLICATION")
    shipped = {k: getattr(blend if k in ("CLOSENESS", "AGAINST") else cues, k) for k in keys}
    ship = tuple(shipped[k] for k in GRID)
    with_prior = prior.direction(topic) is not None
    print("day left out  weights chosen on the others             2x  30%  p@10 | shipped "
          "weights 2x  30%  p@10")
    sums = [0.0] * 7
    try:
        for day, _, picks in data:
            others = [d for d in data if d[0] != day]
            up, down = derive(others, LEARNED_WORDS)
            _set({"LEARNED_FOUNDATIONAL": tuple(up), "LEARNED_APPLICATION": tuple(down)})
            if with_prior:
                prior.directions[topic.name] = derive_prior(others, store)
            by_weights: dict[tuple[object, ...], dict[str, list[float]]] = {}
            for values in itertools.product(*GRID.values()):
                _set(dict(zip(GRID, values, strict=True)))
                fresh = Store.unavailable("measured without a cache")  # nothing cached
                by_weights[values] = measure(data, topic, fresh, ("blend",))["blend"]
                fresh.close()
            best = max(by_weights, key=lambda v: sum(
                r[1] + r[2] for d, r in by_weights[v].items() if d != day))
            got, mine = by_weights[best][day], by_weights[ship][day]
            row = [len(picks), got[1], got[2], got[3], mine[1], mine[2], mine[3]]
            sums = [a + b for a, b in zip(sums, row, strict=True)]
            chosen = ", ".join(f"{k}={v}" for k, v in zip(GRID, best, strict=True))
            print(f"{day}   {chosen:42} {int(got[1]):3} {int(got[2]):4} {got[3]:5.2f} | "
                  f"{int(mine[1]):14} {int(mine[2]):4} {mine[3]:5.2f}")
    finally:
        _set(shipped)
        prior.directions.pop(topic.name, None)
    n, k = sums[0], len(data) or 1
    print(f"all ({int(n)} picks): chosen on other days {int(sums[1])} ({sums[1] / n:.0%}) top "
          f"2x, {int(sums[2])} ({sums[2] / n:.0%}) top 30%, p@10 {sums[3] / k:.2f}; shipped "
          f"weights {int(sums[4])} ({sums[4] / n:.0%}), {int(sums[5])} ({sums[5] / n:.0%}), "
          f"p@10 {sums[6] / k:.2f}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("days", nargs="+", type=Path)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--titles", action="store_true", help="print the top papers' titles")
    ap.add_argument("--scorer", choices=("bm25", "blend", "rrf"), default="blend",
                    help="keywords alone, the calibrated blend with embeddings, or reciprocal "
                         "rank fusion of the two (for comparison)")
    ap.add_argument("--gold", type=Path, help="a folder of gold-<day>.jsonl picks (moe)")
    ap.add_argument("--lodo", action="store_true",
                    help="with --gold: check the tuned weights leaving one day out")
    ap.add_argument("--without-prior", action="store_true",
                    help="the blend without the topic's prior (for comparison)")
    args = ap.parse_args(argv)
    missing = [str(p) for p in [*args.days, *([args.gold] if args.gold else [])] if not p.exists()]
    if missing:
        print(f"measure_local: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    if args.gold and not gold_days(args.gold, args.days):
        print(f"measure_local: no gold-<day>.jsonl in {args.gold} for these days",
              file=sys.stderr)
        return 2
    topics = builtin_topics()
    if args.without_prior:
        from paperterm.scoring.local import prior

        prior.directions.update((name, None) for name in topics)
    no_cache = Store.unavailable("measured without a cache")  # empty: embeds every day
    if args.gold:
        (lodo if args.lodo else recall)(args.gold, args.days, no_cache)
        return 0
    print("day        topic            n  >=8  >=5  top-tie  desc-only>=7  ms")
    for path in args.days:
        papers = load_day(path)
        for name, topic in sorted(topics.items()):
            t0 = time.perf_counter()
            scores = score(args.scorer, papers, topic, no_cache)
            ms = (time.perf_counter() - t0) * 1000
            rels = [s.relevance or 0 for s in scores]
            fine = [getattr(s, "fine", None) or 0.0 for s in scores]
            keys = list(zip(rels, fine, strict=True))
            ties = keys.count(max(keys))  # papers the reader must order by announcement
            desc_only = sum(1 for s in scores if (s.relevance or 0) >= 7
                            and s.reason.startswith("matched: ")
                            and "description" in s.reason.split(";")[0][:22])
            print(f"{path.stem[4:]:10} {name:16} {len(papers):3} {sum(r >= 8 for r in rels):4} "
                  f"{sum(r >= 5 for r in rels):4} {ties:8} {desc_only:13} {ms:5.0f}")
            if args.titles:
                order = sorted(range(len(papers)), key=lambda i: (-rels[i], -fine[i], i))
                for i in order[: args.top]:
                    print(f"    {rels[i]:2} {papers[i].title[:80]}  [{scores[i].reason[:70]}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
