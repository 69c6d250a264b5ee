"""`paperterm score`, `digest` and `export` as a cron job runs them: real HTTP through litellm
to the local fake OpenAI-compatible server, a real SQLite cache. In-process through
`main(argv)`, except where only a separate process can tell (clients closed at exit)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM, expected_scores

from paperterm.sources.feeds import parse_feed

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
N_PAPERS = len(parse_feed(FEED.read_bytes()).papers)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    out.update(PAPERTERM_HOME=str(tmp_path / "home"),
               PAPERTERM_CONFIG=str(tmp_path / "config.toml"),
               OPENAI_API_KEY="sk-test-not-a-real-key")
    return out


@pytest.fixture
def run(cli, monkeypatch):  # type: ignore[no-untyped-def]
    """`paperterm ARGS` in-process with `env`'s provider keys (and no others)."""
    for key in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(key)

    def call(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
        if "OPENAI_API_KEY" not in env:
            monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        keys = {k: v for k, v in env.items() if k.endswith("_API_KEY")}
        return cli(*args, env=keys)

    return call


def run_process(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paperterm", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def llm_args(llm: FakeLLM) -> list[str]:
    return ["--feed", str(FEED), "--model", "openai/gpt-4o-mini", "--api-base", llm.url,
            "--batch-size", "40", "--concurrency", "4"]


def test_score_json_prints_one_object_per_paper_and_nothing_else(env):
    with FakeLLM() as llm:
        first = run_process(env, "score", "--json", *llm_args(llm))
        requests_first = llm.count
        second = run_process(env, "score", "--json", *llm_args(llm))
        requests_second = llm.count - requests_first
    assert first.returncode == 0, first.stderr
    rows = [json.loads(line) for line in first.stdout.splitlines()]
    assert len(rows) == N_PAPERS
    assert {r["status"] for r in rows} == {"scored"}
    for r in rows:
        assert set(r) >= {"id", "version", "title", "relevance", "novelty", "reason", "status"}
        assert (r["relevance"], r["novelty"]) == expected_scores(r["id"])
    assert "Traceback" not in first.stderr
    # litellm's async HTTP clients are closed before exit
    assert "nclosed" not in first.stderr and "was destroyed" not in first.stderr
    assert "total 244" in first.stderr and "cost $" in first.stderr
    # the second run is served entirely from the cache
    assert requests_second == 0
    cached = [json.loads(line) for line in second.stdout.splitlines()]
    assert {r["status"] for r in cached} == {"cached"}
    assert [r["relevance"] for r in cached] == [r["relevance"] for r in rows]


def test_score_reports_unscored_papers_with_their_reason(run, env):
    with FakeLLM() as llm:
        # one paper is never in any reply: it must end unscored, with the reason, not vanish
        victim = parse_feed(FEED.read_bytes()).papers[5].id
        llm.rule = lambda n, ids: Behaviour(drop=(victim,))
        proc = run(env, "score", "--json", *llm_args(llm))
    assert proc.returncode == 4, proc.stderr  # finished, output complete, one paper unscored
    rows = {r["id"]: r for r in map(json.loads, proc.stdout.splitlines())}
    assert len(rows) == N_PAPERS
    assert rows[victim]["status"] == "unscored"
    assert rows[victim]["error"]
    assert sum(r["status"] == "scored" for r in rows.values()) == N_PAPERS - 1


def test_authentication_failure_stops_at_once_with_exit_code_3(run, env):
    with FakeLLM() as llm:
        llm.rule = lambda n, ids: Behaviour(status=401, error_message="Incorrect API key")
        proc = run(env, "score", *llm_args(llm))
        requests = llm.count
    assert proc.returncode == 3
    assert "Traceback" not in proc.stderr
    assert "sk-test-not-a-real-key" not in proc.stderr + proc.stdout
    assert requests <= 4  # no retry storm: at most the requests already in flight


def test_digest_markdown_and_json(run, env, tmp_path):
    with FakeLLM() as llm:
        out = tmp_path / "digest.md"
        md = run(env, "digest", "--all", "--min-relevance", "8", "-o", str(out), *llm_args(llm))
        js = run(env, "digest", "--format", "json", *llm_args(llm))
    assert md.returncode == 0, md.stderr
    text = out.read_text(encoding="utf-8")
    assert "2026-02-25" in text and "moe" in text and "gpt-4o-mini" in text
    high = [p for p in parse_feed(FEED.read_bytes()).papers if expected_scores(p.id)[0] >= 8]
    low = [p for p in parse_feed(FEED.read_bytes()).papers if expected_scores(p.id)[0] < 8]
    assert all(f"arxiv.org/abs/{p.id}" in text for p in high)
    assert not any(f"arxiv.org/abs/{p.id}" in text for p in low)
    # highest first: relevance never increases down the digest
    by_position = sorted(high, key=lambda p: text.index(f"arxiv.org/abs/{p.id}"))
    relevances = [expected_scores(p.id)[0] for p in by_position]
    assert relevances == sorted(relevances, reverse=True)
    assert js.returncode == 0, js.stderr
    data = json.loads(js.stdout)
    assert isinstance(data, dict)
    assert json.dumps(data).count("2602.") >= N_PAPERS


def test_export_all_min_relevance_uses_llm_scores(run, env, tmp_path):
    bib = tmp_path / "refs.bib"
    with FakeLLM() as llm:
        proc = run(env, "export", "--all", "--min-relevance", "9", "-o", str(bib),
                   *llm_args(llm))
    assert proc.returncode == 0, proc.stderr
    papers = parse_feed(FEED.read_bytes()).papers
    wanted = {p.id for p in papers if expected_scores(p.id)[0] >= 9}
    text = bib.read_text(encoding="utf-8")
    assert text.count("@misc{") == len(wanted)
    assert all(f"eprint        = {{{pid}}}" in text for pid in wanted)


def test_export_ids_to_stdout_without_any_model(run, env):
    proc = run(env, "export", "--feed", str(FEED), "--ids", "2602.20191", "-o", "-")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("@misc{")
    assert "eprint        = {2602.20191}" in proc.stdout
    prefixed = run(env, "export", "--feed", str(FEED), "--ids", "arXiv:2602.20191v1", "-o", "-")
    assert prefixed.returncode == 0 and prefixed.stdout == proc.stdout
    unknown = run(env, "export", "--feed", str(FEED), "--ids", "9999.99999", "-o", "-")
    assert unknown.returncode == 2 and "9999.99999" in unknown.stderr


def test_local_scorer_needs_no_key_and_no_network(run, env):
    env = {k: v for k, v in env.items() if k != "OPENAI_API_KEY"}
    proc = run(env, "score", "--json", "--feed", str(FEED))
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == N_PAPERS
    assert all(r["novelty"] is None and 1 <= r["relevance"] <= 10 for r in rows)
    assert "--model" in proc.stderr  # the hint on how to enable LLM scoring


def test_a_digest_from_cache_still_shows_what_the_scores_cost(run, env):
    with FakeLLM() as llm:
        first = run(env, "digest", "--format", "json", *llm_args(llm))
        before = llm.count
        second = run(env, "digest", "--format", "json", *llm_args(llm))
        again = run(env, "score", *llm_args(llm))
        assert llm.count == before  # nothing requested twice
    paid = json.loads(first.stdout)
    cached = json.loads(second.stdout)
    assert paid["cost"] > 0 and paid["counts"]["cached"] == 0
    assert cached["cost"] == 0 and cached["counts"]["cached"] == N_PAPERS
    # the earlier requests behind the cached scores: exactly what the first run paid
    assert cached["earlier"]["prompt"] == paid["tokens"]["prompt"]
    assert cached["earlier"]["cost"] == pytest.approx(paid["cost"])
    assert "paid in earlier runs" in again.stdout


def test_bare_id_keeps_old_style_ids_whole():
    from paperterm.models import bare_id

    assert bare_id("arXiv:2602.20191v2") == "2602.20191"
    assert bare_id("solv-int/9901001v1") == "solv-int/9901001"  # a "v" inside the archive name
    assert bare_id("hep-th/9901001") == "hep-th/9901001"
