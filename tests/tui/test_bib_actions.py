"""Saving and copying BibTeX as the reader does it, without starting the app."""

from __future__ import annotations

from dataclasses import replace

from paperterm.settings.config import BibtexConfig
from paperterm.tui.bib_actions import BibOptions, bibtex_clipping, save_papers


def test_options_from_the_config():
    opts = BibOptions.from_config(BibtexConfig(prefer_journal=True, key_pattern="{id}"),
                                  unicode=True)
    assert opts == BibOptions(unicode=True, prefer_journal=True, key_pattern="{id}")


def test_save_adds_then_says_already_there(tmp_path, example_papers):
    bib = tmp_path / "out" / "papers.bib"
    a, b = example_papers[:2]
    first = save_papers([a, b], bib, BibOptions())
    assert not first.error and first.path == bib.resolve()
    keys = [k for _, k in first.in_file]
    assert [pid for pid, _ in first.in_file] == [a.id, b.id]
    assert first.message == f"Saved to {bib.resolve()}: added {keys[0]}, {keys[1]}"
    text = bib.read_text(encoding="utf-8")
    assert a.id in text and b.id in text and all(f"{{{k}," in text for k in keys)
    again = save_papers([b], bib, BibOptions())
    assert again.message == f"Saved to {bib.resolve()}: already there {keys[1]}"
    assert again.in_file == [(b.id, keys[1])]
    assert bib.read_text(encoding="utf-8") == text


def test_a_broken_file_is_not_touched(tmp_path, example_papers):
    bib = tmp_path / "papers.bib"
    broken = "@article{broken,\n  title = {unclosed\n"
    bib.write_text(broken, encoding="utf-8")
    outcome = save_papers(example_papers[:1], bib, BibOptions())
    assert outcome.error and outcome.message.startswith("Not saved: ")
    assert outcome.in_file == [] and bib.read_text(encoding="utf-8") == broken


def test_a_bad_key_pattern_is_an_error(tmp_path, example_papers):
    outcome = save_papers(example_papers[:1], tmp_path / "p.bib",
                          BibOptions(key_pattern="{nope}"))
    assert outcome.error and "nope" in outcome.message
    assert not (tmp_path / "p.bib").exists()


def test_unicode_into_a_latin1_file_warns(tmp_path, example_papers):
    bib = tmp_path / "old.bib"
    bib.write_bytes("% caf\xe9\n".encode("latin-1"))
    paper = replace(example_papers[0], title="Café études")
    outcome = save_papers([paper], bib, BibOptions(unicode=True))
    assert not outcome.error
    assert any("not UTF-8" in w for w in outcome.warnings)


def test_clipping_is_the_entry_under_the_saved_key(example_papers):
    paper = example_papers[0]
    fresh = bibtex_clipping(paper, None, BibOptions())
    assert fresh.text.lstrip().startswith("@") and paper.id in fresh.text
    assert fresh.message.startswith("Copied the BibTeX entry ")
    saved = bibtex_clipping(paper, "mykey2026", BibOptions())
    assert "{mykey2026," in saved.text
    assert saved.message == "Copied the BibTeX entry mykey2026 to the clipboard"


def test_clipping_falls_back_to_the_arxiv_id(example_papers):
    paper = example_papers[0]
    clip = bibtex_clipping(paper, None, BibOptions(key_pattern="{nope}"))
    assert clip.text == paper.versioned_id
    assert clip.message == f"Copied the arXiv id {paper.versioned_id} to the clipboard"
