"""Command line: `paperterm [options]` opens the reader; subcommands run headless."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import date
from pathlib import Path
from typing import Any

from paperterm import __version__

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_AUTH = 0, 1, 2, 3


class UserError(Exception):
    """A problem the user can fix; printed as one line, exit code `code`."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def _iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected YYYY-MM-DD, got {text!r}") from None


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {value}")
    return value


def _positive(text: str) -> float:
    value = _non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("expected more than 0")
    return value


def _relevance(text: str) -> int:
    value = _positive_int(text)
    if value > 10:
        raise argparse.ArgumentTypeError(f"expected 1-10, got {value}")
    return value


def _common_options() -> argparse.ArgumentParser:
    """Options every command shares; SUPPRESS so a subcommand never resets a global value."""
    p = argparse.ArgumentParser(add_help=False)
    S = argparse.SUPPRESS
    g = p.add_argument_group("loading")
    g.add_argument("--config", metavar="FILE", default=S, help="config file (env PAPERTERM_CONFIG)")
    g.add_argument("--topic", metavar="NAME", default=S,
                   help="a defined topic, or free text used as keywords")
    src = g.add_mutually_exclusive_group()
    src.add_argument("--feed", metavar="PATH", type=Path, default=S,
                     help="load a saved arXiv RSS or Atom file")
    src.add_argument("--date", metavar="YYYY-MM-DD", type=_iso_date, default=S,
                     help="a past announcement day (cache, else approximated via the arXiv API)")
    src.add_argument("--query", metavar="TEXT", default=S, help="an arXiv search")
    src.add_argument("--sample", action="store_true", default=S,
                     help="open the bundled sample day")
    g.add_argument("--categories", metavar="CATS", default=S,
                   help="comma-separated arXiv categories (overrides config)")
    g.add_argument("--max-results", type=_positive_int, default=S, help="for --query / --date")
    g.add_argument("--offline", action="store_true", default=S,
                   help="never touch the network (cache, else the sample day)")
    s = p.add_argument_group("scoring")
    s.add_argument("--model", default=S, help="any litellm model, e.g. openai/gpt-4o-mini")
    s.add_argument("--api-base", default=S, help="provider base URL (e.g. for ollama)")
    s.add_argument("--scorer", choices=["auto", "llm", "local"], default=S)
    s.add_argument("--batch-size", type=_positive_int, default=S)
    s.add_argument("--concurrency", type=_positive_int, default=S)
    s.add_argument("--rpm", type=_non_negative, default=S, help="requests per minute, 0 = no limit")
    s.add_argument("--timeout", type=_positive, default=S, help="seconds per request")
    s.add_argument("--budget", type=_non_negative, default=S, help="dollars per run, 0 = no limit")
    b = p.add_argument_group("bibtex and display")
    b.add_argument("--bib", metavar="FILE", type=Path, default=S, help="the .bib file to save to")
    b.add_argument("--unicode", action="store_true", default=S,
                   help="keep UTF-8 in BibTeX (biber/XeLaTeX) instead of LaTeX escapes")
    b.add_argument("--theme", default=S, help="theme name (see `paperterm themes`)")
    return p


def build_parser() -> argparse.ArgumentParser:
    common = _common_options()
    parser = argparse.ArgumentParser(
        prog="paperterm",
        description="Triage the day's arXiv papers: score them against your topic, save to BibTeX.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"paperterm {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sc = sub.add_parser("score", parents=[common], help="score the loaded day headless")
    sc.add_argument("--json", action="store_true", help="one JSON object per paper on stdout")

    dg = sub.add_parser("digest", parents=[common], help="write the day's digest")
    dg.add_argument("--format", choices=["md", "json"], default="md")
    dg.add_argument("--min-relevance", type=_relevance, metavar="N")
    dg.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")

    ex = sub.add_parser("export", parents=[common], help="save papers to a .bib file")
    ex.add_argument("--ids", nargs="+", metavar="ID", help="these arXiv ids only")
    ex.add_argument("--starred", action="store_true", help="only starred papers")
    ex.add_argument("--min-relevance", type=_relevance, metavar="N")
    ex.add_argument("--update", action="store_true",
                    help="update entries already in the file instead of skipping them")
    ex.add_argument("-o", "--output", metavar="FILE",
                    help="the .bib file (default: --bib, config bib_path, or papers.bib in the "
                         "data dir); - for stdout")

    cf = sub.add_parser("config", parents=[common], help="show or create the config file")
    grp = cf.add_mutually_exclusive_group(required=True)
    grp.add_argument("--path", action="store_true", help="print the resolved paths")
    grp.add_argument("--init", action="store_true", help="write a commented starter config")

    sub.add_parser("topics", parents=[common], help="list topics and where they come from")
    sub.add_parser("themes", parents=[common], help="list themes")
    return parser


def opt(ns: argparse.Namespace, name: str, default: Any = None) -> Any:
    return getattr(ns, name, default)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    ns = parser.parse_args(argv)
    try:
        return _dispatch(ns)
    except UserError as exc:
        print(f"paperterm: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print("paperterm: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # last line of defence: never a traceback in the user's face
        if os.environ.get("PAPERTERM_DEBUG"):
            raise
        print(f"paperterm: internal error: {type(exc).__name__}: {exc} "
              "(set PAPERTERM_DEBUG=1 for details, and please report it)", file=sys.stderr)
        return EXIT_ERROR


def _dispatch(ns: argparse.Namespace) -> int:
    from paperterm import commands

    command = ns.command or "tui"
    return getattr(commands, f"cmd_{command}")(ns)
