"""Opening links and copying from the reader (issue 10, item 14): a console `$BROWSER`
needs the terminal, a graphical one starts detached; copying says whether the clipboard
write is known to work and falls back to the system tools."""

from __future__ import annotations

import stat
import sys
from pathlib import Path


def script(path: Path, body: str) -> Path:
    path.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def record_stdin(path: Path, out: Path) -> Path:
    return script(path, f"import sys; open({str(out)!r}, 'wb').write(sys.stdin.buffer.read())\n")


async def test_copy_falls_back_to_xclip_and_says_so(make_session, make_app, probe, size,
                                                   monkeypatch, tmp_path, until):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    out = tmp_path / "clip.txt"
    record_stdin(bin_dir / "xclip", out)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("DISPLAY", ":0")
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        sent: list[str] = []
        monkeypatch.setattr(app, "copy_to_clipboard", sent.append)
        await pilot.press("c")
        await until(pilot, lambda: p.said("Copied the BibTeX entry"))
        assert p.notices()[-1].endswith("to the clipboard (xclip)")
        assert out.read_text(encoding="utf-8").lstrip().startswith("@")
        assert p.current.paper.id in out.read_text(encoding="utf-8")
        assert sent == []  # the tool's write is known to work: no escape needed


async def test_copy_where_the_escape_is_known_to_fail_warns(make_session, make_app, probe,
                                                            size, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no clipboard tool
    monkeypatch.setenv("TERM_PROGRAM", "Apple_Terminal")
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("c")
        warning = p.notices("warning")[-1]
        assert "Terminal.app ignores" in warning and "probably unchanged" in warning
        assert "xclip" in warning


async def test_copy_where_the_escape_is_known_to_work(make_session, make_app, probe, size,
                                                      monkeypatch):
    monkeypatch.setenv("KITTY_WINDOW_ID", "1")
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        sent: list[str] = []
        monkeypatch.setattr(app, "copy_to_clipboard", sent.append)
        await pilot.press("c")
        assert len(sent) == 1 and p.notices()[-1].startswith("Copied the BibTeX entry ")
        assert p.notices()[-1].endswith("to the clipboard")


async def test_graphical_browser_starts_detached(make_session, make_app, probe, size,
                                                 monkeypatch, tmp_path, until):
    out = tmp_path / "opened.txt"
    browser = script(tmp_path / "firefox",
                     f"import sys; open({str(out)!r}, 'w').write(sys.argv[-1])\n")
    monkeypatch.setenv("BROWSER", f"{browser} --new-tab %s")
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("o")
        url = f"https://arxiv.org/abs/{p.current.paper.id}"
        assert p.said(f"Opening {url}")
        await until(pilot, lambda: out.exists() and out.read_text() == url)


async def test_console_browser_without_a_real_terminal_gives_the_link(
        make_session, make_app, probe, size, monkeypatch, tmp_path):
    out = tmp_path / "ran.txt"
    browser = script(tmp_path / "lynx", f"open({str(out)!r}, 'w').write('ran')\n")
    monkeypatch.setenv("BROWSER", str(browser))
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:  # headless: the terminal cannot be lent
        p = probe(app)
        await pilot.press("o")
        warning = p.notices("warning")[-1]
        assert "lynx needs the terminal" in warning
        assert f"https://arxiv.org/abs/{p.current.paper.id}" in warning
        assert not out.exists()  # never run over the app's screen
