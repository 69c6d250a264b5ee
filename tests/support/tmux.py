"""A program in a real terminal: a tmux pane, driven with send-keys, read with capture-pane.

Each pane runs on a tmux server of its own (`-L`): on the shared default server, a test
closing the last session stopped the server while another test (a parallel worker) was
starting one on it ("server exited unexpectedly", a CI run lost that way)."""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import Callable


class Pane:
    def __init__(self, command: str, cols: int, rows: int) -> None:
        """Start `command` (a shell command line) in a `cols` x `rows` pane."""
        self.name = f"pt-{uuid.uuid4().hex[:8]}"
        self._tmux = ["tmux", "-L", self.name]
        subprocess.run([*self._tmux, "new-session", "-d", "-s", self.name, "-x", str(cols),
                        "-y", str(rows), command], check=True)

    def screen(self) -> str:
        return subprocess.run([*self._tmux, "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True, check=True).stdout

    def screen_with_colours(self) -> str:
        """The screen with its colours and attributes as SGR escapes (`capture-pane -e`)."""
        return subprocess.run([*self._tmux, "capture-pane", "-e", "-p", "-t", self.name],
                              capture_output=True, text=True, check=True).stdout

    def keys(self, *keys: str) -> None:
        subprocess.run([*self._tmux, "send-keys", "-t", self.name, *keys], check=True)

    def wait(self, condition: Callable[[str], bool], seconds: float = 90.0,
             every: float = 0.1) -> str:
        """The first screen that satisfies `condition`; AssertionError (with the last
        screen) after `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            text = self.screen()
            if condition(text):
                return text
            time.sleep(every)
        raise AssertionError(f"screen never matched; last screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self._tmux, "kill-server"], capture_output=True)
