"""The library across days (issue 11): stars, search, notes and tags, library export/import,
through `paperterm ARGS` in-process against a real SQLite cache."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from paperterm.models import Paper
from paperterm.store import Store

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
FEED_KEY = "cs.AI+cs.LG"


def paper(pid: str, title: str, abstract: str = "An abstract.", authors=("Ada Lovelace",),
          ) -> Paper:
    return Paper(pid, 1, title, tuple(authors), abstract, ("cs.LG",), "cs.LG")


@pytest.fixture
def library(isolated_home):  # type: ignore[no-untyped-def]
    """Two announcement days in the cache, as two mornings of use would leave them."""
    store = Store.open(isolated_home.db)
    store.papers.save_day(FEED_KEY, date(2026, 3, 2), [
        paper("2603.00001", "Sparse mixture of experts at scale",
              "We route tokens to experts with a learned gate.", ("Grace Hopper", "Alan Turing")),
        paper("2603.00002", "Diffusion models for protein design"),
    ], source="rss")
    store.papers.save_day(FEED_KEY, date(2026, 3, 3), [
        paper("2603.00101", "Quantization of transformers",
              "Post-training quantization for large language models."),
        paper("2603.00102", "Expert routing without load balancing losses",
              "A mixture of experts trained without auxiliary losses."),
    ], source="rss")
    store.close()
    return isolated_home


def test_star_on_one_day_is_exported_on_another(cli, library, tmp_path):
    assert cli("star", "2603.00001", "arXiv:2603.00101v1").returncode == 0
    proc = cli("export", "--starred", "-o", "-")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("@misc{") == 2
    assert "{2603.00001}" in proc.stdout and "{2603.00101}" in proc.stdout
    narrowed = cli("export", "--starred", "--day", "2026-03-03", "-o", "-")
    assert narrowed.stdout.count("@misc{") == 1 and "{2603.00101}" in narrowed.stdout
    assert cli("unstar", "2603.00001").returncode == 0
    after = cli("export", "--starred", "-o", "-")
    assert after.stdout.count("@misc{") == 1


def test_export_starred_across_days_needs_no_network_or_loaded_day(cli, library):
    cli("star", "2603.00002")
    # the arXiv URLs point to a closed port: loading today would fall back with a notice
    proc = cli("export", "--starred", "-o", "-")
    assert proc.returncode == 0 and "{2603.00002}" in proc.stdout
    assert "cached day" not in proc.stderr and "sample" not in proc.stderr


def test_star_refuses_ids_not_in_the_cache_and_stars_nothing(cli, library):
    proc = cli("star", "2603.00001", "2609.99999")
    assert proc.returncode == 2
    assert "2609.99999" in proc.stderr and "Traceback" not in proc.stderr
    assert cli("export", "--starred", "-o", "-").stdout == ""


def test_export_ids_takes_any_cached_paper(cli, library):
    proc = cli("export", "--ids", "2603.00001", "2603.00102", "-o", "-")
    assert proc.returncode == 0, proc.stderr
    assert "{2603.00001}" in proc.stdout and "{2603.00102}" in proc.stdout
    missing = cli("export", "--ids", "2609.99999", "-o", "-")
    assert missing.returncode == 2 and "2609.99999" in missing.stderr


def test_search_json_ranks_title_matches_first_with_days(cli, library):
    proc = cli("search", "mixture", "of", "experts", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert [r["id"] for r in rows] == ["2603.00001", "2603.00102"]
    assert rows[0]["title"] == "Sparse mixture of experts at scale"
    assert rows[0]["authors"] == ["Grace Hopper", "Alan Turing"]
    assert rows[0]["day"] == "2026-03-02" and rows[1]["day"] == "2026-03-03"


def test_search_phrases_prefixes_authors_and_filters(cli, library):
    def ids(*args: str) -> list[str]:
        proc = cli("search", *args, "--json")
        assert proc.returncode == 0, proc.stderr
        return [r["id"] for r in json.loads(proc.stdout)]

    assert ids('"learned gate"') == ["2603.00001"]
    assert ids('"gate learned"') == []
    assert set(ids("quantiz*")) == {"2603.00101"}
    assert ids("turing") == ["2603.00001"]
    assert ids("author:turing") == ["2603.00001"]
    assert ids("experts", "--since", "2026-03-03") == ["2603.00102"]
    assert ids("experts", "--limit", "1") == ids("experts")[:1]
    assert len(ids("experts")) == 2
    assert ids("experts -auxiliary") == ["2603.00001"]
    # unquoted, as the help lists it: "-auxiliary" was "unrecognized arguments"
    assert ids("experts", "-auxiliary") == ["2603.00001"]
    assert ids("-auxiliary", "experts") == ["2603.00001"]
    # a -word starting with h was read as -h and printed the help
    assert ids("experts", "-hauxiliary") == ids("experts")
    assert ids("experts", "-auxiliary", "--limit", "5") == ["2603.00001"]
    cli("star", "2603.00102")
    assert ids("experts", "--starred") == ["2603.00102"]


def test_search_odd_queries_give_a_line_not_a_traceback(cli, library):
    for query in ['"', "AND OR NOT", "(", "title:", "*"]:
        proc = cli("search", query)
        assert proc.returncode in (0, 2), (query, proc.stderr)
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr


def test_search_takes_any_typed_dash_word_as_a_query_word(cli, library):
    """The QA walk: a -word that did not start with a letter (`-"auxiliary"`, `-(`, `-:`)
    was read as an unknown option: the usage and "unrecognized arguments" (or "required:
    QUERY"), exit 2; so was any query word after an option."""
    def run(*args: str) -> list[str]:
        proc = cli("search", *args, "--json")
        assert proc.returncode == 0, (args, proc.stderr)
        return [r["id"] for r in json.loads(proc.stdout)]

    assert run("experts", '-"auxiliary"') == ["2603.00001"]
    assert run("experts", '-"auxiliary losses"') == ["2603.00001"]
    assert run('-"auxiliary"', "experts") == ["2603.00001"]
    for odd in ['-"', "-(", "-:", "-*", "-'x", "-_x", "-x=y"]:
        assert len(run("experts", odd)) >= 1, odd
    alone = cli("search", '-"')
    assert alone.returncode == 2 and "nothing to search for" in alone.stderr
    assert len(alone.stderr.strip().splitlines()) == 1
    # query words after an option were "unrecognized arguments" (argparse stops at one)
    assert run("experts", "--limit", "5", "-auxiliary") == ["2603.00001"]
    assert run("experts", "--limit", "5", "-(") == run("experts")
    assert run("mixture", "--limit", "5", "gate") == run("mixture", "gate")
    bogus = cli("search", "experts", "--limit", "1", "--bogus")
    assert bogus.returncode == 2 and "unrecognized arguments: --bogus" in bogus.stderr
    bad = cli("search", "experts", "--limit", "1", "\udcff")
    assert bad.returncode == 2 and "not valid UTF-8" in bad.stderr


def test_search_finds_papers_saved_after_the_index_was_built(cli, library, isolated_home):
    store = Store.open(isolated_home.db)
    store.papers.save_day(FEED_KEY, date(2026, 3, 4), [paper("2603.00201", "Zebrafish imaging")],
                          source="rss")
    store.papers.save_day(FEED_KEY, date(2026, 3, 4), [paper("2603.00201", "Zebrafish tracking")],
                          source="rss")
    store.close()
    rows = json.loads(cli("search", "zebrafish", "--json").stdout)
    assert [(r["id"], r["title"]) for r in rows] == [("2603.00201", "Zebrafish tracking")]
    assert json.loads(cli("search", "imaging", "--json").stdout) == []


def test_notes_and_tags_are_searchable_filterable_and_exported_when_asked(cli, library):
    proc = cli("note", "2603.00002", "--set", "Read with the lab.\nCompare to RFdiffusion.",
               "--tags", "Reading Group, proteins")
    assert proc.returncode == 0, proc.stderr
    assert "tags: proteins, reading-group" in proc.stdout
    assert "Compare to RFdiffusion." in proc.stdout
    rows = json.loads(cli("search", "rfdiffusion", "--json").stdout)
    assert [r["id"] for r in rows] == ["2603.00002"]
    assert [r["id"] for r in json.loads(cli("search", "tag:proteins", "--json").stdout)] == \
        ["2603.00002"]
    assert [r["id"] for r in json.loads(
        cli("search", "diffusion", "--tag", "reading-group", "--json").stdout)] == ["2603.00002"]
    plain = cli("export", "--tag", "proteins", "-o", "-")
    assert plain.returncode == 0 and "{2603.00002}" in plain.stdout
    assert "note" not in plain.stdout and "keywords" not in plain.stdout
    rich = cli("export", "--tag", "proteins", "--notes", "-o", "-")
    assert "note          = {Read with the lab. Compare to RFdiffusion.}" in rich.stdout
    assert "keywords      = {proteins, reading-group}" in rich.stdout
    cleared = cli("note", "2603.00002", "--set", "", "--tags", "")
    assert "(no note)" in cleared.stdout
    assert json.loads(cli("search", "rfdiffusion", "--json").stdout) == []


def test_library_export_import_round_trip_to_a_fresh_cache(cli, library, tmp_path,
                                                            monkeypatch):
    cli("star", "2603.00001", "--topic", "agents")
    cli("note", "2603.00101", "--set", "quantization baseline", "--tags", "quant")
    out = tmp_path / "lib.json"
    assert cli("library", "export", str(out)).returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "paperterm-library"
    by_id = {r["id"]: r for r in data["papers"]}
    assert by_id["2603.00001"]["starred"] is True
    assert by_id["2603.00001"]["star_topic"] == "agents"
    assert by_id["2603.00101"]["note"] == "quantization baseline"
    assert by_id["2603.00101"]["tags"] == ["quant"]

    monkeypatch.setenv("PAPERTERM_HOME", str(tmp_path / "other-machine"))
    proc = cli("library", "import", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "2 papers read: 2 added or updated, 0 unchanged (2 new to the cache, 1 stars, " \
        "1 notes, 1 tags added)" in proc.stderr
    starred = cli("export", "--starred", "-o", "-")
    assert "{2603.00001}" in starred.stdout
    store = Store.open(tmp_path / "other-machine" / "paperterm.sqlite3")
    try:  # the star still teaches the topic it was given under
        assert {e.id for e in store.marks.training_examples("agents")} == {"2603.00001"}
        assert store.marks.training_examples("moe") == []
    finally:
        store.close()
    assert "2026-03-03" in cli("search", "baseline").stdout
    again = cli("library", "import", str(out))  # importing twice changes nothing
    assert again.returncode == 0
    assert again.stderr.strip().endswith("2 papers read: 0 added or updated, 2 unchanged")
    assert cli("note", "2603.00101").stdout.count("quantization baseline") == 1


def test_library_import_rejects_bad_files_with_one_line_and_changes_nothing(cli, library,
                                                                              tmp_path):
    cli("star", "2603.00001")
    bad = tmp_path / "bad.json"
    for text in ["{not json", '{"format": "other"}', json.dumps(
            {"format": "paperterm-library", "version": 1,
             "papers": [{"id": "2603.00002", "starred": True}, {"id": "nonsense"}]}),
                 json.dumps({"format": "paperterm-library", "version": 99, "papers": []}),
                 # a version SQLite cannot store was an "internal error: OverflowError"
                 json.dumps({"format": "paperterm-library", "version": 1, "papers": [
                     {"id": "2603.00002", "starred": True,
                      "paper": {"version": 2 ** 70, "title": "T", "authors": ["A B"]}}]})]:
        bad.write_text(text, encoding="utf-8")
        proc = cli("library", "import", str(bad))
        assert proc.returncode == 2, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert cli("export", "--starred", "-o", "-").stdout.count("@misc{") == 1
    missing = cli("library", "import", str(tmp_path / "nope.json"))
    assert missing.returncode == 1 and "cannot read" in missing.stderr


def test_query_offline_searches_the_cache(cli, library):
    proc = cli("score", "--json", "--query", "mixture of experts", "--offline")
    assert proc.returncode == 0, proc.stderr
    ids = [json.loads(line)["id"] for line in proc.stdout.splitlines()]
    assert sorted(ids) == ["2603.00001", "2603.00102"]  # rows in rank order
    assert "cached paper(s) match" in proc.stderr


def test_since_loads_every_cached_day_from_a_date(cli, library):
    proc = cli("score", "--json", "--since", "2026-03-03")
    assert proc.returncode == 0, proc.stderr
    ids = {json.loads(line)["id"] for line in proc.stdout.splitlines()}
    assert ids == {"2603.00101", "2603.00102"}
    both = cli("score", "--json", "--since", "2026-03-01")
    assert len(both.stdout.splitlines()) == 4


def test_search_json_rank_is_a_position_and_match_the_bm25_strength(cli, library):
    rows = json.loads(cli("search", "experts", "--json").stdout)
    assert [r["rank"] for r in rows] == [1, 2]  # as score --json: a position
    assert all(isinstance(r["match"], float) for r in rows)
    assert rows[0]["match"] >= rows[1]["match"]  # BM25, higher: better


def test_star_from_the_command_line_marks_the_paper_seen_as_the_reader_does(cli, library,
                                                                           isolated_home):
    assert cli("star", "2603.00001").returncode == 0
    store = Store.open(isolated_home.db)
    try:
        state = store.marks.states(["2603.00001"])["2603.00001"]
    finally:
        store.close()
    assert state.starred and state.seen


def test_starred_lists_the_reading_list_of_every_day(cli, library):
    assert cli("star", "2603.00001").returncode == 0
    assert cli("star", "2603.00102", "--topic", "agents").returncode == 0
    plain = cli("starred")
    assert plain.returncode == 0, plain.stderr
    lines = plain.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["2026-03-03", "2026-03-02"]  # newest first
    assert "Expert routing without load balancing losses" in lines[0]
    rows = json.loads(cli("starred", "--json").stdout)
    assert [r["id"] for r in rows] == ["2603.00102", "2603.00001"]
    assert rows[0]["star_topic"] == "agents" and rows[1]["star_topic"] == "moe"
    assert {"relevance", "score_from", "day", "title", "url"} <= rows[0].keys()
    since = json.loads(cli("starred", "--json", "--since", "2026-03-03").stdout)
    assert [r["id"] for r in since] == ["2603.00102"]
    agents = json.loads(cli("starred", "--json", "--topic", "agents").stdout)
    assert [r["id"] for r in agents] == ["2603.00102"]
    none = cli("starred", "--since", "2027-01-01")
    assert none.returncode == 0 and none.stdout == ""
    assert "no starred papers since 2027-01-01" in none.stderr


def test_starred_since_filters_by_when_the_star_was_given(cli, library):
    """Issue 32: `starred --since` is the announcement day; `--starred-since` the star's."""
    import time

    from paperterm.store import Store

    assert cli("star", "2603.00001", "2603.00101").returncode == 0
    store = Store.open(library.db)
    try:  # one star given ten days ago
        store.conn.execute("UPDATE user_state SET starred_at = ? WHERE id = '2603.00001'",
                           (time.time() - 10 * 86400,))
        store.conn.commit()
    finally:
        store.close()
    recent = json.loads(cli("starred", "--starred-since", "week", "--json").stdout)
    assert [r["id"] for r in recent] == ["2603.00101"]
    both = json.loads(cli("starred", "--starred-since", "2000-01-01", "--json").stdout)
    assert {r["id"] for r in both} == {"2603.00001", "2603.00101"}
    # --since still means the announcement day: 03-03 only
    announced = json.loads(cli("starred", "--since", "2026-03-03", "--json").stdout)
    assert [r["id"] for r in announced] == ["2603.00101"]


def test_a_backup_carries_follows_not_interested_and_learn_records(cli, library, tmp_path,
                                                                   monkeypatch):
    """Issue 32: `library export` dropped followed authors, "not interested" marks and
    `learn` positives; a backup carries everything the ranking learned from."""
    from paperterm.services.marks import MarksService
    from paperterm.store.positives import Positive

    store = Store.open(library.db)
    try:
        store.marks.set_followed("Grace Hopper", "grace hopper", True)
        marks = MarksService(store, "moe")
        marks.set_dismissed(["2603.00002"], True)
        marks.record_positives("bib:/refs.bib", [Positive("2603.00101", "Quantization")])
        expected = (store.marks.followed_authors(), store.marks.training_examples("moe"))
    finally:
        store.close()
    out = tmp_path / "lib.json"
    assert cli("library", "export", str(out)).returncode == 0
    learned = json.loads(out.read_text(encoding="utf-8"))["learned"]
    assert [r["name"] for r in learned["followed_authors"]] == ["Grace Hopper"]
    assert [(r["id"], r["topic"]) for r in learned["not_interested"]] == [("2603.00002", "moe")]
    assert [r["id"] for r in learned["positives"]] == ["2603.00101"]

    monkeypatch.setenv("PAPERTERM_HOME", str(tmp_path / "other-machine"))
    proc = cli("library", "import", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "3 followed authors, not-interested marks and learn records added" in proc.stderr
    store = Store.open(tmp_path / "other-machine" / "paperterm.sqlite3")
    try:
        restored = (store.marks.followed_authors(), store.marks.training_examples("moe"))
    finally:
        store.close()
    key = lambda examples: sorted((e.id, e.kind) for e in examples)  # noqa: E731
    assert restored[0] == expected[0] and key(restored[1]) == key(expected[1])
    assert "learn records added" not in cli("library", "import", str(out)).stderr


def test_search_since_a_future_day_says_it_is_in_the_future(cli, library):
    run = cli("search", "mixture", "--since", "9999-12-31")
    assert run.returncode == 0 and run.stdout == ""
    assert "--since 9999-12-31 is in the future" in run.stderr
    assert run.stderr.count("\n") == 1
