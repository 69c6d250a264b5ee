"""Command line: `paperterm [options]` opens the reader; subcommands run headless.

`main` parses into one `Options` object and hands it to the module of the command
(`reader`, `score`, `digest`, `export`, `config`, `topics`, `themes`), imported on demand so
that `--help` and the reader's first paint load no more than they need.
"""

from __future__ import annotations

import importlib
import sqlite3
import sys

from paperterm.cli.errors import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UserError
from paperterm.io.env import EnvError, check_values, env
from paperterm.text.hygiene import clean_line

COMMANDS = {"tui": "reader", "score": "score", "digest": "digest", "export": "export",
            "config": "config", "topics": "topics", "themes": "themes",
            "star": "star", "unstar": "star", "search": "search", "note": "note",
            "library": "library",
            "completions": "completions", "zotero": "zotero",
            "summarize": "summarize", "doctor": "doctor"}
COMMANDS["learn"] = "learn"
COMMANDS["enrich"] = "enrich"
COMMANDS["starred"] = "starred"
COMMANDS["eval"] = "evaluation"
COMMANDS["manpage"] = "manpage"


def main(argv: list[str] | None = None) -> int:
    from paperterm.cli.options import Options
    from paperterm.cli.parser import build_parser

    args = sys.argv[1:] if argv is None else argv
    opts = Options.from_namespace(build_parser(args).parse_args(args))
    try:
        check_values()
        module = importlib.import_module(f"paperterm.cli.{COMMANDS[opts.command]}")
        return module.run(opts)
    except UserError as exc:
        print(f"paperterm: {exc}", file=sys.stderr)
        return exc.code
    except EnvError as exc:
        print(f"paperterm: {clean_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("paperterm: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except sqlite3.Error as exc:  # the cache locked or read-only mid-command: one line
        from paperterm.settings import paths
        from paperterm.store import describe

        print(f"paperterm: {describe(exc, paths.database_file())}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:  # last line of defence: never a traceback in the user's face
        if env("PAPERTERM_DEBUG"):
            raise
        print(f"paperterm: internal error: {type(exc).__name__}: {exc} "
              "(set PAPERTERM_DEBUG=1 for details, and please report it)", file=sys.stderr)
        return EXIT_ERROR
