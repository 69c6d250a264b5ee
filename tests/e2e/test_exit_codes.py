"""Exit codes a cron job can act on (issue 9, item 11): 0 every paper scored, cached or
deliberately not sent; 4 finished with some papers unscored (budget, failures), the output
otherwise complete; 3 stopped (auth, model, endpoint, repeated failures)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM

from paperterm.sources.feeds import parse_feed

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
N_PAPERS = len(parse_feed(FEED.read_bytes()).papers)


@pytest.fixture
def run(cli, monkeypatch):  # type: ignore[no-untyped-def]
    for key in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(key)
    return lambda *args: cli(*args, env={"OPENAI_API_KEY": "sk-test-exit"})


def args(llm: FakeLLM, *extra: str) -> list[str]:
    return ["--feed", str(FEED), "--model", "openai/gpt-4o-mini", "--api-base", llm.url,
            "--batch-size", "40", "--concurrency", "2", *extra]


def test_every_paper_scored_then_cached_exits_0(run):
    with FakeLLM() as llm:
        assert run("score", *args(llm)).returncode == 0
        assert run("score", *args(llm)).returncode == 0  # all cached


def test_budget_leaving_papers_unscored_exits_4_with_complete_output(run):
    with FakeLLM() as llm:
        proc = run("score", "--json", *args(llm, "--budget", "0.01"))
    assert proc.returncode == 4, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == N_PAPERS  # every paper is in the output, scored or not
    statuses = {r["status"] for r in rows}
    assert statuses == {"scored", "unscored"}
    # issue 22: what stopped it, and what was spent (not "budget reached" with money left)
    assert re.search(r"^stopped before a request that could exceed the budget of \$0\.01; "
                     r"spent \$0\.00\d+; \d+ papers not scored$", proc.stderr, re.M), proc.stderr


def test_digest_with_unscored_papers_exits_4_and_writes_the_digest(run, tmp_path):
    out = tmp_path / "d.md"
    with FakeLLM() as llm:
        victim = parse_feed(FEED.read_bytes()).papers[3].id
        llm.rule = lambda n, ids: Behaviour(drop=(victim,))
        proc = run("digest", "-o", str(out), *args(llm))
    assert proc.returncode == 4, proc.stderr
    text = out.read_text(encoding="utf-8")
    # the top 20; the paper the model did not score is ranked by its local value (issue 32
    # item 1: never set apart in feed order), and the header counts it
    assert text.count("arxiv.org/abs/") == 20
    assert "243 scored" in text.split("\n## ", 1)[0]
    if f"arxiv.org/abs/{victim}" in text:
        assert "the model did not reach it" in text


def test_repeated_failures_stop_the_run_with_exit_3(run):
    with FakeLLM() as llm:
        llm.rule = lambda n, ids: Behaviour(status=500, retry_after="0")
        proc = run("score", "--json", *args(llm))
    assert proc.returncode == 3, proc.stderr
    assert "batches in a row failed" in proc.stderr
    assert "Traceback" not in proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == N_PAPERS and {r["status"] for r in rows} == {"unscored"}


def test_export_min_relevance_with_unscored_papers_exits_4(run, tmp_path):
    bib = tmp_path / "refs.bib"
    with FakeLLM() as llm:
        victim = parse_feed(FEED.read_bytes()).papers[3].id
        llm.rule = lambda n, ids: Behaviour(drop=(victim,))
        proc = run("export", "--all", "--min-relevance", "9", "-o", str(bib), *args(llm))
    assert proc.returncode == 4, proc.stderr
    assert "@misc{" in bib.read_text(encoding="utf-8")


def test_unknown_price_with_budget_exits_3_and_the_config_price_fixes_it(run, isolated_home):
    model = "openai/claude-sonnet-4-20250514"  # litellm's map says $0: unknown, not free
    with FakeLLM() as llm:
        argv = ["score", "--feed", str(FEED), "--model", model, "--api-base", llm.url,
                "--batch-size", "40", "--budget", "1"]
        refused = run(*argv)
        isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
        isolated_home.config.write_text(
            f'[models."{model}"]\ninput_price = 3.0\noutput_price = 15.0\n', encoding="utf-8")
        priced = run(*argv)
    assert refused.returncode == 3
    assert f'[models."{model}"] input_price = ..., output_price = ...' in refused.stderr
    assert priced.returncode == 0, priced.stderr
    assert "cost $" in priced.stdout and "cost $0.0000" not in priced.stdout


@pytest.mark.parametrize("base", ["not a url", "ftp://example.org/v1", "http://", "localhost:11434",
                                  "http://[::1", "user:hunter2secret@example.org/v1"])
def test_an_api_base_that_is_not_a_url_stops_at_once_with_one_line(run, base):
    proc = run("score", "--feed", str(FEED), "--model", "openai/gpt-4o-mini",
               "--api-base", base)
    assert proc.returncode == 3, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if not line.startswith("scoring: ")]
    assert len(lines) == 1 and "is not a URL" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr and "hunter2" not in proc.stderr
