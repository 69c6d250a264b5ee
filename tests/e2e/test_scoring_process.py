"""The engine in a separate process: kill -9 and resume, the sync wrapper, lazy litellm."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM
from support.waiting import wait_for

from paperterm.scoring import run_scoring
from paperterm.settings import ScoringSettings
from paperterm.settings.config import Config
from paperterm.sources.feeds import parse_feed
from paperterm.store import opener
from paperterm.topics import resolve_topic

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"

SCRIPT = """
import json, sys
from pathlib import Path
from paperterm.settings.config import Config
from paperterm.sources.feeds import parse_feed
from paperterm.scoring import run_scoring
from paperterm.settings import ScoringSettings
from paperterm.store import opener
from paperterm.topics import resolve_topic

api_base, db, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
papers = parse_feed(Path(sys.argv[4]).read_bytes()).papers[:n]
topic = resolve_topic("moe", Config()).topic
settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=api_base, batch_size=5,
                           concurrency=1, timeout=10)
summary = run_scoring(papers, topic, settings, open_store=opener(db))
print(json.dumps({"scored": summary.scored, "cached": summary.cached,
                  "litellm_loaded": "litellm" in sys.modules}))
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    env["OPENAI_API_KEY"] = "sk-test"
    return env


def _start(llm: FakeLLM, db: Path, n: int, *flags: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *flags, "-c", SCRIPT, llm.url, str(db), str(n), str(FEED)],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finished(proc: subprocess.Popen[str], what: str) -> tuple[str, str]:
    """stdout and stderr of `proc` once it ends: a generous wait (a loaded 2-core machine
    imports litellm in dev mode in well over a minute), failing with what was awaited."""
    try:
        return proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f"{what} did not finish within 300 s; stderr: {err[-2000:]}")


def _scored_ids(db: Path) -> set[str]:
    conn = sqlite3.connect(db, timeout=5)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM scores")}
    except sqlite3.OperationalError:  # not created yet
        return set()
    finally:
        conn.close()


def test_sigkill_mid_run_then_rerun_requests_only_the_rest(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    db = tmp_path / "paperterm.sqlite3"
    papers = parse_feed(FEED.read_bytes()).papers[:20]
    topic = resolve_topic("moe", Config()).topic
    # the first batch is answered at once, every later one is held until the kill: the kill
    # comes after the first commit (waited for, however slow the machine) and before any
    # other, whatever the load (issue 31, item 19)
    with FakeLLM(Behaviour(delay=600)) as llm:
        llm.push(Behaviour())
        proc = _start(llm, db, 20)
        try:
            def committed() -> bool:
                if proc.poll() is not None:
                    pytest.fail("the run ended before its first commit: "
                                f"{proc.stderr.read() if proc.stderr else ''}")
                return bool(_scored_ids(db))

            wait_for(committed, timeout=300, every=0.02,
                     what="the scoring process's first commit (batch 1 of 4)")
            wait_for(lambda: llm.count >= 2, timeout=300,
                     what="the second batch's request (held by the fake server)")
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        assert proc.returncode == -signal.SIGKILL
        survived = _scored_ids(db)
        assert len(survived) == 5  # the first batch was committed, the in-flight one was lost

        llm.default = Behaviour()
        before = llm.count
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url, batch_size=5)
        summary = run_scoring(papers, topic, settings, open_store=opener(db))
        asked = [pid for r in llm.requests[before:] for pid in llm.ids_of(r)]
    assert sorted(asked) == sorted({p.id for p in papers} - survived)
    assert (summary.cached, summary.scored, summary.unscored) == (5, 15, 0)


def test_sync_wrapper_closes_clients_and_reruns_without_litellm(tmp_path):
    db = tmp_path / "paperterm.sqlite3"
    with FakeLLM() as llm:
        first = _start(llm, db, 8, "-X", "dev", "-W", "always")
        out, err = _finished(first, "the first run (litellm imported in dev mode)")
        assert first.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1]) == {
            "scored": 8,
            "cached": 0,
            "litellm_loaded": True,
        }
        assert "nclosed" not in err, err  # no "Unclosed client session" / "unclosed transport"
        assert "Give Feedback" not in err and "LiteLLM" not in err, err
        assert llm.count == 2

        second = _start(llm, db, 8)
        out, err = _finished(second, "the second run (all cached)")
        assert second.returncode == 0, err
        # everything cached: zero requests, and litellm was never even imported
        assert json.loads(out.strip().splitlines()[-1]) == {
            "scored": 0,
            "cached": 8,
            "litellm_loaded": False,
        }
        assert llm.count == 2


def test_importing_paperterm_scoring_does_not_import_litellm():
    code = (
        "import sys, paperterm.scoring, paperterm.outputs.digest\n"
        "from paperterm.scoring import ScoringError, cached_scores, local_scores\n"
        "assert 'litellm' not in sys.modules, 'litellm imported'\n"
        "engine = ('paperterm.scoring.engine', 'paperterm.scoring.provider')\n"
        "assert not any(m in sys.modules for m in engine), 'engine imported'\n"
        "paperterm.scoring.run_scoring\n"
        "assert all(m in sys.modules for m in engine) and 'litellm' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_sync_wrapper_cancelled_from_another_thread(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    papers = parse_feed(FEED.read_bytes()).papers[:30]
    topic = resolve_topic("moe", Config()).topic
    cancel = threading.Event()
    results = []
    with FakeLLM(Behaviour(delay=0.3)) as llm:
        settings = ScoringSettings(
            model="openai/gpt-4o-mini", api_base=llm.url, batch_size=5, concurrency=1
        )

        def worker():
            results.append(
                run_scoring(papers, topic, settings, open_store=opener(tmp_path / "db"),
                            cancel=cancel)
            )

        thread = threading.Thread(target=worker)
        thread.start()
        deadline = time.monotonic() + 20
        while llm.count < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        cancel.set()
        thread.join(timeout=20)
        assert not thread.is_alive()
    (summary,) = results
    assert summary.stopped is not None and summary.stopped.startswith("cancelled: ")
    assert 0 < summary.unscored < 30 and summary.scored + summary.unscored == 30
    assert llm.count <= 3
