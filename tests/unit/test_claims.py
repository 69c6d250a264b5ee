"""Claims between processes (issue 9 item 12) never outlive a killed process: its claims end
at once on this machine, so a rerun after kill -9 asks at once instead of waiting out the
claim's expiry; a live process's claims, or another machine's, are still respected."""

from __future__ import annotations

import subprocess
import sys

import pytest

from paperterm.models import Paper
from paperterm.scoring.claims import HOST, Claims, owner_gone
from paperterm.scoring.task import TaskKey
from paperterm.store import Store

KEY = TaskKey("topic-fp", "v1")
PAPERS = [Paper(f"2602.0000{i}", 1, f"Title {i}", ("A. Author",), "Abstract.", ("cs.LG",),
                "new") for i in range(3)]


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path / "paperterm.sqlite3")
    yield s
    s.close()


def _hold(store: Store, owner: str) -> None:
    store.scores.claim([(p.id, 1) for p in PAPERS], topic_fp=KEY.topic_fp, model="m",
                       prompt_version=KEY.kind, owner=owner, ttl=600)


def test_claims_of_a_killed_process_end_at_once(store):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    _hold(store, f"{HOST}:{dead.pid}-feedc0ffee00")
    assert owner_gone(f"{HOST}:{dead.pid}-feedc0ffee00")
    mine, theirs = Claims(store.scores, KEY, "m", ttl=600).take(PAPERS)
    assert [p.id for p in mine] == [p.id for p in PAPERS] and theirs == []


def test_a_live_process_keeps_its_claims(store):
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _hold(store, f"{HOST}:{live.pid}-feedc0ffee00")
        mine, theirs = Claims(store.scores, KEY, "m", ttl=600).take(PAPERS)
        assert mine == [] and [p.id for p in theirs] == [p.id for p in PAPERS]
    finally:
        live.kill()
        live.wait()


def test_another_machines_claims_run_to_their_expiry(store):
    _hold(store, "some-other-host:1-feedc0ffee00")
    assert not owner_gone("some-other-host:1-feedc0ffee00")
    mine, theirs = Claims(store.scores, KEY, "m", ttl=600).take(PAPERS)
    assert mine == [] and len(theirs) == 3
