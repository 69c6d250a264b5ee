"""Issue 9, item 3: `export --update` refreshes only the fields paperterm owns and keeps the
fields the user added or edited."""

from __future__ import annotations

from pathlib import Path

from paperterm.models import Paper
from paperterm.outputs.bibtex import export_papers

USER_ENTRY = """@inproceedings{vdm,
  title     = {Visualizing Data using {t-SNE}: a corrected title},
  author    = {van der Maaten, L.},
  booktitle = {My Proceedings},
  eprint    = {2602.20175v1},
  note      = {read twice},
  file      = {:papers/tsne.pdf:PDF},
  keywords  = {embedding, visualisation},
  groups    = {thesis},
}
"""


def paper(**kw) -> Paper:
    base = dict(id="2602.20175", version=2, title="Visualizing Data using t-SNE",
                authors=("Laurens van der Maaten",), abstract="", categories=("cs.LG",),
                primary_category="cs.LG", doi="10.5555/tsne")
    base.update(kw)
    return Paper(**base)


def test_update_keeps_user_fields_and_refreshes_ours(tmp_path: Path, read_bib) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("% mine\n" + USER_ENTRY)
    result = export_papers([paper()], bib, update=True)
    assert result.updated == [("2602.20175", "vdm")]
    entry = read_bib(bib.read_text())[0]
    fields = entry
    assert entry["ENTRYTYPE"] == "inproceedings" and entry["ID"] == "vdm"
    assert fields["note"] == "read twice" and fields["file"] == ":papers/tsne.pdf:PDF"
    assert fields["keywords"] == "embedding, visualisation" and fields["groups"] == "thesis"
    assert fields["booktitle"] == "My Proceedings"
    assert fields["title"] == "Visualizing Data using {t-SNE}: a corrected title"
    assert fields["author"] == "van der Maaten, L."
    assert fields["doi"] == "10.5555/tsne" and fields["eprint"] == "2602.20175"
    assert fields["url"] == "https://arxiv.org/abs/2602.20175"
    assert bib.read_text().startswith("% mine\n")
    assert any(w.startswith("vdm: kept your title") for w in result.warnings)
    assert any(w.startswith("vdm: kept your author") for w in result.warnings)


def test_a_deleted_title_is_taken_from_arxiv(tmp_path: Path, read_bib) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(USER_ENTRY.replace(
        "  title     = {Visualizing Data using {t-SNE}: a corrected title},\n", ""))
    export_papers([paper()], bib, update=True)
    entry = read_bib(bib.read_text())[0]
    assert entry["title"] == "Visualizing Data using {t-SNE}"
    assert entry["note"] == "read twice"


def test_update_to_a_revised_version_takes_its_title_and_keeps_user_fields(
        tmp_path: Path, read_bib) -> None:
    """A saved paper revised (v1 -> v2, new title): the title exported from v1 is arXiv's,
    so --update takes v2's; the user's note, file and groups stay."""
    v1 = paper(version=1)
    v2 = paper(version=2, title="Visualizing Data using t-SNE, Revisited at Scale")
    bib = tmp_path / "refs.bib"
    export_papers([v1], bib)
    text = bib.read_text().replace("\n}", ",\n  note = {read twice},\n  groups = {thesis}\n}")
    bib.write_text(text)
    assert export_papers([v2], bib, update=True).warnings  # without the earlier version: kept
    result = export_papers([v2], bib, update=True, earlier={v2.id: v1})
    entry = read_bib(bib.read_text())[0]
    assert entry["title"] == "Visualizing Data using {t-SNE}, Revisited at Scale"
    assert entry["note"] == "read twice" and entry["groups"] == "thesis"
    assert not any("kept your title" in w for w in result.warnings)


def test_a_title_the_user_corrected_is_kept_across_a_revision(tmp_path: Path, read_bib) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(USER_ENTRY)
    v2 = paper(title="Visualizing Data using t-SNE, Revisited")
    result = export_papers([v2], bib, update=True, earlier={v2.id: paper(version=1)})
    assert read_bib(bib.read_text())[0]["title"] == (
        "Visualizing Data using {t-SNE}: a corrected title")
    assert any("kept your title" in w for w in result.warnings)
