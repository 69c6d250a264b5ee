"""Issue 9, item 14 (output side): terminal escapes, C1 controls, bidi and zero-width
characters in model reasons, provider errors or feed text never reach a digest (Markdown or
JSON) or `score --json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperterm.models import Paper, Topic
from paperterm.outputs.digest import render_digest
from paperterm.scoring import RunSummary, Score
from paperterm.text.hygiene import clean_text

DIRTY = "evil\x1b]52;c;aGk=\x07 \x9b31m red\u202e desrever\u200b \x1b[2J end"
NASTY = ("\x1b", "\x9b", "\u202e", "\u200b", "\x07")


def dirty_day() -> tuple[list[Paper], dict[str, Score]]:
    papers = [Paper(id="2602.00001", version=1, title=f"Title {DIRTY}",
                    authors=(f"Ada {DIRTY}",), abstract=f"Abstract {DIRTY}",
                    categories=("cs.LG",), primary_category="cs.LG"),
              Paper(id="2602.00002", version=1, title="Unscored one", authors=(),
                    abstract="", categories=("cs.LG",), primary_category="cs.LG")]
    scores = {"2602.00001": Score("2602.00001", 1, 8, 5, f"reason {DIRTY}", "scored"),
              "2602.00002": Score("2602.00002", 1, None, None, "", "unscored",
                                  error=f"provider said {DIRTY}")}
    return papers, scores


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_digests_carry_no_terminal_escapes(fmt: str) -> None:
    papers, scores = dirty_day()
    summary = RunSummary(model="m", stopped=f"stopped: {DIRTY}")
    text = render_digest(f"day {DIRTY}", Topic(name=f"t {DIRTY}", description=""), "m",
                         summary, papers, scores, fmt)  # type: ignore[arg-type]
    assert not [c for c in NASTY if c in text], repr(text)
    assert clean_text(text) == text
    if fmt == "json":
        doc = json.loads(text)
        assert "red" in doc["papers"][0]["reason"]
        assert "provider said" in doc["unscored"][0]["error"]
        assert not any(c in json.dumps(doc) for c in ("\\u001b", "\\u009b"))  # not even escaped


def test_score_json_rows_carry_no_terminal_escapes(cli, monkeypatch, tmp_path: Path) -> None:
    from paperterm.cli import score as score_cmd

    papers, scores = dirty_day()

    def fake_score_day(session, progress=True, fresh=False):  # type: ignore[no-untyped-def]
        return list(scores.values()), RunSummary(model="m")

    monkeypatch.setattr(score_cmd, "score_day", fake_score_day)
    feed = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"
    monkeypatch.setattr("paperterm.cli.score.open_headless_session", _session_with(papers, feed))
    proc = cli("score", "--feed", str(feed), "--json")
    assert proc.returncode == 4, proc.stderr  # one paper left unscored: finished, incomplete
    assert proc.stdout.count("\n") == 2
    assert not [c for c in NASTY if c in proc.stdout], repr(proc.stdout)
    assert "\\u001b" not in proc.stdout and "\\u009b" not in proc.stdout
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert rows[0]["reason"].startswith("reason evil") and "provider" in rows[1]["error"]


def _session_with(papers: list[Paper], feed: Path):  # type: ignore[no-untyped-def]
    from paperterm.cli.session import open_headless_session

    def open_(opts):  # type: ignore[no-untyped-def]
        s = open_headless_session(opts)
        s.day.papers[:] = papers  # as if the feed had held this text
        return s

    return open_
