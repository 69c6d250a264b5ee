"""Two processes scoring the same papers at once do not both pay (issue 9, item 12): papers
are claimed in the store before they are sent; the other process waits for the results."""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from pathlib import Path

from support.fakellm import Behaviour, FakeLLM

from paperterm.sources.feeds import parse_feed

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
N_PAPERS = len(parse_feed(FEED.read_bytes()).papers)


def test_two_processes_scoring_the_same_day_pay_once(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(PAPERTERM_HOME=str(tmp_path / "home"), PAPERTERM_CONFIG=str(tmp_path / "c.toml"),
               OPENAI_API_KEY="sk-test-two", PYTHONIOENCODING="utf-8")
    with FakeLLM(Behaviour(delay=0.4)) as llm:
        args = [sys.executable, "-m", "paperterm", "score", "--json", "--feed", str(FEED),
                "--model", "openai/gpt-4o-mini", "--api-base", llm.url,
                "--batch-size", "20", "--concurrency", "2"]
        # the data dir exists before both start (its creation is another issue's business)
        subprocess.run([*args[:3], "config", "--path"], env=env, capture_output=True)
        procs = [subprocess.Popen(args, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outs = [p.communicate(timeout=180) for p in procs]
        asked = llm.requested_ids()
    for proc, (out, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err[-2000:]
        rows = [json.loads(line) for line in out.splitlines()]
        assert len(rows) == N_PAPERS
        assert {r["status"] for r in rows} <= {"scored", "cached"}
    twice = [pid for pid, n in collections.Counter(asked).items() if n > 1]
    assert not twice, f"{len(twice)} papers were paid for twice"
    assert len(set(asked)) == N_PAPERS
