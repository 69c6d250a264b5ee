"""`paperterm library export|import FILE`: everything the user made, as one JSON file."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from paperterm.arxiv_id import parse_arxiv_id
from paperterm.cli.errors import EXIT_OK, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import open_store
from paperterm.io import limits
from paperterm.models import Paper
from paperterm.services.library_file import (
    FORMAT,
    FORMAT_VERSION,
    export_library,
    import_library,
)
from paperterm.text.hygiene import clean_paper


def run(opts: Options) -> int:
    assert opts.file is not None
    if opts.library_action == "import":
        records, papers, days, learned = _read(opts.file)
    notices: list[str] = []
    store = open_store(notices)
    for notice in notices:
        print(f"note: {notice}", file=sys.stderr)
    try:
        if opts.library_action == "export":
            text, exported, learned = export_library(store,
                                                     time.strftime("%Y-%m-%dT%H:%M:%S%z"))
        else:
            counts, taught = import_library(store, records, papers, days, learned)
    finally:
        store.close()
    if opts.library_action == "export":
        _write(opts.file, text)
        print(f"{opts.file}: {exported} papers exported, with "
              + ", ".join(f"{len(rows)} {name.replace('_', ' ')}"
                          for name, rows in learned.items()), file=sys.stderr)
    else:
        print(f"{opts.file}: {counts.papers} papers read: {counts.changed} added or "
              f"updated, {counts.unchanged} unchanged" + (
                  f" ({counts.added_papers} new to the cache, {counts.starred} stars, "
                  f"{counts.notes} notes, {counts.tags} tags added)" if counts.changed else "")
              + (f"; {taught} followed authors, not-interested marks and learn records "
                 "added" if taught else ""), file=sys.stderr)
    return EXIT_OK


def _write(name: str, text: str) -> None:
    if name == "-":
        sys.stdout.write(text)
        return
    from paperterm.cli.digest import write_text

    write_text(Path(name), text)


def _read(name: str) -> tuple[list[dict[str, object]], list[Paper], dict[str, str],
                             dict[str, list[dict[str, object]]]]:
    """Records, the papers they carry, those papers' days and what the ranking learned
    from (`_learned`); UserError for anything that is not a paperterm library file (nothing
    is imported then)."""
    try:
        raw = limits.read_argument(name, "stdin" if name == "-" else name,
                                   limits.MAX_IMPORT_FILE)
        data = json.loads(raw.decode("utf-8"))
    except limits.Unreadable as exc:
        raise UserError(str(exc), 1 if "cannot read" in str(exc) else 2) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise UserError(f"{name}: not JSON ({exc})") from None
    except RecursionError:  # the decoder recurses: 100,000 levels deep is no library file
        raise UserError(f"{name}: not a paperterm library file (JSON nested too deeply)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserError(f"{name}: not a paperterm library file (no \"format\": \"{FORMAT}\")")
    if not isinstance(data.get("version"), int) or data["version"] > FORMAT_VERSION:
        raise UserError(f"{name}: library format version {data.get('version')!r} is newer "
                        f"than this paperterm understands ({FORMAT_VERSION}); upgrade paperterm")
    rows = data.get("papers")
    if not isinstance(rows, list):
        raise UserError(f"{name}: \"papers\" must be a list")
    records: list[dict[str, object]] = []
    papers: list[Paper] = []
    days: dict[str, str] = {}
    for n, r in enumerate(rows, 1):
        try:
            records.append(_record(r))
            paper = _paper(r)
        except (TypeError, ValueError, KeyError) as exc:
            raise UserError(f"{name}: paper {n}: {exc}") from None
        if paper is not None:
            papers.append(paper)
            if isinstance(r.get("day"), str):
                days[paper.id] = r["day"]
    try:
        learned = _learned(data.get("learned") or {})
    except (TypeError, ValueError) as exc:
        raise UserError(f"{name}: learned: {exc}") from None
    return records, papers, days, learned


def _learned(data: object) -> dict[str, list[dict[str, object]]]:
    """Followed authors, "not interested" marks and `learn` positives, checked."""
    from paperterm.services.library_file import LEARNED

    if not isinstance(data, dict):
        raise TypeError("expected an object")
    out: dict[str, list[dict[str, object]]] = {}
    for name, cols in LEARNED.items():
        rows = data.get(name) or []
        if not isinstance(rows, list):
            raise TypeError(f"{name} must be a list")
        checked = []
        for n, row in enumerate(rows, 1):
            if not isinstance(row, dict):
                raise TypeError(f"{name} {n}: expected an object")
            item: dict[str, object] = {}
            for col in cols:
                value = row.get(col)
                if col.endswith("_at"):
                    item[col] = _time(value, col) or 0.0
                elif not isinstance(value, str) or (col in ("id", "key", "name") and not value):
                    raise ValueError(f"{name} {n}: {col} must be a string")
                else:
                    item[col] = value
            if "id" in item:
                parsed = parse_arxiv_id(str(item["id"]))
                if parsed is None:
                    raise ValueError(f"{name} {n}: not an arXiv id: {item['id']!r}")
                item["id"] = parsed.id
            checked.append(item)
        out[name] = checked
    return out


def _time(value: object, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} must be a number of seconds or null")
    return float(value)


def _record(r: object) -> dict[str, object]:
    if not isinstance(r, dict):
        raise TypeError("expected an object")
    parsed = parse_arxiv_id(str(r.get("id", "")))
    if parsed is None:
        raise ValueError(f"not an arXiv id: {r.get('id')!r}")
    tags = r.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ValueError("tags must be a list of strings")
    note = r.get("note") or ""
    if not isinstance(note, str):
        raise ValueError("note must be a string")
    text = {k: (str(r[k]) if r.get(k) is not None else None)
            for k in ("bib_key", "bib_path", "star_topic", "saved_topic", "seen_topic")}
    return {"id": parsed.id, "starred": bool(r.get("starred")),
            "seen_at": _time(r.get("seen_at"), "seen_at"),
            "saved_at": _time(r.get("saved_at"), "saved_at"), "note": note, "tags": tags, **text}


def _paper(r: dict[str, object]) -> Paper | None:
    meta = r.get("paper")
    if meta is None:
        return None
    if not isinstance(meta, dict):
        raise TypeError("paper must be an object")
    pid = parse_arxiv_id(str(r["id"])).id  # type: ignore[union-attr]

    def listed(k: str) -> tuple[str, ...]:
        return tuple(str(x) for x in meta.get(k) or ())

    def optional(k: str) -> str | None:
        return str(meta[k]) if meta.get(k) is not None else None

    version = meta.get("version")
    if isinstance(version, int) and not 1 <= version <= 9999:  # as arXiv ids take them
        raise ValueError("paper version must be a whole number from 1 to 9999")
    return clean_paper(Paper(
        id=pid, version=int(version) if isinstance(version, int) else None,
        title=str(meta.get("title") or ""), abstract=str(meta.get("abstract") or ""),
        primary_category=str(meta.get("primary_category") or ""), authors=listed("authors"),
        categories=listed("categories"), doi=optional("doi"),
        journal_ref=optional("journal_ref"), comment=optional("comment"),
        published=optional("published")))
