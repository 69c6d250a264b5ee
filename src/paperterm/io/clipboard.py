"""The clipboard: whether the terminal's OSC 52 escape is known to reach it, and the system
clipboard tools (wl-copy, xclip, xsel, pbcopy) to fall back on. No Textual here: the reader
sends the escape itself; this module decides and runs the tools."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass

TOOL_TIMEOUT = 3.0  # seconds a clipboard tool may take

# Terminals known to put OSC 52 text on the clipboard (by an environment variable they set).
_OSC52_TERM_PROGRAMS = {"iTerm.app": "iTerm2", "WezTerm": "WezTerm", "ghostty": "Ghostty"}
_OSC52_MARKERS = {"KITTY_WINDOW_ID": "kitty", "WT_SESSION": "Windows Terminal",
                  "ALACRITTY_SOCKET": "Alacritty", "ALACRITTY_WINDOW_ID": "Alacritty"}


@dataclass(frozen=True)
class Osc52:
    """Whether the OSC 52 escape is known to work here: True, False or None (unknown)."""

    works: bool | None
    why: str


def tmux_set_clipboard() -> str | None:
    """tmux's `set-clipboard` option ("on", "external", "off"), None if unknown."""
    tmux = shutil.which("tmux")
    if tmux is None:
        return None
    try:
        done = subprocess.run([tmux, "show-options", "-gv", "set-clipboard"],
                              capture_output=True, text=True, timeout=3)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def osc52_support(env: Mapping[str, str],
                  tmux_setting: Callable[[], str | None] = tmux_set_clipboard) -> Osc52:
    """What is known about OSC 52 in the terminal `env` describes."""
    if env.get("TERM_PROGRAM") == "Apple_Terminal":
        return Osc52(False, "Terminal.app ignores clipboard escapes")
    if env.get("STY"):
        return Osc52(False, "GNU screen does not pass clipboard escapes on")
    if env.get("TMUX"):
        setting = tmux_setting()
        if setting == "off":
            return Osc52(False, "tmux has set-clipboard off")
        if setting in ("on", "external"):
            return Osc52(True, f"tmux (set-clipboard {setting})")
        return Osc52(None, "tmux, set-clipboard unknown")
    name = _OSC52_TERM_PROGRAMS.get(env.get("TERM_PROGRAM", ""))
    name = name or next((n for var, n in _OSC52_MARKERS.items() if env.get(var)), None)
    if name is None and "kitty" in env.get("TERM", ""):
        name = "kitty"
    if name is not None:
        return Osc52(True, name)
    return Osc52(None, "this terminal may or may not accept clipboard escapes")


def over_ssh(env: Mapping[str, str]) -> bool:
    """Whether the reader runs in an SSH session (the user's clipboard is on another
    machine)."""
    return bool(env.get("SSH_CONNECTION") or env.get("SSH_CLIENT") or env.get("SSH_TTY"))


def _forwarded_display(display: str) -> bool:
    """An X display forwarded over SSH ("localhost:10.0"), not this machine's own (":0")."""
    return bool(display.partition(":")[0])


def system_tool(env: Mapping[str, str],
                which: Callable[[str], str | None] = shutil.which) -> list[str] | None:
    """The command line of a clipboard tool that can work here (it reads the text on
    stdin), or None: wl-copy under Wayland, xclip or xsel under X11, pbcopy on macOS. Over
    SSH only a forwarded X display reaches the user's clipboard: the remote machine's own
    clipboard tools would copy where the user cannot paste (OSC 52 instead)."""
    candidates: list[list[str]] = []
    ssh = over_ssh(env)
    if env.get("WAYLAND_DISPLAY") and not ssh:
        candidates.append(["wl-copy"])
    if env.get("DISPLAY") and (not ssh or _forwarded_display(env["DISPLAY"])):
        candidates += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
    if not ssh:
        candidates.append(["pbcopy"])  # macOS: needs no display variable
    for command in candidates:
        path = which(command[0])
        if path is not None:
            return [path, *command[1:]]
    return None


def copy_with_tool(command: list[str], text: str) -> str | None:
    """Write `text` through `command`; the problem, or None once the tool took it.

    Output goes to /dev/null: xclip and wl-copy leave a child running that holds the
    selection, which must not keep a pipe of ours open."""
    try:
        done = subprocess.run(command, input=text.encode("utf-8"), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=TOOL_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{command[0]} failed: {exc}"
    if done.returncode != 0:
        return f"{command[0]} exited with status {done.returncode}"
    return None
