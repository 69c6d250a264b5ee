"""`paperterm enrich`: add Hugging Face daily-paper upvotes, Semantic Scholar citations and
code links to the loaded day, cached in the store (the reader shows them)."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

from paperterm.cli.errors import EXIT_ERROR, EXIT_OK, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import open_headless_session


def chosen_sources(opts: Options, configured: list[str]) -> list[str]:
    from paperterm.signals import SOURCES

    if opts.enrich_sources is None:
        return list(configured or SOURCES)
    asked = [s.strip() for s in opts.enrich_sources.split(",") if s.strip()]
    bad = [s for s in asked if s not in SOURCES]
    if bad or not asked:
        raise UserError(f"--source: expected some of {', '.join(SOURCES)}, "
                        f"got {opts.enrich_sources!r}")
    return asked


def run(opts: Options) -> int:
    from paperterm.outputs.digest import clean_json
    from paperterm.outputs.enrich.run import enrich
    from paperterm.signals import load_signals

    s = open_headless_session(opts)
    try:
        sources = chosen_sources(opts, s.config.enrich)
        outcome = enrich(s.store.enrichment, s.day.papers, sources, day=s.day.day,
                         offline=opts.offline, force=opts.force)
        found = load_signals(s.store.enrichment, [p.id for p in s.day.papers])
    finally:
        s.close()
    if opts.json:
        for p in s.day.papers:
            sig = found.get(p.id)
            if sig is not None:
                row = {"id": p.id, "title": p.title, **asdict(sig), "code": list(sig.code)}
                print(json.dumps(clean_json(row), ensure_ascii=False))
    print(f"{s.day.label}: {outcome.summary()}",
          file=sys.stderr if opts.json else sys.stdout)
    return EXIT_ERROR if outcome.errors else EXIT_OK
