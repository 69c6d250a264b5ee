"""Revisions of kept papers on the command line (issue 23), from real feeds: the digest's
"Revised papers you kept" section, `version`/`revised_from` in the starred rows, and
`digest --send` telling each revision once (never again on a later day)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from support.fakedelivery import WebhookServer
from support.feedbuild import day_rows, replacement, rss

FIRST = day_rows("2026-02-25")
KEPT, OTHER = FIRST[0], FIRST[1]


@pytest.fixture
def hook() -> Iterator[WebhookServer]:
    server = WebhookServer()
    yield server
    server.close()


def _feeds(tmp_path: Path) -> tuple[Path, Path, Path]:
    """02-25 as announced; 03-02 with KEPT and OTHER re-announced as v2; 03-03 with KEPT's
    v2 again as a replace-cross (a later day: the same revision)."""
    paths = tmp_path / "d1.xml", tmp_path / "d2.xml", tmp_path / "d3.xml"
    paths[0].write_bytes(rss(date(2026, 2, 25), FIRST))
    later = day_rows("2026-03-02")
    paths[1].write_bytes(rss(date(2026, 3, 2), [*later[:40], replacement(KEPT),
                                                replacement(OTHER)]))
    paths[2].write_bytes(rss(date(2026, 3, 3), [*later[40:80],
                                                replacement(KEPT, cross=True)]))
    return paths


def _prepare(cli, tmp_path: Path) -> tuple[Path, Path, Path]:
    feeds = _feeds(tmp_path)
    first = cli("score", "--feed", str(feeds[0]), "--json")
    assert first.returncode == 0, first.stderr
    assert cli("star", KEPT["id"]).returncode == 0
    return feeds


def test_digest_lists_the_revised_kept_paper(cli, isolated_home, tmp_path) -> None:
    feeds = _prepare(cli, tmp_path)
    md = cli("digest", "--feed", str(feeds[1]))
    assert md.returncode == 0, md.stderr
    section = md.stdout.split("## Revised papers you kept (1)")[1]
    assert KEPT["id"] in section and "v1→v2 · abstract changed" in section
    assert OTHER["id"] not in section  # revised, but never kept
    doc = json.loads(cli("digest", "--feed", str(feeds[1]), "--format", "json").stdout)
    [rev] = doc["revised"]
    assert (rev["id"], rev["version"], rev["revised_from"]) == (KEPT["id"], 2, 1)
    assert rev["abstract_changed"] and not rev["title_changed"]


def test_starred_rows_carry_version_and_revised_from(cli, isolated_home, tmp_path) -> None:
    feeds = _prepare(cli, tmp_path)
    before = json.loads(cli("search", "--starred", "--json", KEPT["title"].split()[0]).stdout)
    assert [(r["id"], r["version"], r["revised_from"]) for r in before] == [(KEPT["id"], 1, None)]
    assert cli("score", "--feed", str(feeds[1]), "--json").returncode == 0
    rows = json.loads(cli("search", "--starred", "--json", KEPT["title"].split()[0]).stdout)
    assert [(r["id"], r["version"], r["revised_from"]) for r in rows] == [(KEPT["id"], 2, 1)]


def test_send_tells_each_revision_once(cli, isolated_home, tmp_path, hook) -> None:
    feeds = _prepare(cli, tmp_path)
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text(
        f'[delivery]\nwebhook_url = "{hook.url}"\nwebhook_format = "json"\n', encoding="utf-8")
    sent = cli("digest", "--feed", str(feeds[1]), "--send")
    assert sent.returncode == 0, sent.stderr
    assert [r["id"] for r in hook.posts[-1][1]["revised"]] == [KEPT["id"]]
    forced = cli("digest", "--feed", str(feeds[1]), "--send", "--force")
    assert forced.returncode == 0 and hook.posts[-1][1]["revised"] == []
    later = cli("digest", "--feed", str(feeds[2]), "--send")
    assert later.returncode == 0, later.stderr
    assert len(hook.posts) == 3 and hook.posts[-1][1]["revised"] == []


def test_export_update_takes_the_new_version_and_keeps_user_fields(cli, isolated_home,
                                                                    tmp_path) -> None:
    feeds = _prepare(cli, tmp_path)
    bib = tmp_path / "refs.bib"
    assert cli("export", "--ids", KEPT["id"], "-o", str(bib)).returncode == 0
    bib.write_text(bib.read_text().replace("\n}", ",\n  note = {my note}\n}"))
    revised = tmp_path / "d2-title.xml"
    revised.write_bytes(rss(date(2026, 3, 2), [replacement(KEPT, title="A Revised Title")]))
    assert cli("score", "--feed", str(revised), "--json").returncode == 0
    proc = cli("export", "--ids", KEPT["id"], "--update", "-o", str(bib))
    assert proc.returncode == 0, proc.stderr
    assert "1 updated" in proc.stderr and "kept your title" not in proc.stderr
    text = bib.read_text()
    assert "title         = {A Revised Title}" in text and "= {my note}" in text
    assert feeds  # the earlier days stay cached
