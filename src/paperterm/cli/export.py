"""`paperterm export`: save papers to a .bib file (or stdout), or as RIS, CSL-JSON, CSV or
Markdown notes (`--format`): any cached paper's by id, star or tag, or a whole day (`--all`).

Papers saved to the .bib file by id are marked saved under the topic (what its ranking learns
from); by star or tag, saved for no topic; a whole day is not marked saved."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from paperterm.cli.errors import EXIT_INSTEAD, EXIT_OK, UserError
from paperterm.cli.library_ids import cached_by_ids
from paperterm.cli.options import Options
from paperterm.cli.scoring_run import exit_code, score_day
from paperterm.cli.session import honoured, open_headless_session
from paperterm.day.session import Session
from paperterm.models import Day, Paper
from paperterm.services.library import Selection
from paperterm.services.marks import MarksService
from paperterm.services.storage import Store
from paperterm.settings import paths

SELECTORS = "--ids ID..., --starred, --tag TAG, or --day YYYY-MM-DD --all (a whole day)"


def check_selection(opts: Options) -> None:
    """Refuse an export that does not say which papers (it took the whole loaded day)."""
    chosen = opts.ids or opts.starred or opts.tag
    if opts.whole_day and chosen:
        raise UserError("export --all takes every paper of the day: not with --ids, "
                        "--starred or --tag")
    if opts.day and not chosen and not opts.whole_day:
        raise UserError(f"export --day {opts.day}: add --all to export every paper of that "
                        "day, or narrow it with --starred or --tag")
    if not chosen and not opts.whole_day:
        raise UserError(f"which papers to export? give {SELECTORS}")


def _source_given(opts: Options) -> bool:
    return bool(opts.feed or opts.date or opts.query or opts.sample or opts.since)


def _library_selected(opts: Options) -> bool:
    return bool(opts.ids or opts.starred or opts.tag or opts.day)


def _from_library(opts: Options, store: Store) -> list[Paper]:
    """--ids (any cached paper) plus the cached papers --starred / --tag / --day select."""
    papers = cached_by_ids(store.library, opts.ids) if opts.ids else []
    if opts.starred or opts.tag or opts.day:
        sel = Selection(starred=opts.starred, tag=opts.tag, day=opts.day)
        chosen = [p for p, _ in store.library.library_papers(sel)]
        if opts.ids:  # both: the given ids that also match
            keep = {p.id for p in chosen}
            papers = [p for p in papers if p.id in keep]
        else:
            papers = chosen
    return papers


def select_for_export(opts: Options, s: Session) -> tuple[list[Paper], int]:
    """The loaded day's papers, or the library's selection (restricted to the loaded day for
    --starred/--tag/--day when a source such as --feed or --date is also given), and the exit
    code of the scoring behind --min-relevance."""
    papers, code = s.day.papers, EXIT_OK
    if _library_selected(opts):
        chosen = _from_library(opts, s.store)
        if _source_given(opts) and not opts.ids:
            loaded = {p.id for p in papers}
            chosen = [p for p in chosen if p.id in loaded]
        papers = chosen
    if opts.min_relevance:
        scores, summary = score_day(s, progress=True)
        code = exit_code(summary, scores)
        rel = {sc.paper_id: sc.relevance for sc in scores}
        papers = [p for p in papers if (rel.get(p.id) or 0) >= opts.min_relevance]
    return papers, code


def library_load(opts: Options) -> Callable[[Store], Day] | None:
    """When the selection comes from the cache alone (--ids, --starred, --tag, --day and no
    source such as --feed or --date): what loads instead of a day, with no network; else
    None (the day the options ask for is loaded)."""
    if not _library_selected(opts) or _source_given(opts):
        return None

    def load(store: Store) -> Day:
        return Day(_from_library(opts, store), "library", None, "cache")

    return load


def run(opts: Options) -> int:
    check_selection(opts)
    s = open_headless_session(opts, library_load(opts))
    try:
        if opts.whole_day and (s.day.instead or (s.day.source == "sample" and not opts.sample)):
            # the day asked for could not be loaded (offline, arXiv down): whatever stands in
            # (another cached day, the bundled sample) is never merged whole into the user's
            # .bib file; nothing is written
            why = s.day.instead or "today's papers could not be loaded, only the sample day"
            print(f"paperterm: export --all: {why}; nothing exported (give --day D, a cached "
                  "day, or --sample)", file=sys.stderr)
            return EXIT_INSTEAD
        if opts.format not in ("bibtex", "md"):  # "md": Options' default, when not parsed
            return honoured(s, _export_other(opts, s))
        return honoured(s, _export(opts, s))
    finally:
        s.close()


def _export_other(opts: Options, s: Session) -> int:
    from paperterm.cli.digest import write_text
    from paperterm.outputs.bibtex import KeyPatternError
    from paperterm.outputs.exports import render, write_notes

    papers, code = select_for_export(opts, s)
    pattern = s.config.bibtex.key_pattern
    out = opts.output
    try:
        if opts.format == "markdown" and (out is None or _is_dir(out)):
            directory = Path(out).expanduser() if out else paths.data_dir() / "notes"
            try:
                result = write_notes(papers, directory, pattern, update=opts.update)
            except OSError as exc:
                raise UserError(f"{directory}: cannot write notes "
                                f"({exc.strerror or exc})", 1) from None
            from paperterm.services.scoring import count

            print(f"{directory}: {count(len(result.written), 'note')} written, {len(result.kept)} "
                  "already there (kept; --update rewrites them)", file=sys.stderr)
            return EXIT_OK
        text = render(opts.format, papers, pattern)
    except KeyPatternError as exc:
        raise UserError(f"[bibtex] key_pattern: {exc}", 2) from None
    if out is None or out == "-":
        sys.stdout.write(text)
        return code
    write_text(Path(out).expanduser(), text)
    print(f"{out}: {len(papers)} papers as {opts.format}", file=sys.stderr)
    return code


def _is_dir(out: str) -> bool:
    """`-o` names a directory: an existing one, or a path ending in a separator."""
    return out != "-" and (out.endswith(("/", "\\")) or Path(out).expanduser().is_dir())


def _export(opts: Options, s: Session) -> int:
    from paperterm.io.atomic import TargetError, writable_target
    from paperterm.outputs.bibtex import BibError, export_papers

    target: Path | str = "-" if opts.output == "-" else Path(opts.output or s.bib_path)
    if target != "-":
        try:  # refused before any paid scoring (--min-relevance)
            writable_target(target)
        except TargetError as exc:
            raise UserError(str(exc), 1) from None
    papers, code = select_for_export(opts, s)
    if not papers and _library_selected(opts):
        print("note: no cached paper matches the selection; nothing to export", file=sys.stderr)
    bib = s.config.bibtex
    extra = _notes_fields(s.store, papers) if opts.notes else {}
    # --update: a revised paper's entry takes the new version's title (sources.revisions)
    earlier = s.store.papers.earlier_versions(papers) if opts.update else None
    try:
        result = export_papers(papers, target, unicode=opts.unicode or bib.unicode,
                               prefer_journal=bib.prefer_journal, key_pattern=bib.key_pattern,
                               update=opts.update, extra=extra, earlier=earlier)
    except BibError as exc:
        raise UserError(str(exc), 1) from None
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if target == "-":
        sys.stdout.write(result.text)
        return code
    if not opts.whole_day:  # chosen by id (a signal for the topic), or by star or tag
        MarksService(s.store, s.topic.name).mark_saved(
            [*result.added, *result.skipped, *result.updated], result.path or target,
            one_by_one=bool(opts.ids))
    print(f"{target}: {len(result.added)} added, {len(result.skipped)} already present"
          + (f", {len(result.updated)} updated" if result.updated else "")
          + ("; a whole day: not marked saved" if opts.whole_day else ""), file=sys.stderr)
    return code


def _notes_fields(store: Store, papers: list[Paper]) -> dict[str, dict[str, str]]:
    """`note` and `keywords` BibTeX fields from the user's notes and tags, per paper id."""
    ids = [p.id for p in papers]
    notes, tags = store.marks.notes(ids), store.marks.tags(ids)
    out: dict[str, dict[str, str]] = {}
    for pid in ids:
        fields = {}
        if notes.get(pid):
            fields["note"] = notes[pid]
        if tags.get(pid):
            fields["keywords"] = ", ".join(tags[pid])
        if fields:
            out[pid] = fields
    return out
