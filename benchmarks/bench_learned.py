"""Time the learned local ranking on N papers (default 5,000, the sample day replicated with
fresh ids and a distinct sentence each, so nothing comes from a cache):

    python benchmarks/bench_learned.py [N]

keywords alone; the first blend (loads the model, embeds every paper, caches the vectors);
a re-rank after a star (vectors from SQLite, the model retrained).
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from paperterm.scoring.local import keywords as local
from paperterm.scoring.local import rank_locally
from paperterm.sources.feeds import parse_feed
from paperterm.sources.loader import sample_bytes
from paperterm.store import Store
from paperterm.topics import builtin_topics


def main(n: int) -> None:
    sample = parse_feed(sample_bytes()).papers
    papers = [replace(sample[i % len(sample)], id=f"2699.{i:05d}",
                      abstract=f"{sample[i % len(sample)].abstract} Variant {i}.")
              for i in range(n)]
    topic = builtin_topics()["moe"]
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "db.sqlite3")
        store.papers.save_day("bench", None, papers, source="bench")
        start = time.perf_counter()
        local.local_scores(papers, topic)
        print(f"keywords alone:        {time.perf_counter() - start:6.2f} s")
        start = time.perf_counter()
        rank_locally(store, papers, topic, day="bench")
        print(f"first blend (embeds):  {time.perf_counter() - start:6.2f} s")
        store.marks.set_starred(papers[0].id, True)
        store.marks.set_starred(papers[7].id, True)
        start = time.perf_counter()
        rank_locally(store, papers, topic, day="bench")
        print(f"re-rank after a star:  {time.perf_counter() - start:6.2f} s")
        store.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
