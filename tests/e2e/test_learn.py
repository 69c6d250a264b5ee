"""`paperterm learn --zotero / --bib FILE`: the arXiv papers of a zotero.org library (a
local server speaking the web API v3) or a .bib file, recorded as positives."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.fakezotero import FakeZoteroWeb

from paperterm.settings import paths
from paperterm.store import Store

LIBRARY = [
    {"itemType": "preprint", "title": "By URL", "abstractNote": "A.",
     "url": "https://arxiv.org/abs/2602.20191v2"},
    {"itemType": "journalArticle", "title": "By Extra", "url": "https://doi.org/10.1/x",
     "extra": "Citation Key: foo\narXiv: 2401.01234"},
    {"itemType": "preprint", "title": "By DOI", "DOI": "10.48550/arXiv.2310.04567"},
    {"itemType": "book", "title": "Not arXiv", "url": "https://example.org/2602.20191"},
    {"itemType": "attachment", "title": "PDF", "url": "https://arxiv.org/pdf/2999.00001"},
    # enough others to need a second page
    *({"itemType": "preprint", "title": f"P{n}", "url": f"https://arxiv.org/abs/2501.{n:05d}"}
      for n in range(120)),
]


@pytest.fixture
def zotero_web(monkeypatch: pytest.MonkeyPatch, isolated_home) -> Iterator[FakeZoteroWeb]:
    fake = FakeZoteroWeb(key="k3y", library="/groups/42", items=LIBRARY)
    monkeypatch.setenv("PAPERTERM_ZOTERO_API_URL", fake.url)
    monkeypatch.setenv("ZOTERO_API_KEY", "k3y")
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('[zotero]\nlibrary_id = "42"\nlibrary_type = "group"\n',
                                    encoding="utf-8")
    yield fake
    fake.close()


def _positives(source: str | None = None, topic: str | None = None) -> dict[str, str]:
    store = Store.open(paths.database_file())
    try:
        return {p.id: p.title for p in store.library.positives(source, topic=topic)}
    finally:
        store.close()


def test_learn_zotero_records_the_arxiv_items_of_every_page(cli, zotero_web):
    proc = cli("learn", "--zotero")
    assert proc.returncode == 0, proc.stderr
    assert ("zotero:group/42: 123 arXiv papers recorded as positives for topic moe (123 new)"
            in proc.stderr)
    got = _positives()
    assert got["2602.20191"] == "By URL" and got["2401.01234"] == "By Extra"
    assert got["2310.04567"] == "By DOI"
    assert "2999.00001" not in got and len(got) == 123
    assert len([r for r in zotero_web.requests if "/items/top" in r[1]]) == 2


def test_learn_zotero_again_follows_the_library(cli, zotero_web):
    assert cli("learn", "--zotero").returncode == 0
    zotero_web.items = zotero_web.items[:3]
    proc = cli("learn", "--zotero")
    assert "3 arXiv papers recorded as positives for topic moe (0 new)" in proc.stderr
    assert set(_positives()) == {"2602.20191", "2401.01234", "2310.04567"}


def test_learn_bib_records_its_arxiv_entries(cli, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("""
@misc{a, title = {Eprint {One}}, eprint = {2602.20175}, archivePrefix = {arXiv}}
@article{b, title = {Journal only}, journal = {Nature}, doi = {10.1038/x}}
@article{c, title = "Doi two", doi = {10.48550/ARXIV.2312.00001}}
@misc{d, title = {Url three}, url = {http://arxiv.org/abs/hep-th/9901001v3}}
""", encoding="utf-8")
    proc = cli("learn", "--bib", str(bib))
    assert proc.returncode == 0, proc.stderr
    assert "3 arXiv papers recorded as positives" in proc.stderr
    assert _positives() == {"2602.20175": "Eprint One", "2312.00001": "Doi two",
                            "hep-th/9901001": "Url three"}


@pytest.mark.parametrize(("args", "expected", "code"), [
    ((), "give --zotero", 2),  # a usage error (issue 32)
    (("--bib", "/nonexistent/x.bib"), "cannot read", 1),
])
def test_learn_problems_are_one_line(cli, args, expected, code):
    proc = cli("learn", *args)
    assert proc.returncode == code and expected in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") <= 1


def test_learn_zotero_with_a_bad_key_records_nothing(cli, zotero_web, monkeypatch):
    monkeypatch.setenv("ZOTERO_API_KEY", "nope")
    proc = cli("learn", "--zotero")
    assert proc.returncode == 1 and "HTTP 403" in proc.stderr
    assert _positives() == {}


def test_learn_teaches_the_topic_given_only(cli, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{a, title = {One}, eprint = {2602.20175}}\n", encoding="utf-8")
    proc = cli("learn", "--bib", str(bib), "--topic", "agents")
    assert proc.returncode == 0, proc.stderr
    assert "1 arXiv paper recorded as positives for topic agents (1 new)" in proc.stderr
    assert _positives(topic="agents") == {"2602.20175": "One"}
    assert _positives(topic="moe") == {}
    bib.write_text("@misc{b, title = {Two}, eprint = {2602.20191}}\n", encoding="utf-8")
    assert cli("learn", "--bib", str(bib)).returncode == 0  # the config's topic: moe
    assert _positives(topic="moe") == {"2602.20191": "Two"}
    assert _positives(topic="agents") == {"2602.20175": "One"}  # another topic's kept
    bad = cli("learn", "--bib", str(bib), "--topic", "!!")
    assert bad.returncode == 2 and "not defined" in bad.stderr
    assert bad.stderr.count("\n") == 1
