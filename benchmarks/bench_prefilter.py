"""Measure `--prefilter`: the tokens a two-stage run sends, against a full LLM run, on the
real days in ../shared/data (or any JSON Lines days given), for every built-in topic.

Both runs go through litellm over real HTTP to the fake server (tests/support/fakellm.py),
which counts prompt tokens with tiktoken; its replies are short, so completion tokens are
those of a terse model. "with stars" adds 20 positives (every 30th paper of the other
days) to show what papers like the user's stars add.

    PYTHONPATH=src python benchmarks/bench_prefilter.py [--prefilter 0.3] [DAY.jsonl ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
DATA = ROOT.parent / "shared" / "data"

from support.shared import load_day  # noqa: E402  (one reader of the shared day files)


def main() -> None:
    parser = argparse.ArgumentParser(description="measure --prefilter")
    parser.add_argument("days", nargs="*", type=Path)
    parser.add_argument("--prefilter", type=float, default=0.3)
    args = parser.parse_args()
    days = args.days or sorted(DATA.glob("day-*.jsonl"))
    os.environ["PAPERTERM_HOME"] = tempfile.mkdtemp(prefix="paperterm-bench-")
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")

    from support.fakellm import FakeLLM

    from paperterm.models import Topic
    from paperterm.scoring import local_scores, run_scoring
    from paperterm.scoring.prefilter import Positive, estimate_saved, split_day
    from paperterm.scoring.types import RunSummary
    from paperterm.settings import ScoringSettings
    from paperterm.settings.config import Config
    from paperterm.store import opener
    from paperterm.topics import builtin_topics

    topics = builtin_topics()
    loaded = [(p.stem.removeprefix("day-"), load_day(p)) for p in days]
    print(f"| day | topic | papers | full run tokens | --prefilter {args.prefilter:g}: sent, "
          "tokens | share | with stars: sent, share | saved: estimate / real |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    with FakeLLM() as llm:
        for n, (label, papers) in enumerate(loaded):
            for name in sorted(topics):
                topic = topics[name]
                settings = Config().scoring.with_overrides(model="openai/gpt-4o-mini",
                                                           api_base=llm.url)

                home = Path(os.environ["PAPERTERM_HOME"])

                def run(sent, tag: str, db: Path = home / f"{label}-{name}",
                        topic: Topic = topic, settings: ScoringSettings = settings,
                        ) -> RunSummary:
                    return run_scoring(sent, topic, settings,
                                       open_store=opener(f"{db}-{tag}.sqlite3"))

                def tokens(sent, tag: str, run=run) -> int:
                    return run(sent, tag).total_tokens

                full = tokens(papers, "full")
                local = local_scores(papers, topic)
                part = split_day(papers, local, args.prefilter, topic)
                summary = run(part.send, "pre")
                pre = summary.total_tokens
                estimate_saved(summary, part.held, papers)
                estimated = summary.saved_tokens / (full - pre)
                others = [p for k, (_, day) in enumerate(loaded) if k != n for p in day]
                stars = [Positive(p.id, p.title, p.abstract) for p in others[::30][:20]]
                with_stars = split_day(papers, local, args.prefilter, topic, stars)
                starred = tokens(with_stars.send, "stars")
                print(f"| {label} | {name} | {len(papers)} | {full:,} | {len(part.send)}, "
                      f"{pre:,} | {pre / full:.0%} | {len(with_stars.send)}, "
                      f"{starred / full:.0%} | {estimated:.2f} |")


if __name__ == "__main__":
    main()
