"""What the reader's start on a cached day costs (issue 10, item 4): no feed parser, no
HTTP stack, no library screens imported, and no garbage collection before the first paint."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

START_MODULES = ("paperterm.cli", "paperterm.cli.reader", "paperterm.cli.session",
                 "paperterm.sources.loader", "paperterm.tui.app")
NOT_AT_START = ("lxml", "urllib.request", "http.client", "paperterm.sources.feeds",
                "paperterm.sources.rss", "paperterm.tui.screens.library", "litellm",
                # the local ranking runs after the first paint (the ranking process's
                # client imported it all: 11 ms of the start)
                "paperterm.scoring.local", "numpy",
                # what only a revision, a refused setting or `?` needs (issue 20: first paint)
                "paperterm.io.redact", "paperterm.tui.help")


def test_the_start_path_imports_no_network_or_parser_modules():
    code = (f"import sys\nfor m in {START_MODULES!r}: __import__(m)\n"
            f"print(','.join(m for m in {NOT_AT_START!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == ""


def test_reader_start_runs_without_garbage_collection(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path):
    import paperterm.tui.app as tui_app
    from paperterm.cli import main

    seen: list[bool] = []
    monkeypatch.setattr(tui_app, "run_tui", lambda session: seen.append(gc.isenabled()) or 0)
    monkeypatch.setattr("paperterm.cli.reader.no_terminal", lambda: None)  # as in a terminal
    monkeypatch.setenv("PAPERTERM_HOME", str(tmp_path))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "none.toml"))
    assert gc.isenabled()
    assert main(["--sample", "--topic", "moe"]) == 0
    assert seen == [False]  # off while the reader starts
    assert gc.isenabled()  # and on again once it has returned


def test_a_day_due_for_a_refetch_shows_at_once_while_it_is_fetched(isolated_home,
                                                                   monkeypatch):
    """Fetched earlier today but an older announcement (or --refresh): the reader opens on
    the cached day and fetches in the background, instead of an empty "loading" screen."""
    from datetime import date
    from pathlib import Path

    from paperterm.cli.options import Options
    from paperterm.cli.parser import build_parser
    from paperterm.cli.session import open_session
    from paperterm.sources import calendar
    from paperterm.sources.feeds import parse_feed
    from paperterm.store import Store

    feed = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"
    papers = parse_feed(feed.read_bytes()).papers
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-02-26")
    store = Store.open(isolated_home.db)
    store.papers.save_day("cs.AI+cs.LG", date(2026, 2, 25), papers, source="rss",
                          fetched_for=date(2026, 2, 26))
    store.close()
    monkeypatch.setattr(calendar, "STALE_RETRY_SECONDS", 0)  # a re-fetch is due

    for argv in ([], ["--refresh"]):
        s = open_session(Options.from_namespace(build_parser().parse_args(argv)),
                         defer_network=True)
        s.close()
        assert s.pending is not None and s.pending.refresh == ("--refresh" in argv)
        assert s.day.source == "cache" and len(s.day.papers) == len(papers)
        assert any("this is the 02-25 announcement" in n for n in s.day.notices)
    s = open_session(Options.from_namespace(build_parser().parse_args(["--date",
                                                                       "2026-02-20"])),
                     defer_network=True)
    s.close()
    assert s.day.source == "loading"  # nothing of that day to show
