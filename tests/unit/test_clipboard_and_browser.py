"""Which clipboard route and which browser (issue 10, item 14), without a terminal."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from paperterm.io.browser import from_env
from paperterm.io.clipboard import copy_with_tool, osc52_support, system_tool


def tool(path: Path, body: str) -> Path:
    path.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_osc52_is_known_to_work_fail_or_unknown():
    assert osc52_support({"TERM_PROGRAM": "Apple_Terminal"}).works is False
    assert osc52_support({"STY": "1.pts"}).works is False
    assert osc52_support({"TMUX": "/tmp/t,1,0"}, lambda: "off").works is False
    assert osc52_support({"TMUX": "/tmp/t,1,0"}, lambda: "on").works is True
    assert osc52_support({"TMUX": "/tmp/t,1,0"}, lambda: None).works is None
    assert osc52_support({"KITTY_WINDOW_ID": "1"}).works is True
    assert osc52_support({"TERM_PROGRAM": "WezTerm"}).works is True
    assert osc52_support({"TERM": "xterm-256color"}).works is None


def test_system_tool_follows_the_display():
    found = {"wl-copy": "/bin/wl-copy", "xclip": "/bin/xclip", "xsel": "/bin/xsel"}.get
    assert system_tool({"WAYLAND_DISPLAY": "w-0", "DISPLAY": ":0"}, found) == ["/bin/wl-copy"]
    assert system_tool({"DISPLAY": ":0"}, found) == ["/bin/xclip", "-selection", "clipboard"]
    only_xsel = {"xsel": "/bin/xsel"}.get
    assert system_tool({"DISPLAY": ":0"}, only_xsel) == ["/bin/xsel", "--clipboard", "--input"]
    assert system_tool({}, found) is None  # no display: X11 tools cannot work
    assert system_tool({}, {"pbcopy": "/usr/bin/pbcopy"}.get) == ["/usr/bin/pbcopy"]


def test_copy_with_tool_reports_success_and_failure(tmp_path):
    out = tmp_path / "clip.txt"
    good = tool(tmp_path / "xclip", f"import sys; open({str(out)!r}, 'wb').write("
                                    "sys.stdin.buffer.read())\n")
    assert copy_with_tool([str(good)], "@misc{x, title={Ü}}") is None
    assert out.read_text(encoding="utf-8") == "@misc{x, title={Ü}}"
    bad = tool(tmp_path / "xsel", "import sys; sys.exit(3)\n")
    assert "status 3" in (copy_with_tool([str(bad)], "x") or "")
    assert "failed" in (copy_with_tool([str(tmp_path / "missing")], "x") or "")


def test_browser_from_env(tmp_path):
    exists = {"lynx": "/bin/lynx", "firefox": "/bin/firefox", "w3m": "/bin/w3m"}.get
    url = "https://arxiv.org/abs/2602.00001"
    lynx = from_env(url, {"BROWSER": "lynx"}, exists)
    assert lynx is not None and lynx.console and lynx.command == ["lynx", url]
    ff = from_env(url, {"BROWSER": f"nothere{os.pathsep}firefox --new-tab %s"}, exists)
    assert ff is not None and not ff.console and ff.command == ["firefox", "--new-tab", url]
    assert from_env(url, {"BROWSER": "nothere"}, exists) is None
    assert from_env(url, {}, exists) is None
    w3m = from_env(url, {"BROWSER": "/usr/bin/w3m -o x=1"}, lambda _: "/usr/bin/w3m")
    assert w3m is not None and w3m.console and w3m.name == "w3m"


def test_doctor_names_the_clipboard_tool_c_falls_back_to(cli, tmp_path):
    tool(tmp_path / "xclip", "import sys; sys.stdin.read()\n")
    r = cli("doctor", "--no-request", env={"TERM_PROGRAM": "Apple_Terminal", "DISPLAY": ":0",
                                           "PATH": str(tmp_path)})
    found = next(line for line in r.stdout.splitlines() if "clipboard" in line)
    assert found.lstrip().startswith("ok") and "xclip" in found, found


# -- issue 32 (low): copy works over SSH: OSC 52 when no local clipboard is reachable -----

def test_over_ssh_the_remote_machines_clipboard_tools_are_not_the_users():
    found = {"wl-copy": "/bin/wl-copy", "xclip": "/bin/xclip", "pbcopy": "/bin/pbcopy"}.get
    ssh = {"SSH_CONNECTION": "10.0.0.2 5000 10.0.0.1 22"}
    assert system_tool({**ssh, "DISPLAY": ":0", "WAYLAND_DISPLAY": "w-0"}, found) is None
    assert system_tool(ssh, found) is None  # not pbcopy either
    forwarded = system_tool({**ssh, "DISPLAY": "localhost:10.0"}, found)
    assert forwarded == ["/bin/xclip", "-selection", "clipboard"]  # ssh -X: the user's


def test_copy_over_ssh_sends_osc52_through_textual_and_says_so(monkeypatch):
    from paperterm.tui import copying

    class App:
        def __init__(self) -> None:
            self.copied: list[str] = []
            self.said: list[str] = []

        def copy_to_clipboard(self, text: str) -> None:  # Textual's: the OSC 52 escape
            self.copied.append(text)

        def say(self, text: str, *args: object, **kwargs: object) -> None:
            self.said.append(text)

    for var in list(os.environ):
        if var.startswith(("SSH_", "TMUX", "STY", "KITTY", "WT_", "ALACRITTY", "TERM_PRO")):
            monkeypatch.delenv(var)
    monkeypatch.setenv("SSH_CONNECTION", "10.0.0.2 5000 10.0.0.1 22")
    monkeypatch.setenv("DISPLAY", ":0")  # the remote desktop's: xclip would copy there
    monkeypatch.setattr(copying, "system_tool", lambda env: system_tool(
        env, {"xclip": "/bin/xclip"}.get))
    app = App()
    copying.copy_text(app, "@misc{key2026}", "BibTeX entry key2026")  # type: ignore[arg-type]
    assert app.copied == ["@misc{key2026}"]
    assert app.said and "over SSH" in app.said[0] and "OSC 52" in app.said[0]
