"""Marks from the command line (issue 19): `star --topic`, and `export` that says which papers
(a bare export merged the whole loaded day into the .bib file and marked it all saved, and
every one became a ranking positive). `paperterm` runs as a subprocess on a real cache."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from paperterm.sources.feeds import parse_feed
from paperterm.store import Store

FEED = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"
DAY = "2026-02-25"


@pytest.fixture
def cached(isolated_home):  # type: ignore[no-untyped-def]
    """The sample day cached as announced on DAY; its papers."""
    papers = parse_feed(FEED.read_bytes()).papers
    store = Store.open(isolated_home.db)
    store.papers.save_day("cs.AI+cs.LG", date.fromisoformat(DAY), papers, source="rss")
    store.close()
    return papers


def examples(db: Path, topic: str) -> dict[str, str]:
    store = Store.open(db)
    try:
        # (the days' unread papers are a weak-negative sample by design: not marks)
        return {e.id: e.kind for e in store.marks.training_examples(topic)
                if e.kind != "unlabelled"}
    finally:
        store.close()


def saved(db: Path) -> set[str]:
    store = Store.open(db)
    try:
        return {r[0] for r in store.conn.execute(
            "SELECT id FROM user_state WHERE saved_at IS NOT NULL")}
    finally:
        store.close()


def test_export_without_a_selector_names_them_in_one_line(run_cli, cached, tmp_path):
    bib = tmp_path / "refs.bib"
    proc = run_cli("export", "--offline", "-o", str(bib))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    for selector in ("--ids", "--starred", "--tag", "--day", "--all"):
        assert selector in proc.stderr
    assert not bib.exists()
    day_only = run_cli("export", "--day", DAY, "-o", str(bib))
    assert day_only.returncode == 2 and "--all" in day_only.stderr
    assert day_only.stderr.count("\n") == 1 and not bib.exists()
    both = run_cli("export", "--all", "--starred", "-o", str(bib))
    assert both.returncode == 2 and both.stderr.count("\n") == 1


def test_a_whole_day_export_marks_nothing_saved_and_teaches_nothing(run_cli, cached, tmp_path,
                                                                    isolated_home):
    bib = tmp_path / "refs.bib"
    proc = run_cli("export", "--day", DAY, "--all", "-o", str(bib))
    assert proc.returncode == 0, proc.stderr
    assert bib.read_text(encoding="utf-8").count("@misc{") == len(cached)
    assert "not marked saved" in proc.stderr
    assert saved(isolated_home.db) == set()
    assert examples(isolated_home.db, "moe") == {}


def test_export_ids_marks_saved_under_the_topic(run_cli, cached, tmp_path, isolated_home):
    bib = tmp_path / "refs.bib"
    a, b, c = (p.id for p in cached[:3])
    assert run_cli("export", "--ids", a, "-o", str(bib)).returncode == 0
    proc = run_cli("export", "--ids", b, "--topic", "agents", "-o", str(bib))
    assert proc.returncode == 0, proc.stderr
    assert run_cli("star", c).returncode == 0
    starred = run_cli("export", "--starred", "-o", str(bib))  # a selection: saved, no signal
    assert starred.returncode == 0, starred.stderr
    assert saved(isolated_home.db) == {a, b, c}
    assert examples(isolated_home.db, "moe") == {a: "saved", c: "starred"}
    assert examples(isolated_home.db, "agents") == {b: "saved"}


def test_star_teaches_the_topic_given_or_the_configs(run_cli, cached, isolated_home):
    a, b = cached[0].id, cached[1].id
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('topic = "interpretability"\n', encoding="utf-8")
    proc = run_cli("star", "--topic", "agents", a)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"starred {a}  ")
    assert "topic agents" in proc.stderr
    assert run_cli("star", b).returncode == 0
    assert examples(isolated_home.db, "agents") == {a: "starred"}
    assert examples(isolated_home.db, "interpretability") == {b: "starred"}
    assert examples(isolated_home.db, "moe") == {}
    assert run_cli("unstar", a).returncode == 0  # a star marks seen, as in the reader:
    assert examples(isolated_home.db, "agents") == {a: "skipped"}  # now read, not kept
    bad = run_cli("star", "--topic", "!!", a)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not defined" in bad.stderr


def test_a_whole_day_export_never_takes_the_sample_day_standing_in(run_cli, tmp_path):
    """Offline, the loaded day is the bundled sample: `export --all` merged its 244 papers
    into the user's .bib file (exit 0). It writes nothing and exits as a command on a day
    not asked for does (5); `--sample` says so."""
    bib = tmp_path / "refs.bib"
    proc = run_cli("export", "--offline", "--all", "-o", str(bib))
    assert proc.returncode == 5, proc.stderr
    assert "--sample" in proc.stderr and "Traceback" not in proc.stderr
    assert not bib.exists()
    asked = run_cli("export", "--sample", "--all", "-o", str(bib))
    assert asked.returncode == 0, asked.stderr
    assert bib.read_text(encoding="utf-8").count("@misc{") > 100


def test_a_star_moved_to_another_topic_says_so(run_cli, cached, isolated_home):
    """`star --topic agents` on a paper starred under moe silently moved its star (moe's
    ranking lost the example)."""
    a = cached[0].id
    assert run_cli("star", "--topic", "moe", a).returncode == 0
    proc = run_cli("star", "--topic", "agents", a)
    assert proc.returncode == 0, proc.stderr
    assert "starred under topic agents (was moe)" in proc.stderr
    assert examples(isolated_home.db, "agents") == {a: "starred"}
    again = run_cli("star", "--topic", "agents", a)
    assert "(was" not in again.stderr
