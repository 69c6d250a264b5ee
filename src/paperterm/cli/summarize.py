"""`paperterm summarize ID...`: 3-5 sentence summaries of cached papers, in the configured
language, cached per paper version, model and language (a rerun costs nothing)."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from paperterm.cli.errors import EXIT_AUTH, EXIT_ERROR, EXIT_OK, UserError
from paperterm.cli.library_ids import cached_by_ids
from paperterm.cli.options import Options
from paperterm.cli.session import load_user_config, open_store
from paperterm.models import Paper
from paperterm.services.storage import StoreFactory, opener
from paperterm.settings import ScoringSettings

if TYPE_CHECKING:
    from paperterm.services.scoring import RunSummary
    from paperterm.services.summaries import Summary

NEEDS_MODEL = ("summaries need a model: --model PROVIDER/MODEL (e.g. openai/gpt-4o-mini) "
               "or config `model`")


def run(opts: Options) -> int:
    config = load_user_config(opts)
    settings = config.scoring.with_overrides(**opts.scoring)
    if not settings.model:
        raise UserError(NEEDS_MODEL)
    language = opts.language or config.language
    notices: list[str] = []
    store = open_store(notices)
    for notice in notices:
        print(f"note: {notice}", file=sys.stderr)
    try:
        papers = cached_by_ids(store.library, opts.ids)
        path = store.path
    finally:
        store.close()
    got, summary = summarize(papers, settings, language, opener(path))
    for p in papers:
        s = got[p.id]
        if opts.json:
            row = {"id": p.id, "version": p.version, "title": p.title, "language": language,
                   "model": settings.model, "summary": s.text or None, "status": s.status}
            if not s.ok:
                row["error"] = s.error or "no summary"
            print(json.dumps(row, ensure_ascii=False))
        else:
            print(f"{p.versioned_id}  {p.title}")
            body = s.text if s.ok else f"(no summary: {s.error or 'unknown reason'})"
            print(textwrap.fill(body, width=96, initial_indent="  ", subsequent_indent="  "))
            print()
    print(format_run(summary, got.values(), language), file=sys.stderr)
    return EXIT_OK if all(s.ok for s in got.values()) else EXIT_ERROR


def summarize(papers: Sequence[Paper], settings: ScoringSettings, language: str,
              open_store: StoreFactory) -> tuple[dict[str, Summary], RunSummary]:
    """Every paper's Summary (or why not) and what the run cost; one clear UserError when
    the run cannot work at all (missing key, authentication, unreachable server...)."""
    from paperterm.services.scoring import ScoringError
    from paperterm.services.summaries import summarize_many

    try:
        return summarize_many(papers, settings, language, open_store)
    except ScoringError as exc:
        raise UserError(f"summaries stopped: {exc}", EXIT_AUTH) from None


def format_run(summary: RunSummary, results: Iterable[Summary], language: str) -> str:
    """One line of what a summary run did and cost."""
    items = list(results)
    done = sum(1 for s in items if s.status == "done")
    cached = sum(1 for s in items if s.status == "cached")
    failed = len(items) - done - cached
    cost = "unknown" if summary.cost is None else f"${summary.cost:.4f}"
    line = (f"summaries ({language}, {summary.model}): {done} new, {cached} cached, "
            f"{failed} failed; tokens {summary.total_tokens:,}; cost {cost}; "
            f"requests {summary.requests}")
    if summary.stopped:
        line += f"\n{summary.stop_line}"
    return line
