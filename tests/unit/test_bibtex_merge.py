"""Merge-writing a .bib: never clobber, dedupe, atomic, locked, permissions kept."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import stat
import threading
from pathlib import Path

import pytest

from paperterm.models import Paper
from paperterm.outputs.bibtex import BibError, export_papers
from paperterm.outputs.bibtex.bibfile import lock_file, parse_bib


def paper(pid: str = "2602.20175", title: str = "Visualizing Data using t-SNE",
          authors: tuple[str, ...] = ("Laurens van der Maaten",), doi: str | None = None,
          version: int | None = 1) -> Paper:
    return Paper(id=pid, version=version, title=title, authors=authors, abstract="",
                 categories=("cs.LG",), primary_category="cs.LG", doi=doi)


EXISTING = """% My bibliography -- hand written, keep me
@string{jmlr = "Journal of Machine Learning Research"}
@preamble{ "\\newcommand{\\noopsort}[1]{}" }

@comment{ jabref-meta: databaseType:bibtex; }
@Article{ hinton2006,
  author  = {Hinton, Geoffrey E. and Salakhutdinov, Ruslan},
  title   = "Reducing the Dimensionality of Data with {Neural} Networks",
  journal = jmlr # { (special)},
  year    = 2006 ,
}

Free text between entries is a comment for BibTeX. email: someone@example.org
@misc(old2602,
   title = {An older export},
   eprint = {2602.20191v3},
   archiveprefix = {arXiv}
)
@inproceedings{withdoi, title={X}, doi = {https://doi.org/10.1000/ABC.Def}, year={2020}}
@misc{byurl, title={Y}, url = {http://arxiv.org/abs/2602.20194v2}}
"""


def write(path: Path, text: str) -> bytes:
    path.write_bytes(text.encode("utf-8"))
    return path.read_bytes()


def test_missing_file_is_created_with_parents(tmp_path: Path, read_bib) -> None:
    target = tmp_path / "a" / "b" / "refs.bib"
    result = export_papers([paper()], target)
    assert result.path == target and result.added == [("2602.20175", "vandermaaten2026visualizing")]
    assert target.read_text() == result.text
    assert read_bib(target.read_text())[0]["eprint"] == "2602.20175"
    assert sorted(p.name for p in target.parent.iterdir()) == ["refs.bib"]  # no sidecar


def test_stdout_target_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = export_papers([paper(), paper(), paper("2602.20191")], "-")
    assert result.path is None and list(tmp_path.iterdir()) == []
    assert result.text.count("@misc{") == 2
    assert result.skipped == [("2602.20175", "vandermaaten2026visualizing")]


def test_existing_text_survives_byte_for_byte(tmp_path: Path, read_bib) -> None:
    target = tmp_path / "refs.bib"
    before = write(target, EXISTING)
    result = export_papers([paper(), paper("2603.00001", "Another Paper")], target)
    after = target.read_bytes()
    assert after.startswith(before)
    assert [k for _, k in result.added] == ["vandermaaten2026visualizing",
                                            "vandermaaten2026another"]
    tail = after[len(before):].decode()
    assert tail.startswith("\n@misc{vandermaaten2026visualizing,")  # blank line before
    entries = read_bib(after.decode())
    keys = [e["ID"] for e in entries]  # every entry read, the "@misc(...)" form too
    assert keys == [b.key for b in parse_bib(after.decode()) if b.key]
    assert {"hinton2006", "vandermaaten2026visualizing", "vandermaaten2026another"} <= set(keys)
    assert [b.key for b in parse_bib(after.decode())][-2:] == [k for _, k in result.added]


def test_no_trailing_newline_in_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    before = write(target, "@misc{a, title={A}}")
    export_papers([paper()], target)
    assert target.read_bytes() == before + b"\n\n" + export_papers([paper()], "-").text.encode()


@pytest.mark.parametrize(("dup", "key"), [
    (paper("2602.20191", version=5), "old2602"),  # eprint with a version in the file
    (paper("2602.20194"), "byurl"),  # arXiv abs url
    (paper("2609.99999", doi="10.1000/abc.DEF"), "withdoi"),  # DOI, case-insensitive
    (paper("2609.99999", doi="https://dx.doi.org/10.1000/ABC.def"), "withdoi"),
])
def test_duplicates_are_skipped(tmp_path: Path, dup: Paper, key: str) -> None:
    target = tmp_path / "refs.bib"
    before = write(target, EXISTING)
    result = export_papers([dup], target)
    assert result.added == [] and result.skipped == [(dup.id, key)]
    assert target.read_bytes() == before


def test_second_export_is_a_no_op(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    papers = [paper(), paper("2603.00001", "Another Paper", ("Christopher De Sa",))]
    export_papers(papers, target)
    first = target.read_bytes()
    result = export_papers(papers, target)
    assert result.added == [] and len(result.skipped) == 2
    assert target.read_bytes() == first


def test_key_collisions_get_suffixes(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    write(target, "@misc{VanDerMaaten2026Visualizing, title={Other}, eprint={2501.00001}}\n")
    same_base = [paper("2603.00001"), paper("2603.00002"), paper("2603.00003")]
    result = export_papers(same_base, target)
    assert [k for _, k in result.added] == ["vandermaaten2026visualizinga",
                                            "vandermaaten2026visualizingb",
                                            "vandermaaten2026visualizingc"]
    # stable: re-exporting reports the keys already in the file
    again = export_papers(list(reversed(same_base)), target)
    assert dict(again.skipped) == dict(result.added)


def test_update_replaces_in_place(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    before = write(target, EXISTING).decode()
    newer = paper("2602.20191", "An Improved Title", ("Ada Lovelace",))
    assert export_papers([newer], target).skipped == [("2602.20191", "old2602")]
    result = export_papers([newer], target, update=True)
    assert result.updated == [("2602.20191", "old2602")] and result.added == []
    after = target.read_text()
    start = before.index("@misc(old2602")
    end = before.index(")\n", start) + 1
    assert after.startswith(before[:start]) and after.endswith(before[end:])
    assert "@misc{old2602," in after and "{2602.20191}" in after and "2602.20191v3" not in after
    # the title differs from arXiv's: it may be the user's correction, so it is kept, and said
    assert "An older export" in after and "An Improved Title" not in after
    assert any("old2602: kept your title" in w for w in result.warnings)
    # an identical entry is not rewritten
    assert export_papers([newer], target, update=True).skipped == [("2602.20191", "old2602")]


@pytest.mark.parametrize(("text", "line"), [
    ("@misc{a,\n  title = {Unclosed,\n  year = 2020\n}\n\n@misc{b, title={B}}\n", 1),
    ("% ok\n@misc{good, title={G}}\n@misc{a,\n  title = {x}}}\n  year = 2020\n", None),
    ("@misc{a, title = {A}\n@misc{b, title = {B}}", 1),
    ("\n\n@article{a, title = {A} junk}\n", 3),
    ("@misc{a, title {A}}", 1),
    ("@misc{a, title = \"unterminated}\n", 1),
    ("@misc{a title = {A}}", 1),
    ("\x00\x01binary", None),
])
def test_unparsable_file_is_left_untouched(tmp_path: Path, text: str, line: int | None) -> None:
    target = tmp_path / "refs.bib"
    before = write(target, text)
    if line is None and "\x00" not in text:  # BibTeX itself tolerates junk after an entry
        export_papers([paper()], target)
        assert target.read_bytes().startswith(before)
        return
    with pytest.raises(BibError) as exc:
        export_papers([paper()], target)
    assert str(target) in str(exc.value)
    if line is not None:
        assert f"{target}:{line}:" in str(exc.value)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["refs.bib"]


def test_scanner_blocks_and_lines() -> None:
    blocks = parse_bib(EXISTING)
    assert [(b.kind, b.key, b.line) for b in blocks] == [
        ("string", "", 2), ("preamble", "", 3), ("comment", "", 5), ("article", "hinton2006", 6),
        ("misc", "old2602", 14), ("inproceedings", "withdoi", 19), ("misc", "byurl", 20),
    ]
    assert blocks[3].fields["journal"] == "jmlr # { (special)}"
    assert EXISTING[blocks[4].start : blocks[4].end].endswith("archiveprefix = {arXiv}\n)")
    commented = parse_bib("@comment{\n@misc{x, title={X}}\n}\n@misc{y, title={Y}}")
    assert [b.key for b in commented] == ["", "y"]


def test_permissions_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    write(target, EXISTING)
    os.chmod(target, 0o640)
    export_papers([paper()], target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    os.chmod(target, 0o604)
    export_papers([paper("2603.00001")], target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o604


def test_new_file_mode_follows_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        export_papers([paper()], tmp_path / "refs.bib")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "refs.bib").stat().st_mode) == 0o640


def test_write_is_atomic_replace(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    write(target, EXISTING)
    inode = target.stat().st_ino
    export_papers([paper()], target)
    assert target.stat().st_ino != inode  # a new file was renamed over the old one
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_symlink_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "real.bib"
    before = write(real, EXISTING)
    link = tmp_path / "link.bib"
    link.symlink_to(real)
    export_papers([paper()], link)
    assert link.is_symlink() and real.read_bytes().startswith(before)
    assert b"vandermaaten2026visualizing" in real.read_bytes()


def test_crlf_and_non_utf8_bytes_preserved(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    before = b"@misc{latin, title = {Caf\xe9}}\r\n"
    target.write_bytes(before)
    export_papers([paper()], target)
    after = target.read_bytes()
    assert after.startswith(before)
    added = after[len(before):]
    assert b"\r\n" in added and b"\n" not in added.replace(b"\r\n", b"")


def test_bad_key_pattern_touches_nothing(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    with pytest.raises(BibError, match="unknown placeholder"):
        export_papers([paper()], target, key_pattern="{nope}")
    assert not target.exists()


def test_the_lock_on_the_bib_folder_serialises_writers(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    assert lock_file(target) == tmp_path  # beside the .bib, whatever the data dir
    fd = os.open(tmp_path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    done = threading.Event()
    thread = threading.Thread(target=lambda: (export_papers([paper()], target), done.set()))
    thread.start()
    assert not done.wait(0.3)  # still waiting for the lock after 0.3 s
    assert not target.exists()
    os.close(fd)
    thread.join(10)
    assert done.is_set() and target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["refs.bib"]  # no lock file left


def _worker(target: str, ids: list[str], home: str | None = None) -> None:
    if home is not None:  # this process's own data dir
        os.environ.update(PAPERTERM_HOME=home)
    for pid in ids:  # one read-merge-write cycle per paper: many chances to interleave
        export_papers([paper(pid, f"Paper {pid}")], target)


def test_concurrent_processes_lose_nothing(tmp_path: Path, read_bib) -> None:
    target = tmp_path / "refs.bib"
    ids_a = [f"2604.{i:05d}" for i in range(40)]
    ids_b = [f"2605.{i:05d}" for i in range(40)]
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_worker, args=(str(target), ids)) for ids in (ids_a, ids_b)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    entries = read_bib(target.read_text())
    assert sorted(e["eprint"] for e in entries) == sorted(ids_a + ids_b)  # none dropped
    assert len({e["ID"] for e in entries}) == 80


def test_processes_with_different_data_dirs_lose_nothing(tmp_path: Path, read_bib) -> None:
    """Two PAPERTERM_HOMEs, one .bib: the lock lives beside the .bib, not in a data dir."""
    target = tmp_path / "shared" / "refs.bib"
    target.parent.mkdir()
    ids = {"a": [f"2604.{i:05d}" for i in range(60)], "b": [f"2605.{i:05d}" for i in range(60)]}
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_worker, args=(str(target), ids[h], str(tmp_path / h)))
             for h in ids]
    for p in procs:
        p.start()
    for p in procs:
        p.join(180)
        assert p.exitcode == 0
    entries = read_bib(target.read_text())
    assert sorted(e["eprint"] for e in entries) == sorted(ids["a"] + ids["b"])


@pytest.mark.parametrize("existing", [
    "@misc{bydoi, title={T}, doi = {10.48550/arXiv.2602.20175}}",
    "@misc{bydoiurl, title={T}, doi = {https://doi.org/10.48550/ARXIV.2602.20175}}",
    "@misc{byurl, title={T}, url = {https://arxiv.org/abs/2602.20175v3/}}",
    "@misc{bypdf, title={T}, howpublished = {\\url{https://arxiv.org/pdf/2602.20175v1.pdf}}}",
    "@article{scholar, title={T}, journal = {arXiv preprint arXiv:2602.20175}, year={2026}}",
    "@misc{query, title={T}, url = {https://arxiv.org/abs/2602.20175?context=cs}}",
])
def test_a_paper_already_there_by_arxiv_doi_or_url_is_not_added_again(
        tmp_path: Path, existing: str) -> None:
    target = tmp_path / "refs.bib"
    write(target, existing + "\n")
    result = export_papers([paper()], target)
    assert result.added == [] and len(result.skipped) == 1
    assert target.read_text() == existing + "\n"


def test_an_arxiv_doi_of_another_paper_is_no_match(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    write(target, "@misc{other, title={T}, doi = {10.48550/arXiv.2602.20176}}\n")
    assert len(export_papers([paper()], target).added) == 1
