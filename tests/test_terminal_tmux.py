"""The real program in a real terminal: `paperterm --feed ...` inside tmux, driven with
send-keys and read back with capture-pane, as a user sees it."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
COLS, ROWS = 140, 40

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    def __init__(self, command: str, env: dict[str, str]) -> None:
        self.name = f"pt-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # COLUMNS/LINES, if the tmux server inherited them, would override the pane's real
        # size for the program (Python's shutil.get_terminal_size reads them first)
        script = (f"cd {shlex.quote(str(ROOT))} && env -u COLUMNS -u LINES {exports} {command}; "
                  "echo EXIT=$?; sleep 30")
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", str(COLS),
                        "-y", str(ROWS), "bash", "-c", script], check=True)

    def screen(self) -> str:
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True, check=True).stdout

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def wait(self, condition: Callable[[str], bool], seconds: float = 20.0) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            text = self.screen()
            if condition(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"screen never matched; last screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def terminal(tmp_path):
    env = {
        "PAPERTERM_HOME": str(tmp_path / "home"),
        "PAPERTERM_CONFIG": str(tmp_path / "config.toml"),
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
    }
    command = (f"{shlex.quote(sys.executable)} -m paperterm --feed {shlex.quote(str(FEED))} "
               "--topic moe")
    term = Terminal(command, env)
    yield term, tmp_path
    term.close()


def test_list_move_sort_filter_save_quit_in_a_real_terminal(terminal):
    term, tmp_path = terminal
    first = term.wait(lambda s: "244/244 papers" in s)
    assert "topic moe" in first and "2026-02-25" in first
    assert "MoBiQuant" in first  # a top paper for the topic is on the first screen
    # sort: the header names the new key
    term.keys("s")
    term.wait(lambda s: "sort novelty" in s)
    term.keys("S")
    term.wait(lambda s: "sort novelty" in s and "▲" in s)
    term.keys("s", "s", "s", "s", "s")  # back round to relevance
    term.wait(lambda s: "sort relevance" in s)
    # text filter, typed fast, straight after "/"
    term.keys("/", "quantization")
    screen = term.wait(lambda s: "/244 papers" in s and "244/244" not in s)
    assert 'filter: "quantization"' in screen
    term.keys("Enter")
    # mark two papers and save them to the .bib file
    term.keys("x", "j", "x", "b")
    screen = term.wait(lambda s: "Saved to" in s, seconds=15)
    bib = tmp_path / "home" / "papers.bib"
    entries = [line for line in bib.read_text(encoding="utf-8").splitlines()
               if line.startswith("@misc{")]
    assert len(entries) == 2
    term.wait(lambda s: s.count("✓") >= 2)  # both rows now show the saved mark
    # quit cleanly: exit code 0, no traceback on the terminal
    term.keys("q")
    final = term.wait(lambda s: "EXIT=" in s)
    assert "EXIT=0" in final and "Traceback" not in final
