"""The real program in a real terminal: `paperterm --feed ...` inside tmux, driven with
send-keys and read back with capture-pane, as a user sees it."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import threading
from pathlib import Path

import pytest
from support.tmux import Pane

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
COLS, ROWS = 140, 40

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal(Pane):
    def __init__(self, command: str, env: dict[str, str], cols: int = COLS,
                 rows: int = ROWS) -> None:
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # COLUMNS/LINES, if the tmux server inherited them, would override the pane's real
        # size for the program (Python's shutil.get_terminal_size reads them first)
        script = (f"cd {shlex.quote(str(ROOT))} && env -u COLUMNS -u LINES {exports} {command}; "
                  "echo EXIT=$?; sleep 30")
        super().__init__(f"bash -c {shlex.quote(script)}", cols, rows)


def reader_env(tmp_path: Path) -> dict[str, str]:
    return {
        "PAPERTERM_HOME": str(tmp_path / "home"),
        "PAPERTERM_CONFIG": str(tmp_path / "config.toml"),
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
    }


READER = (f"{shlex.quote(sys.executable)} -m paperterm --feed {shlex.quote(str(FEED))} "
          "--topic moe")


def _top_titles(tmp_path: Path, n: int) -> list[str]:
    import json
    import subprocess

    proc = subprocess.run([sys.executable, "-m", "paperterm", "score", "--feed", str(FEED),
                           "--topic", "moe", "--json", "--limit", str(n)],
                          env=reader_env(tmp_path / "score"), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line)["title"] for line in proc.stdout.splitlines()]


@pytest.fixture
def terminal(tmp_path):
    term = Terminal(READER, reader_env(tmp_path))
    yield term, tmp_path
    term.close()


def test_list_move_sort_filter_save_quit_in_a_real_terminal(terminal):
    term, tmp_path = terminal
    # the first start's notice (how to score with a model) shows in the header line first
    first = term.wait(lambda s: "244/244 papers" in s)
    assert "topic moe" in first and "2026-02-25" in first
    # the topic's top papers (as `score --json` ranks them, keywords or blend) are on the first
    # screen: one of the top five titles shows, as far as the list has room for it
    top = [title[:30] for title in _top_titles(tmp_path, 5)]
    term.wait(lambda s: any(t in s for t in top))
    # sort: the header names the new key (no novelty sorts: the local scorer gives none)
    term.keys("s")
    term.wait(lambda s: "sort title" in s)
    term.keys("S")
    term.wait(lambda s: "sort title" in s and "▼" in s)
    term.keys("s", "s", "s")  # back round to relevance
    term.wait(lambda s: "sort relevance" in s)
    # text filter, typed fast, straight after "/"
    term.keys("/", "quantization")
    screen = term.wait(lambda s: 'filter: "quantization"' in s)
    assert "/244 papers" in screen and "244/244" not in screen
    term.keys("Enter")
    # mark two papers and save them to the .bib file
    term.keys("x", "j", "x", "b")
    screen = term.wait(lambda s: "Saved to" in s)
    bib = tmp_path / "home" / "papers.bib"
    entries = [line for line in bib.read_text(encoding="utf-8").splitlines()
               if line.startswith("@misc{")]
    assert len(entries) == 2
    term.wait(lambda s: s.count("✓") >= 2)  # both rows now show the saved mark
    # quit cleanly: exit code 0, no traceback on the terminal
    term.keys("q")
    final = term.wait(lambda s: "EXIT=" in s)
    assert "EXIT=0" in final and "Traceback" not in final


def test_a_hanging_network_never_shows_a_blank_terminal(tmp_path):
    """Issue 10, item 4: the reader paints at once and says what it loads; q still quits.
    Nothing is cached: the bundled sample day shows meanwhile, said so (issue 32, item 11)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from support.fakearxiv import FakeArxiv, Reply

    fake = FakeArxiv()
    fake.route("/rss/", Reply(body=FEED.read_bytes(), hold=threading.Event()))  # never set
    env = {
        "PAPERTERM_HOME": str(tmp_path / "home"),
        "PAPERTERM_CONFIG": str(tmp_path / "config.toml"),
        "PAPERTERM_RSS_URL": fake.rss_url,
        "PAPERTERM_TODAY": "2026-02-25",
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
    }
    term = Terminal(f"{shlex.quote(sys.executable)} -m paperterm --topic moe", env)
    try:
        # the answer never comes: a reader that waited for it would never show the sample,
        # and the notice says the fetch still goes on (no wall-clock bound: the event itself)
        screen = term.wait(lambda s: "bundled sample day" in s)
        assert "while today's announcement loads" in screen
        assert term.wait(lambda s: "[sample]" in s)  # the header, once it shows
        term.keys("q")
        final = term.wait(lambda s: "EXIT=" in s)
        assert "EXIT=0" in final and "Traceback" not in final
    finally:
        term.close()
        fake.close()


def test_at_80x24_the_preview_shows_at_least_six_abstract_lines(tmp_path):
    """Issue 10, item 7: in the smallest usual terminal the abstract is readable."""
    from paperterm.sources.feeds import parse_feed
    from paperterm.text.texrender import tex_to_unicode

    abstracts = [" ".join(tex_to_unicode(p.abstract).split())
                 for p in parse_feed(FEED.read_bytes()).papers]
    env = {
        "PAPERTERM_HOME": str(tmp_path / "home"),
        "PAPERTERM_CONFIG": str(tmp_path / "config.toml"),
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
    }
    command = (f"{shlex.quote(sys.executable)} -m paperterm --feed {shlex.quote(str(FEED))} "
               "--topic moe")
    term = Terminal(command, env, cols=80, rows=24)

    def abstract_lines(screen: str) -> set[str]:
        rows = [" ".join(r.strip(" ▁▂▃▄▅▆▇█▌▐│┃").split()) for r in screen.splitlines()]
        return {r for r in rows if len(r) > 15 and any(r in a for a in abstracts)}

    try:
        term.wait(lambda s: "244/244" in s)
        # a fresh home: the first-start hint covers half the preview for its ten seconds
        first = abstract_lines(term.wait(lambda s: len(abstract_lines(s)) >= 6))
        term.keys("j", "j", "j")  # and on another paper too
        term.wait(lambda s: len(abstract_lines(s) - first) >= 6)
        term.keys("q")
        final = term.wait(lambda s: "EXIT=" in s)
        assert "EXIT=0" in final
    finally:
        term.close()


FOOTER_ITEMS = ("? Help", "q Quit", "space More", "v Cards", "s Sort", "/ Search",
                "f Filters", "* Star", "x Mark", "^z Undo", "b Save .bib", "o Open", "t Topic")


@pytest.mark.parametrize("cols", [80, 100])
def test_the_footer_shows_whole_keys_only(tmp_path, cols):
    """Issue 10, item 12: at 80 columns the footer cut "b Save .bib" to "b S" and left a
    stray letter after "^p palette"."""
    term = Terminal(READER, reader_env(tmp_path), cols=cols, rows=24)
    try:
        screen = term.wait(lambda s: "244/244" in s and "palette" in s)
        footer = term.wait(lambda s: "q Quit" in s.splitlines()[-1]).splitlines()[-1]
        keys, _, palette = footer.partition("▏")
        assert palette.strip() == "^p palette", footer
        rest = keys
        shown = [item for item in FOOTER_ITEMS if item in keys]
        for item in shown:
            rest = rest.replace(item, "", 1)
        assert rest.strip() == "", f"stray characters in the footer: {footer!r}"
        assert len(shown) >= 4, footer
        assert "Traceback" not in screen
    finally:
        term.close()


def test_a_console_browser_gets_the_terminal_and_the_reader_comes_back(tmp_path):
    """Issue 10, item 14: with BROWSER=lynx the reader suspends (the browser draws on a
    normal terminal and reads its keys), then resumes where it was."""
    lynx = tmp_path / "bin" / "lynx"
    lynx.parent.mkdir()
    lynx.write_text(f"#!{sys.executable}\nimport sys\nprint('FAKE-LYNX', sys.argv[1])\n"
                    "input('press enter to leave> ')\nprint('LEAVING')\n", encoding="utf-8")
    lynx.chmod(0o755)
    env = {**reader_env(tmp_path), "BROWSER": str(lynx)}
    term = Terminal(READER, env, cols=100, rows=30)
    try:
        term.wait(lambda s: "244/244" in s and "q Quit" in s)
        term.keys("j", "o")
        screen = term.wait(lambda s: "FAKE-LYNX https://arxiv.org/abs/" in s)
        assert "press enter to leave>" in screen and "244/244" not in screen
        term.keys("Enter")
        back = term.wait(lambda s: "244/244" in s and "FAKE-LYNX" not in s)
        assert "Traceback" not in back
        term.keys("q")
        final = term.wait(lambda s: "EXIT=" in s)
        assert "EXIT=0" in final and "Traceback" not in final
    finally:
        term.close()
