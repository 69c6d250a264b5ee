"""RIS, CSL-JSON, CSV and Markdown exports: each read back by a real consumer (rispy,
citeproc-py, the csv module, a YAML-ish front matter parse), with authors, title, year,
arXiv id and URL surviving every format; and `paperterm export --format` end to end."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import rispy
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON

from paperterm.models import Paper
from paperterm.outputs.exports import render, write_notes

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
PATTERN = "{author}{year}{title}"

PAPERS = [
    Paper(id="2602.20175", version=2, title='Tensor "Networks",\nfor TSP; a\r\nstudy',
          authors=("Laurens van der Maaten", "Zoë Ångström", "Martin Luther King, Jr."),
          abstract="We use $N^2$ variables, # not a tag, [[not a link]].\nSecond line.",
          categories=("cs.LG", "quant-ph"), primary_category="cs.LG",
          published="2026-02-23"),
    Paper(id="hep-th/9901001", version=None, title="Old style", authors=("ATLAS Collaboration",),
          abstract="", categories=("hep-th",), primary_category="hep-th",
          doi="10.1000/xyz", journal_ref="Phys. Rev. D 1 (1999) 1"),
]


def test_ris_loads_in_rispy_with_every_core_field() -> None:
    entries = rispy.loads(render("ris", PAPERS, PATTERN))
    assert len(entries) == 2
    first, old = entries
    assert first["type_of_reference"] == "UNPB" and old["type_of_reference"] == "JOUR"
    assert first["title"] == 'Tensor "Networks", for TSP; a study'
    assert first["authors"] == ["van der Maaten, Laurens", "Ångström, Zoë",
                                "King, Jr., Martin Luther"]
    assert first["year"] == "2026"
    assert first["urls"] == ["https://arxiv.org/abs/2602.20175"]
    assert "arXiv:2602.20175v2" in first["accession_number"]
    assert first["doi"] == "10.48550/arXiv.2602.20175"
    assert first["keywords"] == ["cs.LG", "quant-ph"]
    assert old["authors"] == ["ATLAS Collaboration"]
    assert old["year"] == "1999" and old["doi"] == "10.1000/xyz"
    assert old["urls"] == ["https://arxiv.org/abs/hep-th/9901001"]


def test_csl_json_renders_with_citeproc_py() -> None:
    items = json.loads(render("csl-json", PAPERS, PATTERN))
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bib = CitationStylesBibliography(style, CiteProcJSON(items), formatter.plain)
    for item in items:
        bib.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bib.bibliography()]
    assert len(rendered) == 2
    text = "\n".join(rendered)
    assert "van der Maaten" in text and "Ångström" in text and "ATLAS Collaboration" in text
    assert "(2026)" in text and "(1999)" in text
    assert "Tensor" in text and "Old style" in text
    first = items[0]
    assert first["issued"] == {"date-parts": [[2026, 2, 23]]}
    assert first["URL"] == "https://arxiv.org/abs/2602.20175"
    assert first["number"] == "arXiv:2602.20175v2"
    assert first["author"][0] == {"family": "van der Maaten", "given": "Laurens"}
    assert items[1]["author"] == [{"literal": "ATLAS Collaboration"}]


def test_csv_is_plain_rfc4180() -> None:
    text = render("csv", PAPERS, PATTERN)
    lines = text.split("\r\n")
    assert lines[-1] == "" and all("\n" not in line for line in lines)  # CRLF records only
    assert lines[0].startswith("id,version,title,authors,year")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert rows[0]["title"] == 'Tensor "Networks", for TSP; a study'
    assert '"Tensor ""Networks"", for TSP; a study"' in text  # quotes doubled, field quoted
    assert rows[0]["authors"] == "Laurens van der Maaten; Zoë Ångström; Martin Luther King, Jr."
    assert rows[0]["year"] == "2026" and rows[0]["id"] == "2602.20175"
    assert rows[0]["url"] == "https://arxiv.org/abs/2602.20175"
    assert rows[1]["id"] == "hep-th/9901001" and rows[1]["year"] == "1999"


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_inert() -> None:
    hostile = Paper(id="2602.00001", version=1, title='=HYPERLINK("http://evil.example","x")',
                    authors=("@SUM(1+1)*cmd|' /C calc'!A0",), abstract="-2+3 is a formula",
                    categories=("cs.LG",), primary_category="cs.LG",
                    journal_ref="+1 (555) 0100")
    rows = list(csv.DictReader(io.StringIO(render("csv", [hostile, *PAPERS], PATTERN),
                                           newline="")))
    assert rows[0]["title"] == "'=HYPERLINK(\"http://evil.example\",\"x\")"
    assert rows[0]["authors"].startswith("'@SUM")
    assert rows[0]["abstract"] == "'-2+3 is a formula"
    assert rows[0]["journal_ref"] == "'+1 (555) 0100"
    assert rows[1]["title"] == 'Tensor "Networks", for TSP; a study'  # the rest untouched
    assert rows[2]["journal_ref"] == "Phys. Rev. D 1 (1999) 1"


def _front_matter(note: str) -> dict[str, object]:
    """Just enough YAML for our front matter: scalars (JSON-quoted or plain) and lists."""
    assert note.startswith("---\n")
    block = note.split("---\n")[1]
    out: dict[str, object] = {}
    key = ""
    for line in block.splitlines():
        if line.startswith("  - "):
            item = line[4:]
            out[key].append(json.loads(item) if item.startswith('"') else item)  # type: ignore
        else:
            key, _, value = line.partition(": ")
            key = key.rstrip(":")
            value = value.strip()
            out[key] = [] if not value else json.loads(value) if value.startswith('"') else value
    return out


def test_markdown_notes_have_obsidian_front_matter(tmp_path: Path) -> None:
    result = write_notes(PAPERS, tmp_path / "vault", PATTERN)
    names = sorted(p.name for p in result.written)
    assert names == ["2602.20175.md", "hep-th_9901001.md"]
    note = (tmp_path / "vault" / "2602.20175.md").read_text(encoding="utf-8")
    meta = _front_matter(note)
    assert meta["id"] == "2602.20175" and meta["date"] == "2026-02-23" and meta["year"] == "2026"
    assert meta["authors"] == ["Laurens van der Maaten", "Zoë Ångström",
                               "Martin Luther King, Jr."]
    assert meta["title"] == 'Tensor "Networks", for TSP; a study'
    assert meta["tags"] == ["arxiv", "arxiv/cs-LG", "arxiv/quant-ph"]
    assert meta["url"] == "https://arxiv.org/abs/2602.20175"
    body = note.split("---\n", 2)[2]
    assert "## Abstract" in body and "\\# not a tag" in body and "\\[\\[not a link" in body
    assert "[PDF](https://arxiv.org/pdf/2602.20175v2)" in body


def test_an_edited_note_is_kept_unless_update(tmp_path: Path) -> None:
    write_notes(PAPERS[:1], tmp_path, PATTERN)
    note = tmp_path / "2602.20175.md"
    note.write_text("my own notes", encoding="utf-8")
    again = write_notes(PAPERS[:1], tmp_path, PATTERN)
    assert again.kept == [note] and note.read_text(encoding="utf-8") == "my own notes"
    write_notes(PAPERS[:1], tmp_path, PATTERN, update=True)
    assert note.read_text(encoding="utf-8").startswith("---\n")


@pytest.mark.parametrize("fmt", ["ris", "csl-json", "csv", "markdown"])
def test_core_fields_survive_every_format(fmt: str) -> None:
    text = render(fmt, PAPERS, PATTERN)
    for needle in ("van der Maaten", "Ångström", "2026", "2602.20175",
                   "https://arxiv.org/abs/2602.20175", "hep-th/9901001", "1999"):
        assert needle in text, (fmt, needle)


def test_cli_export_formats_to_stdout_file_and_notes(cli, tmp_path: Path) -> None:
    ris = cli("export", "--feed", str(FEED), "--ids", "2602.20191", "--format", "ris", "-o", "-")
    assert ris.returncode == 0, ris.stderr
    assert rispy.loads(ris.stdout)[0]["urls"] == ["https://arxiv.org/abs/2602.20191"]
    out = tmp_path / "refs.csv"
    proc = cli("export", "--feed", str(FEED), "--all", "--format", "csv", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"), newline="")))
    assert len(rows) == 244 and "2602.20191" in {r["id"] for r in rows}
    vault = tmp_path / "vault"
    vault.mkdir()
    notes = cli("export", "--feed", str(FEED), "--ids", "2602.20191", "2602.20175",
                "--format", "markdown", "-o", str(vault))
    assert notes.returncode == 0, notes.stderr
    assert sorted(p.name for p in vault.iterdir()) == ["2602.20175.md", "2602.20191.md"]
    one = cli("export", "--feed", str(FEED), "--ids", "2602.20191", "--format", "markdown",
              "-o", str(tmp_path / "one.md"))
    assert one.returncode == 0 and (tmp_path / "one.md").read_text().startswith("# arXiv papers")
    default = cli("export", "--feed", str(FEED), "--ids", "2602.20191", "--format", "markdown")
    assert default.returncode == 0 and "notes" in default.stderr
    bad = cli("export", "--feed", str(FEED), "--format", "docx")
    assert bad.returncode == 2 and "docx" in bad.stderr
