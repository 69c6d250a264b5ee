"""Command line: `paperterm [options]` opens the reader; subcommands run headless.

`main` parses into one `Options` object and hands it to the module of the command
(`reader`, `score`, `digest`, `export`, `config`, `topics`, `themes`), imported on demand so
that `--help` and the reader's first paint load no more than they need.
"""

from __future__ import annotations

import errno
import importlib
import sqlite3
import sys
from typing import TYPE_CHECKING

from paperterm.cli.errors import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UserError
from paperterm.io.env import EnvError, check_values, env
from paperterm.text.hygiene import SafeStream, clean_line

if TYPE_CHECKING:
    from paperterm.cli.options import Options

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
    streams = sys.stdout, sys.stderr
    if opts.command != "tui":  # the reader draws its own escapes; every other line is cleaned
        sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)
    try:
        return _run(opts)
    finally:
        sys.stdout, sys.stderr = streams


def _run(opts: Options) -> int:
    try:
        check_values()
        module = importlib.import_module(f"paperterm.cli.{COMMANDS[opts.command]}")
        code = module.run(opts)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk is found here, not at exit
        return code
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
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
            return _internal(exc)
        if getattr(sys.stdout, "failed", None) is exc:
            _drop_output()
            print("paperterm: cannot write the output: the disk it goes to is full (No "
                  "space left on device); the output is incomplete", file=sys.stderr)
        else:
            print(f"paperterm: {exc.filename or 'cannot write'}: the disk is full (No space "
                  "left on device)", file=sys.stderr)
        return EXIT_ERROR
    except sqlite3.Error as exc:  # the cache locked or read-only mid-command: one line
        from paperterm.services.storage import describe
        from paperterm.settings import paths

        print(f"paperterm: {describe(exc, paths.database_file())}", file=sys.stderr)
        return EXIT_ERROR
    except OverflowError as exc:  # date arithmetic past 0001-01-01 or 9999-12-31
        print(f"paperterm: a date beyond the ends of the calendar (0001-01-01 to 9999-12-31): "
              f"{exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # last line of defence: never a traceback in the user's face
        return _internal(exc)


def _internal(exc: Exception) -> int:
    if env("PAPERTERM_DEBUG"):
        raise exc
    print(f"paperterm: internal error: {type(exc).__name__}: {exc} "
          "(set PAPERTERM_DEBUG=1 for details, and please report it)", file=sys.stderr)
    return EXIT_ERROR


def _drop_output() -> None:
    """After a write to stdout failed (a full disk): point stdout at /dev/null, so the
    interpreter's flush of what is still buffered at exit fails no more."""
    import os

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return  # an embedding host's stream: nothing to redirect
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)
