"""Export papers to a .bib file: parse it, skip papers already there, append the rest."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paperterm.arxiv_id import bare_id, find_arxiv_id
from paperterm.io.atomic import (
    TargetError,
    atomic_write,
    read_regular,
    remove_stale_temps,
    writable_target,
)
from paperterm.models import Paper
from paperterm.outputs.bibtex.bibfile import Block, field_text, locked, parse_bib
from paperterm.outputs.bibtex.citekeys import (
    DEFAULT_PATTERN,
    check_pattern,
    citation_key,
    unique_key,
)
from paperterm.outputs.bibtex.entry import bare_doi, build_entry
from paperterm.outputs.bibtex.errors import BibError
from paperterm.outputs.bibtex.update import updated_entry

_NOT_ENTRIES = {"string", "comment", "preamble"}


@dataclass
class ExportResult:
    """What an export did. Pairs are (arXiv id, citation key)."""

    path: Path | None
    added: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # already present
    updated: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    text: str = ""  # the entries added or updated (everything, for target "-")


# where an entry from elsewhere names its arXiv paper: an abs/pdf URL, arXiv's DOI
# (10.48550/arXiv.ID) or "arXiv:ID" (Google Scholar's journal field)
_ARXIV_REF = re.compile(r"(?:arxiv\.org/(?:abs|pdf)/|10\.48550/arxiv\.|\barxiv:\s*)(\S+)", re.I)
_REF_FIELDS = ("url", "doi", "howpublished", "note", "journal", "pdf", "eprint", "link")


def _arxiv_ids(block: Block) -> list[str]:
    """The arXiv ids an entry's links and DOI name."""
    found = []
    for name in _REF_FIELDS:
        for m in _ARXIV_REF.finditer(field_text(block.fields.get(name, ""))):
            parsed = find_arxiv_id(m.group(1))
            if parsed and m.group(1).lower().startswith(parsed.id.lower()):
                found.append(parsed.id)
    return found


def _norm_id(value: str) -> str:
    return bare_id(value).lower()


def _norm_doi(value: str | None) -> str:
    return bare_doi(value).lower()


class _Index:
    """Existing entries by arXiv id and DOI, plus the citation keys in use."""

    def __init__(self, blocks: list[Block]) -> None:
        self.by_id: dict[str, Block] = {}
        self.by_doi: dict[str, Block] = {}
        self.keys: set[str] = set()
        for b in blocks:
            if b.kind in _NOT_ENTRIES:
                continue
            self.keys.add(b.key.lower())
            ids = []
            if "eprint" in b.fields:
                ids.append(_norm_id(field_text(b.fields["eprint"])))
            ids += [_norm_id(i) for i in _arxiv_ids(b)]
            for i in ids:
                self.by_id.setdefault(i, b)
            doi = _norm_doi(field_text(b.fields.get("doi", "")))
            if doi:
                self.by_doi.setdefault(doi, b)

    def find(self, paper: Paper) -> Block | None:
        doi = _norm_doi(paper.doi)
        return self.by_id.get(_norm_id(paper.id)) or (self.by_doi.get(doi) if doi else None)


def _merge(text: str, papers: Sequence[Paper], opts: dict[str, bool], pattern: str,
           update: bool, result: ExportResult, name: str,
           extra: Mapping[str, dict[str, str]] | None = None,
           earlier: Mapping[str, Paper] | None = None) -> str:
    """Return the new file text; fill `result`. Existing bytes are never re-serialised."""
    index = _Index(parse_bib(text, name))
    nl = "\r\n" if "\r\n" in text else "\n"  # keep the file's line endings
    batch_ids: dict[str, str] = {}
    batch_dois: dict[str, str] = {}
    replaced: dict[int, tuple[Block, str]] = {}
    new: list[str] = []
    for paper in papers:
        pid, doi = _norm_id(paper.id), _norm_doi(paper.doi)
        seen = batch_ids.get(pid) or (batch_dois.get(doi) if doi else None)
        if seen is not None:
            result.skipped.append((paper.id, seen))
            continue
        block = index.find(paper)
        if block is not None:
            key = block.key
            built = build_entry(paper, key, **opts, extra=(extra or {}).get(paper.id))
            before = (earlier or {}).get(paper.id)
            previous = (build_entry(before, key, unicode=opts["unicode"],
                                    prefer_journal=opts["prefer_journal"]).text
                        if before is not None else None)
            entry, kept = updated_entry(block, built.text, nl, previous) if update else ("", [])
            if update and block.start not in replaced and text[block.start : block.end] != entry:
                replaced[block.start] = (block, entry)
                result.updated.append((paper.id, key))
                result.warnings += built.warnings + kept
            else:
                result.skipped.append((paper.id, key))
        else:
            key = unique_key(citation_key(paper, pattern), index.keys)
            index.keys.add(key.lower())
            built = build_entry(paper, key, **opts, extra=(extra or {}).get(paper.id))
            new.append(built.text.replace("\n", nl))
            result.added.append((paper.id, key))
            result.warnings += built.warnings
        batch_ids[pid] = key
        if doi:
            batch_dois[doi] = key
    out = text
    for start in sorted(replaced, reverse=True):
        block, entry = replaced[start]
        out = out[:start] + entry + out[block.end :]
    ordered = [entry + nl for _, (_, entry) in sorted(replaced.items())]
    result.text = nl.join(ordered + new)
    if new:
        if out and not out.endswith(nl):
            out += nl
        if out and not out.endswith(nl + nl):
            out += nl
        out += nl.join(new)
    return out


def export_papers(papers: Sequence[Paper], target: Path | str, *, unicode: bool = False,
                  prefer_journal: bool = False, key_pattern: str = DEFAULT_PATTERN,
                  update: bool = False,
                  extra: Mapping[str, dict[str, str]] | None = None,
                  earlier: Mapping[str, Paper] | None = None) -> ExportResult:
    """Merge `papers` into the .bib file `target` (created if missing) or render for "-".

    Papers already in the file (same arXiv id, any version, or same DOI) are skipped, or
    replaced in place when `update` (`earlier`: the version each paper revises, by id, so a
    title still as arXiv had it takes the new version's). Raises BibError for an unparsable,
    read-only or unwritable file, which is then left untouched, and for a target that is
    not a regular file (a directory, FIFO or device is never opened for writing); a symlink
    is written through; KeyPatternError (a BibError) for a bad `key_pattern`.
    """
    check_pattern(key_pattern)
    opts = {"unicode": unicode, "prefer_journal": prefer_journal}
    if str(target) == "-":
        result = ExportResult(path=None)
        _merge("", papers, opts, key_pattern, False, result, "<stdout>", extra)
        return result
    try:
        path = writable_target(target)
    except TargetError as exc:
        raise BibError(str(exc)) from None
    result = ExportResult(path=path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with locked(path):
            raw = read_regular(path) or b""
            text = raw.decode("utf-8", errors="surrogateescape")
            out = _merge(text, papers, opts, key_pattern, update, result, str(path), extra,
                         earlier)
            if out != text:
                if unicode and not _is_utf8(raw) and not out.isascii():
                    result.warnings.append(f"{path}: is not UTF-8; the new entries are UTF-8")
                atomic_write(path, out.encode("utf-8", errors="surrogateescape"))
            else:
                remove_stale_temps(path)
    except TargetError as exc:
        raise BibError(str(exc)) from None
    except OSError as exc:
        raise BibError(f"{exc.filename or path}: {exc.strerror or exc}") from None
    return result


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
