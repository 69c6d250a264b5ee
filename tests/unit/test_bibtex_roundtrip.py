"""Every entry of a real arXiv day survives bibtexparser 1.x (the one pyzotero requires) and
pybtex (parse + format)."""

from __future__ import annotations

import calendar
import json
import re
from pathlib import Path

import pytest
from pybtex.database import parse_string as pybtex_parse
from pybtex.plugin import find_plugin

from paperterm.models import Paper
from paperterm.outputs.bibtex import export_papers

DAY = Path(__file__).parents[1] / "fixtures" / "bib" / "day-2026-02-25.jsonl"

# Hard cases on top of the real day (ids cannot clash with real ones).
EXTRA = [
    Paper(id="2601.00001", version=1, title="Cost & Effect: 50% of #1 snake_case {MoE} $x_1$",
          authors=("Laurens van der Maaten", "Christopher De Sa", "R\\'emi Munos", "王伟"),
          abstract="", categories=("cs.LG",), primary_category="cs.LG",
          doi="https://doi.org/10.1000/abc_1"),
    Paper(id="2601.00002", version=None, title="Unbalanced {brace} } and $κ$-Nets in 北京",
          authors=("Jane Doe (MIT)", "Martin Luther King Jr.", "Rajan"), abstract="",
          categories=("stat.ML", "cs.LG"), primary_category="stat.ML",
          journal_ref="J. Mach. Learn. Res. 25 (2024) 1-10"),
]


def load_day(path: Path = DAY) -> list[Paper]:
    papers = []
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        papers.append(Paper(
            id=d["id"], version=d["version"], title=d["title"], authors=tuple(d["authors"]),
            abstract=d["abstract"], categories=tuple(d["categories"]),
            primary_category=d["primary_category"], announce_type=d["announce_type"],
            comment=d["arxiv_comment"],
        ))
    return papers


@pytest.fixture(scope="module", params=[False, True], ids=["ascii", "unicode"])
def exported(request, tmp_path_factory) -> tuple[list[Paper], str, dict, bool]:
    papers = load_day() + EXTRA
    path = tmp_path_factory.mktemp("rt") / "day.bib"
    result = export_papers(papers, path, unicode=request.param, prefer_journal=True)
    assert len(result.added) == len(papers) == 246
    return papers, path.read_text(encoding="utf-8"), dict(result.added), request.param


def _unbrace(value: str) -> str:
    return value.replace("{", "").replace("}", "")


def test_bibtexparser_reads_every_entry(exported, read_bib) -> None:
    papers, text, keys, unicode = exported
    entries = read_bib(text)
    assert len(entries) == len(papers)  # none dropped
    by_key = {e["ID"]: e for e in entries}
    checked = 0
    for p in papers:
        e = by_key[keys[p.id]]
        assert e["eprint"] == p.id
        assert e["archiveprefix"] == "arXiv" and e["eprinttype"] == "arxiv"
        assert e["primaryclass"] == p.primary_category == e["eprintclass"]
        assert e["url"] == f"https://arxiv.org/abs/{p.id}"
        assert e["ENTRYTYPE"] == ("article" if p.journal_ref else "misc")
        if not p.journal_ref:
            assert e["year"] == "20" + p.id[:2]
            assert e["month"] == calendar.month_name[int(p.id[2:4])]  # the macro, resolved
        assert len(re.split(r"\s+and\s+", e["author"])) == len(p.authors)
        plain = re.sub(r"\\([&%#_])", r"\1", _unbrace(e["title"]))
        if not re.search(r"[$\\{}^<>|@~]", p.title) and (unicode or p.title.isascii()):
            assert plain == p.title  # only case-protection braces and escapes added
            checked += 1
        if not unicode:
            assert e["title"].isascii() and e["author"].isascii()
    assert checked > 200
    assert by_key[keys["2601.00001"]]["doi"] == "10.1000/abc_1"


def test_pybtex_parses_and_formats_every_entry(exported) -> None:
    papers, text, keys, _ = exported
    data = pybtex_parse(text, "bibtex")
    assert len(data.entries) == len(papers)
    for p in papers:
        entry = data.entries[keys[p.id]]
        persons = entry.persons["author"]
        assert len(persons) == len(p.authors)
        assert entry.fields["eprint"] == p.id
    first = data.entries[keys["2601.00001"]].persons["author"][0]
    assert first.prelast_names == ["van", "der"] and first.last_names == ["Maaten"]
    desa = data.entries[keys["2601.00001"]].persons["author"][1]
    assert desa.last_names == ["De", "Sa"] and desa.first_names == ["Christopher"]
    king = data.entries[keys["2601.00002"]].persons["author"][1]
    assert king.lineage_names == ["Jr."] and king.last_names == ["King"]
    style = find_plugin("pybtex.style.formatting", "plain")()
    formatted = list(style.format_entries(data.entries.values()))
    assert len(formatted) == len(papers)
    rendered = {f.key: f.text.render_as("text") for f in formatted}
    sample = rendered[keys["2602.20175"]]
    assert "Tensor" in sample and "Sakai" in sample and "2026" in sample
    vdm = rendered[keys["2601.00001"]]
    assert "van der Maaten" in vdm and ("Rémi" in vdm or "R\\'emi" in vdm or "Remi" in vdm)
