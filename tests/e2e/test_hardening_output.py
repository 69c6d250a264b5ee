"""Issue 31, items 8-9: no terminal escape from data on any command, and stdout on a full
disk is one line with a documented exit code."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"


@pytest.fixture
def sample_cached(cli):  # type: ignore[no-untyped-def]
    r = cli("score", "--sample", "--scorer", "local", "--json")
    assert r.returncode == 0, r.stderr
    return [line for line in r.stdout.splitlines()]


def test_a_star_topic_with_an_escape_never_reaches_the_terminal(cli, sample_cached,
                                                                isolated_home):
    pid = "2602.20394"
    assert cli("star", pid).returncode == 0
    db = sqlite3.connect(isolated_home.db)
    db.execute("UPDATE user_state SET star_topic = ? WHERE id = ?", (f"evil{OSC52}", pid))
    db.commit()
    db.close()
    r = cli("star", pid)
    assert r.returncode == 0, r.stderr
    assert "(was evil)" in r.stderr and "\x1b" not in r.stderr + r.stdout
    for args in (("starred",), ("starred", "--json"), ("search", "ising", "--json"),
                 ("library", "export", "-")):
        r = cli(*args)
        assert "\x1b" not in r.stdout + r.stderr, args


def test_every_headless_line_is_cleaned(cli, sample_cached, isolated_home):
    db = sqlite3.connect(isolated_home.db)  # a title that came in raw, from an older version
    db.execute("UPDATE papers SET title = ? WHERE id = '2602.20394'",
               (f"Ising{OSC52}\x1b[2J\u202emodels",))
    db.commit()
    db.close()
    for args in (("star", "2602.20394"), ("search", "ising"), ("starred",)):
        r = cli(*args)
        assert r.returncode == 0 and "Ising" in r.stdout, (args, r.stderr)
        assert not any(c in r.stdout + r.stderr for c in "\x1b\x07\u202e"), args


def test_stdout_on_a_full_disk_is_one_line(cli, sample_cached):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    for args in (["search", "model", "--json"], ["score", "--sample", "--scorer", "local",
                                                 "--json"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([sys.executable, "-m", "paperterm", *args], stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=120, env=env)
        assert r.returncode == 1, r.stderr
        lines = [x for x in r.stderr.splitlines() if x.startswith("paperterm:")]
        assert lines == ["paperterm: cannot write the output: the disk it goes to is full "
                         "(No space left on device); the output is incomplete"], r.stderr
        assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr
