"""`paperterm learn [--topic T]`: record the arXiv papers you already keep (your Zotero web
library, a .bib file) as positives for the ranking of a topic (default: the config's)."""

from __future__ import annotations

import sys
from pathlib import Path

from paperterm.cli.errors import EXIT_ERROR, EXIT_OK, EXIT_USAGE, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import load_user_config, open_marks
from paperterm.io import limits
from paperterm.services.storage import Positive


def zotero_positives(library_id: str, library_type: str) -> list[Positive]:
    """Every item of the web library that is an arXiv paper."""
    from paperterm.outputs.zotero import WebLibrary, item_arxiv_id

    found: dict[str, Positive] = {}
    for data in WebLibrary(library_id, library_type).items():
        pid = item_arxiv_id(data)
        if pid and pid not in found:
            found[pid] = Positive(pid, str(data.get("title") or ""),
                                  str(data.get("abstractNote") or ""))
    return list(found.values())


def bib_positives(path: Path) -> list[Positive]:
    """Every entry of a .bib file that is an arXiv paper (eprint, arXiv DOI, URL, journal)."""
    from paperterm.outputs.bibtex.bibfile import field_text, parse_bib
    from paperterm.outputs.bibtex.errors import BibError
    from paperterm.outputs.zotero import item_arxiv_id

    try:
        text = limits.read_argument_text(str(path), str(path), limits.MAX_IMPORT_FILE)
    except limits.Unreadable as exc:
        raise UserError(str(exc), EXIT_ERROR) from None
    try:
        blocks = parse_bib(text, str(path))
    except BibError as exc:
        raise UserError(str(exc), EXIT_ERROR) from None
    found: dict[str, Positive] = {}
    for b in blocks:
        f = {k: field_text(v) for k, v in b.fields.items()}
        eprint = f.get("eprint", "")
        archive = f.get("archiveprefix", "") or f.get("eprinttype", "")
        data = {"DOI": f.get("doi", ""), "url": f.get("url", ""),
                "extra": "\n".join(x for x in (
                    f"arXiv: {eprint}" if eprint and (not archive or
                                                      archive.lower() == "arxiv") else "",
                    f.get("journal", ""), f.get("note", "")) if x)}
        pid = item_arxiv_id(data)
        if pid and pid not in found:
            found[pid] = Positive(pid, f.get("title", ""), f.get("abstract", ""))
    return list(found.values())


def run(opts: Options) -> int:
    if not opts.zotero and not opts.bib:
        raise UserError("learn from what? give --zotero (the web library set under "
                        "[zotero]) and/or --bib FILE", EXIT_USAGE)  # a usage error: exit 2
    config = load_user_config(opts)
    sources: list[tuple[str, list[Positive]]] = []
    if opts.zotero:
        from paperterm.outputs.zotero import ZoteroError

        z = config.zotero
        try:
            sources.append((f"zotero:{z.library_type}/{z.library_id}",
                            zotero_positives(z.library_id, z.library_type)))
        except ZoteroError as exc:
            raise UserError(str(exc), EXIT_ERROR) from None
    if opts.bib:
        path = opts.bib.expanduser()
        sources.append((f"bib:{path.resolve()}", bib_positives(path)))
    marks = open_marks(opts, config)
    try:
        for source, positives in sources:
            total, new = marks.record_positives(source, positives)
            print(f"{source}: {total} arXiv paper{'s' * (total != 1)} recorded as "
                  f"positives for topic {marks.topic} ({new} new)", file=sys.stderr)
    finally:
        marks.store.close()
    return EXIT_OK
