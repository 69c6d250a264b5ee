"""Benchmark the LLM scoring engine against the fake server (no network, no real model).

Scores the real sample day replicated to N papers (fresh ids 9901.00001, ...) through
litellm against benchmarks/fake_openai_server.py (run as a separate process), into a
temporary PAPERTERM_HOME, then runs again to time the all-cached path.

    PYTHONPATH=src python benchmarks/bench_scoring.py [--papers 5000] [--latency 0.5]

Reports wall time vs the ideal for the concurrency and latency
(ideal = ceil(requests / concurrency) x latency), requests, prompt tokens per paper vs the
tokens of the papers' own title + abstract (overhead ratio, floor 1.0), and peak memory.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))


def _rss_mb() -> float:
    # ru_maxrss is KiB on Linux, bytes on macOS
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description="benchmark the scoring engine")
    parser.add_argument("--papers", type=int, default=5000)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--concurrency", type=int, default=None, help="default: settings")
    parser.add_argument("--batch-size", type=int, default=None, help="default: settings")
    parser.add_argument("--model", default="openai/gpt-4o-mini")
    parser.add_argument("--rpm", type=float, default=0.0, help="server-side limit (429s)")
    parser.add_argument("--error-rate", type=float, default=0.0, help="server-side 500s")
    args = parser.parse_args()

    home = tempfile.mkdtemp(prefix="paperterm-bench-")
    os.environ["PAPERTERM_HOME"] = home
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")

    from support.fakellm import _count_tokens_fn

    from paperterm.scoring import run_scoring
    from paperterm.scoring.provider import import_litellm
    from paperterm.settings import paths
    from paperterm.settings.config import Config
    from paperterm.sources.feeds import parse_feed
    from paperterm.store import opener
    from paperterm.topics import resolve_topic

    day = parse_feed((ROOT / "examples" / "arxiv-2026-02-25.xml").read_bytes()).papers
    papers = [
        replace(day[i % len(day)], id=f"9901.{i + 1:05d}", version=1) for i in range(args.papers)
    ]
    topic = resolve_topic("moe", Config()).topic
    count = _count_tokens_fn()
    own_tokens = sum(count(p.title) + count(p.abstract) for p in papers)

    server_args = ["--latency", str(args.latency), "--rpm", str(args.rpm)]
    server_args += ["--error-rate", str(args.error_rate)]
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "fake_openai_server.py"), *server_args],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split()[-1]
        overrides = {"model": args.model, "api_base": url}
        if args.concurrency:
            overrides["concurrency"] = args.concurrency
        if args.batch_size:
            overrides["batch_size"] = args.batch_size
        settings = Config().scoring.with_overrides(**overrides)

        t0 = time.perf_counter()
        import_litellm()
        import_s = time.perf_counter() - t0
        rss_before = _rss_mb()

        t0 = time.perf_counter()
        summary = run_scoring(papers, topic, settings, open_store=opener(paths.database_file()))
        wall = time.perf_counter() - t0
        rss_after = _rss_mb()

        t0 = time.perf_counter()
        again = run_scoring(papers, topic, settings, open_store=opener(paths.database_file()))
        cached_wall = time.perf_counter() - t0
    finally:
        server.terminate()
        server.wait()

    batches = math.ceil(args.papers / settings.batch_size)
    ideal = math.ceil(batches / settings.concurrency) * args.latency
    ratio = summary.prompt_tokens / own_tokens
    cost = "unknown" if summary.cost is None else f"${summary.cost:.4f}"
    rows = [
        ("papers", f"{args.papers:,}"),
        ("batch size / concurrency", f"{settings.batch_size} / {settings.concurrency}"),
        ("server latency", f"{args.latency:g} s"),
        ("requests", f"{summary.requests:,} (batches: {batches:,})"),
        ("scored / unscored", f"{summary.scored:,} / {summary.unscored:,}"),
        ("wall time", f"{wall:.2f} s"),
        ("ideal", f"{ideal:.2f} s (ceil({batches}/{settings.concurrency}) x {args.latency:g})"),
        ("wall / ideal", f"{wall / ideal:.3f} (target <= 1.2)" if ideal else "n/a"),
        ("litellm import (not in wall time)", f"{import_s:.2f} s"),
        ("prompt tokens", f"{summary.prompt_tokens:,} ({summary.prompt_tokens / args.papers:.1f}"
                          f"/paper)"),
        ("own title+abstract tokens", f"{own_tokens:,} ({own_tokens / args.papers:.1f}/paper)"),
        ("prompt overhead ratio", f"{ratio:.3f} (target <= 1.15)"),
        ("completion tokens", f"{summary.completion_tokens:,} "
                              f"({summary.completion_tokens / args.papers:.1f}/paper)"),
        ("cost (fake server, gpt-4o-mini prices)", cost),
        ("peak RSS", f"{rss_after:.0f} MB (after litellm import: {rss_before:.0f} MB)"),
        ("rerun (all cached)", f"{cached_wall:.2f} s, {again.requests} requests, "
                               f"{again.cached:,} cached"),
    ]  # fmt: skip
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
