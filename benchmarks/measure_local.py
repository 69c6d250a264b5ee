"""Measure the local scorer on real days with the built-in topics.

    python benchmarks/measure_local.py ../shared/data/day-*.jsonl [--top 10] [--titles]
    python benchmarks/measure_local.py ../shared/data/day-*.jsonl --gold ../shared/data/gold-dev

With `--gold DIR` (files `gold-<day>.jsonl`: the papers a judge picked for the `moe` profile):
per day and in all, the picks within the top 2x(picks) of the moe ranking and within its top
30%, for each scorer (keywords, blend, rrf). Otherwise, per day and topic: papers at each
relevance level (>= 8, >= 5), the largest group of papers
sharing the top value (ties the reader had to break by announcement order), how many papers
reach >= 7 on description words alone, and the time to score the day.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from paperterm.models import Paper
from paperterm.store import Store
from paperterm.topics import builtin_topics


def load_day(path: Path) -> list[Paper]:
    papers = []
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        papers.append(Paper(id=d["id"], version=d["version"], title=d["title"],
                            authors=tuple(d["authors"]), abstract=d["abstract"],
                            categories=tuple(d["categories"]),
                            primary_category=d["primary_category"],
                            announce_type=d["announce_type"], comment=d.get("arxiv_comment")))
    return papers


def score(scorer: str, papers: list[Paper], topic, store: Store) -> list:
    from paperterm.scoring.local.blend import background, blend, closeness, reference_papers
    from paperterm.scoring.local.keywords import scores_and_exclusions
    from paperterm.scoring.local.semantic import paper_embeddings

    pairs = scores_and_exclusions(papers, topic, None if scorer == "bm25" else
                                  reference_papers())
    bm25 = [s for s, _ in pairs]
    if scorer == "bm25":
        return bm25

    close = closeness(paper_embeddings(store, papers), topic, background(store))
    if scorer == "blend":
        return blend(pairs, close)
    from dataclasses import replace

    by_kw = sorted(range(len(papers)), key=lambda i: -(bm25[i].fine or 0))
    by_sem = sorted(range(len(papers)), key=lambda i: -close[i] * pairs[i][1])
    fused = [0.0] * len(papers)
    for ranking in (by_kw, by_sem):
        for r, i in enumerate(ranking):
            fused[i] += 1 / (60 + r)
    return [replace(s, fine=fused[i]) for i, s in enumerate(bm25)]


def recall(gold_dir: Path, days: list[Path], store: Store) -> None:
    """Picks of the judge within the top 2x(picks) and the top 30% of the moe ranking."""
    topic = builtin_topics()["moe"]
    print("scorer  day         picks  in top 2x       in top 30%")
    for scorer in ("bm25", "blend", "rrf"):
        total = [0, 0, 0]
        for path in days:
            gold_path = gold_dir / f"gold-{path.stem[4:]}.jsonl"
            if not gold_path.exists():
                continue
            picks = {json.loads(line)["id"] for line in gold_path.read_text().splitlines()
                     if line.strip()}
            papers = load_day(path)
            scores = score(scorer, papers, topic, store)
            order = sorted(range(len(papers)), key=lambda i: (
                -(scores[i].relevance or 0), -(getattr(scores[i], "fine", None) or 0.0), i))
            ranked = [papers[i].id for i in order]
            top2x = len(picks & set(ranked[: 2 * len(picks)]))
            top30 = len(picks & set(ranked[: round(0.3 * len(papers))]))
            total = [total[0] + len(picks), total[1] + top2x, total[2] + top30]
            print(f"{scorer:7} {path.stem[4:]:10} {len(picks):6} {top2x:4} "
                  f"({top2x / len(picks):4.0%})   {top30:4} ({top30 / len(picks):4.0%})")
        if total[0]:
            print(f"{scorer:7} {'all':10} {total[0]:6} {total[1]:4} ({total[1] / total[0]:4.0%})"
                  f"   {total[2]:4} ({total[2] / total[0]:4.0%})")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("days", nargs="+", type=Path)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--titles", action="store_true", help="print the top papers' titles")
    ap.add_argument("--scorer", choices=("bm25", "blend", "rrf"), default="blend",
                    help="keywords alone, the calibrated blend with embeddings, or reciprocal "
                         "rank fusion of the two (for comparison)")
    ap.add_argument("--gold", type=Path, help="a folder of gold-<day>.jsonl picks (moe)")
    args = ap.parse_args(argv)
    topics = builtin_topics()
    no_cache = Store.unavailable("measured without a cache")  # empty: embeds every day
    if args.gold:
        recall(args.gold, args.days, no_cache)
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
