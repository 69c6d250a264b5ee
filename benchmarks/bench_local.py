"""Time the local keyword scorer on 5,000 papers (issue 10, item 4: under 0.3 s).

    python benchmarks/bench_local.py [N] [--runs R]

The sample day replicated to N papers (default 5,000) with fresh ids, ranked against the
built-in `moe` topic as in a fresh process (no word stemmed yet). Prints wall and CPU time,
best and median of R runs (default 7), beside the time to merely split and count every word
of the day once (the floor any scorer reading every word pays).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import replace

from paperterm.scoring.local import keywords as local
from paperterm.sources.feeds import parse_feed
from paperterm.sources.loader import sample_bytes
from paperterm.topics import builtin_topics


def timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sample = parse_feed(sample_bytes()).papers
    papers = [replace(sample[i % len(sample)], id=f"2699.{i:05d}",
                      title=f"{sample[i % len(sample)].title} #{i}") for i in range(args.n)]
    topic = builtin_topics()["moe"]

    def rank() -> None:
        local._STEMS.clear()  # as in a fresh process: no word stemmed yet
        local.local_scores(papers, topic)

    def read_every_word() -> None:
        for p in papers:
            Counter(p.title.lower().split())
            Counter(p.abstract.lower().split())

    for name, fn in (("local scorer", rank), ("split and count", read_every_word)):
        runs = [timed(fn) for _ in range(args.runs)]
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(f"{name:16s} {args.n} papers: wall best {min(walls):.3f} s, median "
              f"{statistics.median(walls):.3f} s; CPU best {min(cpus):.3f} s")


if __name__ == "__main__":
    main()
