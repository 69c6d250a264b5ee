"""Issue 31, items 1-5 (and issue 32's usage-line items): every path argument of every
command is read capped and time-bounded, deep or huge input is one line, and the reader
refuses to start without a terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from paperterm.io import limits

DAY = "2026-02-25"


# -- item 1: one capped, time-bounded reader for every path argument -------------------------


def test_eval_gold_dev_zero_is_refused_in_one_line(cli):
    started = time.monotonic()
    r = cli("eval", "--date", DAY, "--gold", "/dev/zero")
    assert r.returncode == 2, r.stderr
    assert "larger than" in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert time.monotonic() - started < 20


def test_eval_gold_stdin_dev_zero_is_refused_in_one_line(run_cli):
    with open("/dev/zero", "rb") as zero:
        r = subprocess.run([sys.executable, "-m", "paperterm", "eval", "--date", DAY,
                            "--gold", "-"], stdin=zero, capture_output=True, text=True,
                           timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert r.returncode == 2, r.stderr
    assert "larger than" in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_eval_gold_fifo_with_a_silent_writer_gives_up_in_time(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "READ_SECONDS", 0.5)
    fifo = tmp_path / "gold"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # a writer that never writes
    try:
        started = time.monotonic()
        r = cli("eval", "--date", DAY, "--gold", str(fifo))
        assert time.monotonic() - started < 10
    finally:
        os.close(writer)
    assert r.returncode == 2 and "did not arrive within 0.5 s" in r.stderr, r.stderr


def test_eval_gold_fifo_without_a_writer_never_hangs(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "READ_SECONDS", 0.5)
    fifo = tmp_path / "gold"
    os.mkfifo(fifo)
    done = threading.Event()
    result: list[subprocess.CompletedProcess[str]] = []

    def run() -> None:
        result.append(cli("eval", "--date", DAY, "--gold", str(fifo)))
        done.set()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    assert done.wait(30), "eval --gold FIFO (no writer) did not return within 30 s"
    assert result[0].returncode == 2 and "did not arrive" in result[0].stderr


def test_learn_bib_and_library_import_go_through_the_same_reader(cli, monkeypatch):
    monkeypatch.setattr(limits, "MAX_IMPORT_FILE", 1000)
    for args in (("learn", "--bib", "/dev/zero"), ("library", "import", "/dev/zero")):
        r = cli(*args)
        assert r.returncode in (1, 2) and "larger than" in r.stderr, (args, r.stderr)
        assert r.stderr.count("\n") == 1, r.stderr


# -- item 2: a deeply nested gold line ---------------------------------------------------------


def test_gold_nested_100000_deep_is_one_line(cli, tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": ' * 100_000 + "\n")
    r = cli("eval", "--date", DAY, "--gold", str(gold))
    assert r.returncode == 2, r.stderr
    assert "nested too deeply" in r.stderr and "RecursionError" not in r.stderr, r.stderr


# -- item 3: a keyword of 600 letters ----------------------------------------------------------


def test_a_600_letter_keyword_ranks_without_recursion(cli, tmp_path):
    word = "ACGT" * 150
    r = cli("score", "--sample", "--scorer", "local", "--topic", word, "--json")
    assert r.returncode == 0, r.stderr
    assert "RecursionError" not in r.stderr and len(r.stdout.splitlines()) == 244
    topic = tmp_path / "long.toml"  # the same in a topic file, beside a word sharing its start
    topic.write_text(f'name = "long"\nkeywords = ["{word}", "{word[:300]}TT", "acgt"]\n')
    r = cli("score", "--sample", "--scorer", "local", "--topic", str(topic), "--json")
    assert r.returncode == 0 and "RecursionError" not in r.stderr, r.stderr


# -- item 4: search queries are capped; an index error is never "no results" -------------------


@pytest.fixture
def sample_cached(cli):  # type: ignore[no-untyped-def]
    r = cli("score", "--sample", "--scorer", "local", "--json")
    assert r.returncode == 0, r.stderr


def test_many_exclusions_still_search(cli, sample_cached, monkeypatch):
    from paperterm.store import fts

    monkeypatch.setattr(fts, "MAX_TERMS", 1000)  # past the cap: the expression stays flat
    words = ["model", *(f"-zzword{i}" for i in range(100))]
    r = cli("search", *words, "--json")
    assert r.returncode == 0 and json.loads(r.stdout), r.stderr


def test_a_query_over_the_caps_is_one_line(cli, sample_cached):
    started = time.monotonic()
    r = cli("search", *(["a*"] * 640), "--json")
    assert r.returncode == 2 and "at most 32" in r.stderr and r.stderr.count("\n") == 1
    r = cli("search", *(f"w{i}*" for i in range(11)))
    assert r.returncode == 2 and "prefix terms" in r.stderr, r.stderr
    r = cli("search", "model", *(f"-w{i}" for i in range(100)))
    assert r.returncode == 2 and "101 terms" in r.stderr, r.stderr
    assert time.monotonic() - started < 30


def test_an_index_error_is_said_not_swallowed(cli, sample_cached, monkeypatch):
    from paperterm.store import fts, library

    monkeypatch.setattr(library, "parse", lambda q: fts.Query(('"model" AND AND',)))
    r = cli("search", "model", "--json")
    assert r.returncode == 1 and "search index could not run" in r.stderr, r.stderr
    assert r.stdout == ""


# -- item 5: the reader without a terminal -----------------------------------------------------


def test_the_reader_without_a_terminal_refuses_in_one_line(run_cli, tmp_path):
    out = tmp_path / "out"
    with open(out, "w") as fh:
        r = subprocess.run([sys.executable, "-m", "paperterm", "--date", DAY, "--offline"],
                           stdin=subprocess.DEVNULL, stdout=fh, stderr=subprocess.PIPE,
                           text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert "needs a terminal" in r.stderr and "paperterm score --json" in r.stderr
    assert "stdin and stdout are not terminals" in r.stderr  # (said as English says it)
    assert r.stderr.count("\n") == 1 and out.read_text() == ""


# -- issue 32: say what you mean ---------------------------------------------------------------


def test_learn_with_no_source_is_a_usage_error(cli):
    r = cli("learn")
    assert r.returncode == 2 and "learn from what?" in r.stderr, r.stderr


def test_offline_stays_a_documented_no_op_for_search_and_eval(cli, sample_cached):
    r = cli("search", "model", "--offline", "--json")
    assert r.returncode == 0 and json.loads(r.stdout), r.stderr
    r = cli("eval", "--offline")
    assert r.returncode == 0, r.stderr
    r = cli("search", "--help")
    assert "changes nothing" in " ".join(r.stdout.split())


def test_categories_are_checked_against_arxivs_list(cli, isolated_home):
    r = cli("score", "--categories", "cs.XX", "--offline", "--json")
    assert r.returncode == 2 and "'cs.XX' is not an arXiv category" in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1
    r = cli("score", "--categories", "cs.lg", "--offline", "--json")
    assert r.returncode == 2 and "did you mean cs.LG?" in r.stderr
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('categories = ["cs.LG", "physics.nope"]\n')
    r = cli("score", "--offline", "--json")
    assert r.returncode == 2 and "'physics.nope' is not an arXiv category" in r.stderr


def test_the_sample_day_says_its_categories_when_others_were_asked(cli):
    r = cli("score", "--categories", "math.AG", "--offline", "--json")
    assert r.returncode == 0, r.stderr
    assert "the sample is cs.LG and cs.AI, not math.AG" in r.stderr
