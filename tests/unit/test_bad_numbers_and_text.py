"""Bad input that used to end in an internal error (issue 21, item 7): absurd numbers,
bytes that are no UTF-8, JSON or TOML nested 100,000 deep, a garbage address in the
environment. Each is one clear line with exit 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"


def _one_line_exit_2(r) -> str:  # type: ignore[no-untyped-def]
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    errors = [line for line in r.stderr.splitlines() if "error" in line or "paperterm:" in line]
    assert len(errors) == 1, r.stderr
    return errors[0]


def test_a_5000_digit_version_in_a_feed_skips_that_item_only(cli, tmp_path):
    """No arXiv feed holds a version of 5,000 digits: that item is skipped (nothing read
    from it with a guess) with one line that names it; the rest of the day is read (issue
    31, item 15: one bad item never sinks a feed)."""
    text = FEED.read_text(encoding="utf-8")
    feed = tmp_path / "odd.xml"
    feed.write_text(text.replace("2602.20175v1", "2602.20175v" + "9" * 5000), encoding="utf-8")
    r = cli("score", "--feed", str(feed), "--scorer", "local", "--json")
    assert r.returncode == 0, r.stderr
    lines = [x for x in r.stderr.splitlines() if "2602.20175" in x]
    assert len(lines) == 1 and "a version of 5000 digits is no arXiv version" in lines[0]
    assert len(lines[0]) < 300, lines[0]
    ids = [json.loads(x)["id"] for x in r.stdout.splitlines()]
    assert len(ids) == 243 and "2602.20175" not in ids


def test_a_long_but_possible_version_is_kept(cli, tmp_path):
    text = FEED.read_text(encoding="utf-8")
    feed = tmp_path / "odd.xml"
    feed.write_text(text.replace("2602.20191v1", "2602.20191v9999"), encoding="utf-8")
    r = cli("score", "--feed", str(feed), "--scorer", "local", "--json")
    assert r.returncode == 0, r.stderr
    assert '"id": "2602.20191"' in r.stdout


@pytest.mark.parametrize("argv", [
    ("search", "moe", "--limit", "1" + "0" * 30),
    ("search", "moe", "--limit", "9" * 5000),
    ("digest", "--sample", "--summaries", "1" + "0" * 30),
    ("score", "--sample", "--batch-size", "1" + "0" * 30),
    ("score", "--sample", "--max-results", "1" + "0" * 30),
], ids=["limit", "limit-5000-digits", "summaries", "batch-size", "max-results"])
def test_huge_numbers_are_refused_by_the_flag(cli, argv):
    line = _one_line_exit_2(cli(*argv))
    assert "expected" in line and len(line) < 200


@pytest.mark.parametrize("argv", [
    ("note", "2602.20175", "--set", "bin\udcff\udcfe\udc80"),
    ("note", "2602.20175", "--tags", "t\udcff"),
    ("star", "2602.20175\udcff"),
    ("search", "foo\udcff"),
    ("score", "--sample", "--topic", "x\udcff"),
], ids=["note", "tags", "star", "search", "topic"])
def test_bytes_that_are_no_utf8_are_refused_in_one_line(cli, argv):
    assert "not valid UTF-8" in _one_line_exit_2(cli(*argv))


def test_library_import_of_json_nested_100000_deep(cli, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in _one_line_exit_2(cli("library", "import", str(deep)))


def test_a_config_nested_100000_deep(cli, tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    line = _one_line_exit_2(cli("score", "--sample", "--config", str(deep)))
    assert "nested too deeply" in line


@pytest.mark.parametrize("value", ["garbage", "http://[::x/{cats}", "{", "{cats}{0}",
                                   "http://h:99999999/{cats}"])
def test_a_garbage_rss_address_is_one_line(cli, value):
    line = _one_line_exit_2(cli("score", "--scorer", "local",
                                env={"PAPERTERM_RSS_URL": value}))
    assert "PAPERTERM_RSS_URL is not an http(s) URL" in line
    assert value not in line or len(value) < 3


# -- what the config refuses, the flag refuses ---------------------------------------------


@pytest.mark.parametrize("cats", ["cs.LG;rm -rf /", "CS LG", "cs.LG,,", ",", "cs.LG, $(x)"])
def test_categories_the_config_refuses_are_refused_by_the_flag(cli, isolated_home, cats):
    line = _one_line_exit_2(cli("score", "--sample", "--scorer", "local", "--categories", cats))
    assert 'expected arXiv categories such as "cs.LG"' in line
    # the config's own message for the same list
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text(f"categories = {[c.strip() for c in cats.split(',')]!r}\n"
                                    .replace("'", '"'))
    config = cli("score", "--sample", "--scorer", "local")
    assert config.returncode == 2 and 'expected arXiv categories such as "cs.LG"' in config.stderr


def test_good_categories_still_pass_the_flag(cli):
    r = cli("score", "--sample", "--scorer", "local", "--categories", "cs.LG, math.GT,cs.AI")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("argv", [
    ("export", "--sample", "--all", "-o", ""),
    ("export", "--sample", "--all", "-o", "  "),
    ("digest", "--sample", "-o", ""),
    ("export", "--sample", "--all", "--bib", ""),
    ("library", "export", ""),
], ids=["export", "export-blank", "digest", "bib", "library"])
def test_an_empty_file_name_is_an_error_not_the_default_file(cli, isolated_home, argv):
    assert "expected a file name" in _one_line_exit_2(cli(*argv))
    assert not (isolated_home.home / "papers.bib").exists()


@pytest.mark.parametrize("value", ["garbage", "2026-13-45"])
def test_a_garbage_today_is_one_line(cli, value):
    line = _one_line_exit_2(cli("score", "--scorer", "local", env={"PAPERTERM_TODAY": value}))
    assert "PAPERTERM_TODAY is not a YYYY-MM-DD date" in line
