"""`paperterm zotero`: send the selected papers to Zotero, desktop or web ([zotero])."""

from __future__ import annotations

import sys

from paperterm.cli.errors import EXIT_ERROR, EXIT_OK
from paperterm.cli.export import library_load, select_for_export
from paperterm.cli.options import Options
from paperterm.cli.session import honoured, open_headless_session


def run(opts: Options) -> int:
    from paperterm.outputs.zotero import ZoteroError, send_new_papers

    s = open_headless_session(opts, library_load(opts))  # --starred: the store alone
    try:
        papers, _ = select_for_export(opts, s)
        if not papers:
            print("no papers selected: nothing sent to Zotero", file=sys.stderr)
            return honoured(s, EXIT_OK)
        web = True if opts.web else False if opts.desktop else None
        sent = send_new_papers(papers, s.config.zotero, s.store.zotero, opts.collection, web,
                               resend=opts.resend)
    except ZoteroError as exc:
        print(f"paperterm: {exc}", file=sys.stderr)
        return EXIT_ERROR
    finally:
        s.close()
    message = sent.message()
    hint = " (--resend sends them again)" if sent.skipped else ""
    print(f"{message[0].lower()}{message[1:]}{hint}", file=sys.stderr)
    return honoured(s, EXIT_OK)
