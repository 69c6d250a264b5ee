"""Compute the prefilter's recall curve from the development days (issue 20, item 3).

    python benchmarks/calibrate_prefilter.py ../shared/data/day-2026-02-{17,18,19,20,23}.jsonl \\
        --gold ../shared/data/gold-dev [--write] [--in-sample]

For each share of the day (5%, 10%, ... 100%): the share of the judge's picks that the
default local ranking (`score --json` without a model, the ranking `--prefilter` sends the
top of) puts within that top part (ceil(share x papers), as `--prefilter` counts), pooled
over the days. `--write` stores the curve as the package's data table
(src/paperterm/data/prefilter-recall.json), which `--prefilter auto` reads. Each day is ranked
with the learned cue words and the topic's prior derived on the other days only (what the
shipped ones, derived on all five, give on a day they never saw), so the table expects what
an unseen day holds; `--in-sample` prints the optimistic curve of the shipped ones instead.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from measure_local import ranked_ids

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.shared import gold_days

from paperterm.models import Paper, Topic
from paperterm.scoring.local import rank_locally
from paperterm.scoring.metrics import picks_within
from paperterm.scoring.recall import CURVE_FILE, STEPS
from paperterm.store import Store
from paperterm.topics import builtin_topics


def _ranked_without(day: str, data: list[tuple[str, list[Paper], set[str]]], topic: Topic,
                    store: Store) -> list[str]:
    """The day ranked with the cue words and prior derived on the other days."""
    from derive_cues import derive
    from derive_prior import derive as derive_prior

    from paperterm.scoring.local import cues, prior

    others = [d for d in data if d[0] != day]
    papers = next(p for d, p, _ in data if d == day)
    shipped = cues.LEARNED_FOUNDATIONAL, cues.LEARNED_APPLICATION
    up, down = derive(others, 30)
    cues.LEARNED_FOUNDATIONAL, cues.LEARNED_APPLICATION = tuple(up), tuple(down)
    prior.directions[topic.name] = derive_prior(others, store)
    try:
        return ranked_ids(papers, rank_locally(store, papers, topic) or [])
    finally:
        cues.LEARNED_FOUNDATIONAL, cues.LEARNED_APPLICATION = shipped
        prior.directions.pop(topic.name, None)


def curve(days: list[Path], gold: Path, lodo: bool = False,
          ) -> tuple[list[list[float]], int, int]:
    """[[share, recall], ...], the picks and the papers counted."""
    topic = builtin_topics()["moe"]
    store = Store.unavailable("measured without a cache")
    data = gold_days(gold, days)
    found = [0] * len(STEPS)
    picks = papers = 0
    for day, day_papers, day_picks in data:
        ranked = (_ranked_without(day, data, topic, store) if lodo else
                  ranked_ids(day_papers, rank_locally(store, day_papers, topic, day=day) or []))
        for k, share in enumerate(STEPS):
            found[k] += picks_within(ranked, day_picks, math.ceil(share * len(day_papers)))
        picks += len(day_picks)
        papers += len(day_papers)
    return [[share, round(found[k] / picks, 4)] for k, share in enumerate(STEPS)], picks, papers


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("days", nargs="+", type=Path)
    ap.add_argument("--gold", type=Path, required=True)
    ap.add_argument("--write", action="store_true", help=f"write {CURVE_FILE.name}")
    ap.add_argument("--in-sample", action="store_true",
                    help="rank every day with the shipped cue words and prior (derived on "
                         "these same days: optimistic; printed only)")
    args = ap.parse_args(argv)
    points, picks, papers = curve(args.days, args.gold, lodo=not args.in_sample)
    for share, recall in points:
        print(f"top {share:4.0%}: {recall:5.1%} of {picks} picks")
    if args.write and not args.in_sample:
        head = json.dumps({
            "about": "share of the day sent -> share of a judge's picks within it (the moe "
                     "topic's default local ranking, gold-dev, each day ranked with the cue "
                     "words and prior derived on the other days; "
                     "benchmarks/calibrate_prefilter.py)",
            "days": len(gold_days(args.gold, args.days)), "papers": papers, "picks": picks})
        rows = ",\n".join(f"  {json.dumps(p)}" for p in points)
        CURVE_FILE.write_text(f'{head[:-1]},\n "curve": [\n{rows}\n ]\n}}\n')
        print(f"wrote {CURVE_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
