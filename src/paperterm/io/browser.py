"""Which browser opens a link, and whether it runs in the terminal.

`$BROWSER` (commands separated by the path separator; `%s` stands for the URL, else the URL
is appended) wins, as with Python's `webbrowser`. A console browser (lynx, w3m, ...) needs the
terminal: the reader suspends itself while it runs. No Textual here."""

from __future__ import annotations

import os
import shlex
import shutil
import webbrowser
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

CONSOLE_BROWSERS = frozenset({"lynx", "w3m", "links", "links2", "elinks", "browsh",
                              "carbonyl", "cha", "www-browser", "netrik", "edbrowse"})


@dataclass(frozen=True)
class Launch:
    """A browser command line for one URL."""

    command: list[str]
    console: bool  # runs in the terminal: the reader must hand it over

    @property
    def name(self) -> str:
        return Path(self.command[0]).name


def _launch(parts: list[str], url: str) -> Launch:
    args = ([p.replace("%s", url) for p in parts] if any("%s" in p for p in parts)
            else [*parts, url])
    return Launch(args, Path(parts[0]).name in CONSOLE_BROWSERS)


def from_env(url: str, env: Mapping[str, str],
             which: Callable[[str], str | None] = shutil.which) -> Launch | None:
    """The first `$BROWSER` command whose program exists, for `url`."""
    for entry in env.get("BROWSER", "").split(os.pathsep):
        try:
            parts = shlex.split(entry)
        except ValueError:
            continue
        if parts and which(parts[0]) is not None:
            return _launch(parts, url)
    return None


def console_default(url: str) -> Launch | None:
    """Python's own choice, if it is a console browser run in the foreground (what it picks
    without a display: www-browser, links, elinks, lynx, w3m)."""
    try:
        controller = webbrowser.get()
    except webbrowser.Error:
        return None
    if type(controller) is webbrowser.GenericBrowser:
        parts = [controller.name, *getattr(controller, "args", [])]
        launch = _launch(parts, url)
        if launch.console:
            return launch
    return None


def plan(url: str, env: Mapping[str, str] | None = None) -> Launch | None:
    """How to open `url`: a command of our own, or None for `webbrowser.open`."""
    env = os.environ if env is None else env
    return from_env(url, env) or console_default(url)
