"""kill -9 in every write path (issue 21, item 6): a process writing stars, notes, tags,
"not interested" marks, saved marks, library imports, Zotero-sent and delivery records, the
embedding cache and the ranking cache through the real services and repositories is killed
at a random moment, three times over on one database. After each kill the next start opens
the database normally, SQLite finds it intact, every write the process acknowledged (printed
after it returned) is there, whole, and nothing is recorded twice: a run that writes the same
marks again (as the user would after a crash) changes nothing it should not.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from support.waiting import wait_for

from paperterm.models import Paper
from paperterm.scoring.local import cache
from paperterm.store import Store
from paperterm.topics import resolve_topic

ROOT = Path(__file__).resolve().parents[2]
DIM = 16  # bytes of a stand-in embedding: the write path, not the model
BATCH = 5  # papers per library import: all of them or none
GROUP = 30  # papers marked "not interested" or saved at once: all of them or none

CHILD = r"""
import json, sys
from datetime import date
from paperterm.cli import main
from paperterm.settings.config import Config
from paperterm.models import Paper
from paperterm.scoring.local import cache
from paperterm.scoring.types import Score
from paperterm.services.marks import MarksService
from paperterm.store import Store
from paperterm.topics import resolve_topic

home, start = sys.argv[1], int(sys.argv[2])
topic = resolve_topic("moe", Config()).topic

def ack(*words):  # printed only once the write returned (committed)
    print("ACK", *words, flush=True)

def paper(pid):
    return Paper(id=pid, version=1, title=f"Paper {pid}", authors=("A. Author",),
                 abstract=f"About {pid}.", categories=("cs.LG",), primary_category="cs.LG")

store = Store.open(f"{home}/paperterm.sqlite3")
marks = MarksService(store, "moe")
i = start
while True:
    pid = f"2601.{i:05d}"
    marks.star([pid]); ack("star", pid)
    marks.set_note(pid, f"note {i}"); ack("note", pid)
    marks.set_tags(pid, ["k", f"t{i}"]); ack("tags", pid)
    group = [f"2603.{i:05d}.{k}" for k in range({GROUP})]
    marks.set_dismissed(group, True); ack("dismiss", *group)
    group = [f"2604.{i:05d}.{k}" for k in range({GROUP})]
    marks.mark_saved([(g, f"key{i}x{k}") for k, g in enumerate(group)], f"{home}/papers.bib")
    ack("saved", *group)
    batch = [f"2602.{i * {BATCH} + k:05d}" for k in range({BATCH})]
    library = f"{home}/library-{i}.json"
    with open(library, "w", encoding="utf-8") as f:
        json.dump({"format": "paperterm-library", "version": 1, "exported_at": "now",
                   "papers": [{"id": b, "starred": True, "note": f"imported {b}",
                               "tags": ["imp"]} for b in batch]}, f)
    if main(["library", "import", library]) == 0:
        ack("import", *batch)
    store.zotero.record_zotero_sent("user/1", [pid]); ack("zotero", pid)
    store.deliveries.record_delivery(f"day{i}", "moe", "slack", "hook"); ack("delivery", f"day{i}")
    store.scores.save_embeddings("m", [(f"2605.{i:05d}.{k}", f"fp{k}", bytes([k % 256]) * {DIM})
                                       for k in range(40)])
    ack("embeddings", f"2605.{i:05d}")
    day = [paper(f"2606.{i:05d}.{k}") for k in range(60)]
    cache.save(store, f"d{i}", day, topic, "v1",
               [Score(p.id, 1, k % 10 + 1, None, "r", "scored", fine=k / 60)
                for k, p in enumerate(day)])
    ack("ranking", f"d{i}")
    i += 1
""".replace("{BATCH}", str(BATCH)).replace("{DIM}", str(DIM)).replace("{GROUP}", str(GROUP))


def _rows(db: Path, sql: str) -> int:
    """What a reader of the database sees now (0 before the table exists)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return int(conn.execute(sql).fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


def _run_until_killed(home: Path, start: int,
                      ready: Callable[[list[list[str]]], bool]) -> list[list[str]]:
    """Start the writer and kill it (SIGKILL) as soon as `ready(acknowledgements so far)`;
    every write it acknowledged."""
    env = {**os.environ, "PAPERTERM_HOME": str(home), "PAPERTERM_CONFIG": str(home / "none"),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(home), str(start)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    acks: list[list[str]] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            # a line the kill cut short (no newline yet) acknowledges nothing
            if line.startswith("ACK ") and line.endswith("\n") and len(line.split()) > 1:
                acks.append(line.split()[1:])

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        wait_for(lambda: ready(acks) or proc.poll() is not None, timeout=60, every=0.001,
                 what="the moment to kill the writer")
        assert proc.poll() is None, f"the writer stopped by itself ({proc.returncode})"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        reader.join(10)  # what it printed before the kill landed was acknowledged too
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    return list(acks)


def _check(home: Path, acks: list[list[str]]) -> None:
    """The database opens normally, is intact, holds every acknowledged write and nothing
    twice."""
    db = home / "paperterm.sqlite3"
    store = Store.open(db)  # what the next start does
    try:
        assert not store.notice, store.notice  # not moved aside as corrupt
        assert store.db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        topic = resolve_topic("moe", _config()).topic
        for what, *ids in acks:
            if what == "star":
                assert store.marks.states(ids)[ids[0]].starred
            elif what == "note":
                assert store.marks.note(ids[0]) == f"note {int(ids[0][5:])}"
            elif what == "tags":
                assert store.marks.tags(ids)[ids[0]] == ["k", f"t{int(ids[0][5:])}"]
            elif what == "dismiss":
                assert set(ids) <= store.marks.dismissed_ids("moe")
            elif what == "saved":
                states = store.marks.states(ids)
                assert all(states[i].saved and states[i].bib_key for i in ids)
            elif what == "import":
                states, notes = store.marks.states(ids), store.marks.notes(ids)
                assert all(states[i].starred for i in ids)
                assert all(notes[i] == f"imported {i}" for i in ids)  # never appended twice
                assert all(store.marks.tags([i])[i] == ["imp"] for i in ids)
            elif what == "zotero":
                assert store.zotero.sent_to_zotero("user/1", ids) == set(ids)
            elif what == "delivery":
                assert store.deliveries.delivered(ids[0], "moe", "slack") is not None
            elif what == "embeddings":
                got = store.scores.embeddings("m", [f"{ids[0]}.{k}" for k in range(40)])
                assert len(got) == 40 and all(len(v) == DIM for _, v in got.values())
            elif what == "ranking":
                day = [_paper(f"2606.{int(ids[0][1:]):05d}.{k}") for k in range(60)]
                assert cache.cached(store, ids[0], day, topic, "v1") is not None
    finally:
        store.close()
    conn = sqlite3.connect(db)
    try:
        # an import is all or nothing: each batch's papers are all starred, or none is
        starred = {r[0] for r in conn.execute("SELECT id FROM user_state WHERE starred=1")}
        imported = sorted(i for i in starred if i.startswith("2602."))
        batches: dict[int, int] = {}
        for pid in imported:
            batches[int(pid[5:]) // BATCH] = batches.get(int(pid[5:]) // BATCH, 0) + 1
        assert set(batches.values()) <= {BATCH}, batches
        # so is marking several papers "not interested", or saved, at once
        for sql, prefix in (("SELECT id FROM dismissals", "2603."),
                            ("SELECT id FROM user_state WHERE saved_at IS NOT NULL", "2604.")):
            groups: dict[str, int] = {}
            for (pid,) in conn.execute(sql):
                if pid.startswith(prefix):
                    groups[pid.rsplit(".", 1)[0]] = groups.get(pid.rsplit(".", 1)[0], 0) + 1
            assert set(groups.values()) <= {GROUP}, (prefix, groups)
        for table, key in (("tags", "id, tag"), ("zotero_sent", "id, target"),
                           ("deliveries", "day, topic, channel"), ("notes", "id"),
                           ("dismissals", "id, topic"), ("paper_embeddings", "id, model")):
            twice = conn.execute(f"SELECT {key}, count(*) FROM {table} GROUP BY {key} "
                                 "HAVING count(*) > 1").fetchall()
            assert twice == [], (table, twice)
    finally:
        conn.close()


def _config():  # type: ignore[no-untyped-def]
    from paperterm.settings.config import Config

    return Config()


def _paper(pid: str) -> Paper:
    return Paper(id=pid, version=1, title=f"Paper {pid}", authors=("A. Author",),
                 abstract=f"About {pid}.", categories=("cs.LG",), primary_category="cs.LG")


def _kill_when(db: Path, after: int, sql: str | None,
               rng: random.Random) -> Callable[[list[list[str]]], bool]:
    """Once `after` writes were acknowledged; with `sql`, once it counts a random number of
    rows more than now."""
    if sql is None:
        return lambda acks: len(acks) >= after
    goal = _rows(db, sql) + rng.randint(1, 2 * GROUP - 1)
    return lambda acks: _rows(db, sql) >= goal


@pytest.mark.parametrize("seed", [1, 2])
def test_killed_at_random_points_nothing_lost_nothing_twice(tmp_path, seed):
    rng = random.Random(seed)
    home = tmp_path / "home"
    home.mkdir()
    db = home / "paperterm.sqlite3"
    after = rng.randint(10, 60)
    counts = {"dismissals": "SELECT count(*) FROM dismissals",
              "saved": "SELECT count(*) FROM user_state WHERE saved_at IS NOT NULL"}
    everything: list[list[str]] = []
    # after a random number of writes; then as soon as a reader sees a random number of new
    # rows (inside a write of several, if it is not one transaction). The second run writes
    # the first one's marks again, as the user would after a crash.
    for start, kill_at in ((0, "acks"), (0, "dismissals"), (20, "saved")):
        ready = _kill_when(db, after, counts.get(kill_at), rng)
        everything += _run_until_killed(home, start, ready)
        _check(home, everything)
    assert any(a[0] == "ranking" for a in everything)
    assert [p.name for p in home.iterdir() if p.name.endswith(".tmp")] == []
