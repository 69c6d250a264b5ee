"""How long the reader waits for the learned ranking after a mark (issue 30, section 2):
the dev days cached, days 02-17 and 02-18 read whole under a topic, their judge's picks
starred (83), then one more star; the next day (02-19) ranked again in the reader's ranking
process (`scoring.ranking_process`, a child process, embeddings cached), and in this
process for comparison:

    python benchmarks/bench_retrain.py [--rounds 5]

Prints the examples the model trains on and the seconds per re-rank (each round stars one
more paper, so the model is trained again each time).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from support.shared import load_day, shared_data  # noqa: E402

from paperterm.scoring.local import rank_locally  # noqa: E402
from paperterm.scoring.ranking_process import RankingProcess  # noqa: E402
from paperterm.store import Store  # noqa: E402
from paperterm.topics import builtin_topics  # noqa: E402

FEED = "cs.AI+cs.LG"
READ = ("2026-02-17", "2026-02-18")
RANKED = "2026-02-19"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    data = shared_data() or HERE.parent.parent / "shared" / "data"
    ap.add_argument("--data", type=Path, default=data)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    topic = builtin_topics()["moe"]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "db.sqlite3"
        store = Store.open(db)
        days = {d: load_day(args.data / f"day-{d}.jsonl") for d in (*READ, RANKED)}
        for d, papers in days.items():
            store.papers.save_day(FEED, date.fromisoformat(d), papers, source="bench")
        picks = [json.loads(line)["id"] for d in READ for line in
                 (args.data / "gold-dev" / f"gold-{d}.jsonl").read_text().splitlines()
                 if line.strip()]
        store.marks.mark_seen([p.id for d in READ for p in days[d]], topic=topic.name)
        for pid in picks:
            store.marks.set_starred(pid, True, topic=topic.name)
        kinds: dict[str, int] = {}
        for e in store.marks.training_examples(topic.name):
            kinds[e.kind] = kinds.get(e.kind, 0) + 1
        print(f"examples: {kinds}; ranking {RANKED} ({len(days[RANKED])} papers)")
        rank_locally(store, days[RANKED], topic, day=RANKED)  # embeds once, cached
        spare = [p.id for p in days[RANKED]]
        child = RankingProcess()
        try:
            child.rank(db, days[RANKED], topic, day=RANKED)  # starts it, loads the model
            times, local = [], []
            for i in range(args.rounds):
                store.marks.set_starred(spare[2 * i], True, topic=topic.name)
                start = time.perf_counter()
                child.rank(db, days[RANKED], topic, day=RANKED)
                times.append(time.perf_counter() - start)
                store.marks.set_starred(spare[2 * i + 1], True, topic=topic.name)
                start = time.perf_counter()
                rank_locally(store, days[RANKED], topic, day=RANKED)
                local.append(time.perf_counter() - start)
        finally:
            child.close()
            store.close()
    print(f"re-rank after a star, ranking process: median {statistics.median(times):.3f} s "
          f"(max {max(times):.3f})")
    print(f"re-rank after a star, in this process: median {statistics.median(local):.3f} s "
          f"(max {max(local):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
