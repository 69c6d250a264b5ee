"""The argument parser: the shared options (what to load: `FLAGS`; settings: their
declarations in paperterm.settings), each subcommand with only the ones it uses, and the
subcommands' own options."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple, NoReturn, cast

from paperterm import __version__
from paperterm.outputs.exports import FORMATS as EXPORT_FORMATS
from paperterm.settings import Declared, every_setting, flags
from paperterm.settings.spec import LOADING, MODEL, READER, ConfigError


def _day(text: str, *, week: bool = False) -> date:
    """A date: YYYY-MM-DD, today or yesterday (`daynav.parse_day`, as the reader's `D`)."""
    from paperterm.services.dates import parse_date

    try:
        return parse_date(text, week=week)
    except (ValueError, OverflowError) as exc:  # (PAPERTERM_TODAY not a date, or at an end)
        raise argparse.ArgumentTypeError(str(exc)) from None


MAX_COUNT = 1_000_000  # the most any count option takes (SQLite and memory stay in range)


def _shown(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:20] + "...")


def _text(text: str) -> str:
    """Free text (a note, a tag, an id, a query): refused when it holds bytes that are no
    UTF-8 (Python hands them over as lone surrogates, which nothing can store or print)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(
            "expected text, got bytes that are not valid UTF-8") from None
    return text


def _file_name(text: str) -> str:
    """A file to write or read (`-`: stdout/stdin): never empty, which would fall back to
    the default file."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file name (or - for stdout), got ''")
    return _text(text)


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:  # (also a number of more than 4,300 digits)
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_shown(text)}") from None


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {_shown(text)}") from None


def _positive_int(text: str) -> int:
    value = _whole(text)
    if not 1 <= value <= MAX_COUNT:
        raise argparse.ArgumentTypeError(
            f"expected 1 to {MAX_COUNT:,}, got {_shown(text.strip())}")
    return value


def _relevance(text: str) -> int:
    value = _positive_int(text)
    if value > 10:
        raise argparse.ArgumentTypeError(f"expected 1-10, got {value}")
    return value


def _since(text: str) -> date:
    """A date, or `today`, `yesterday`, `week` (this week's Monday)."""
    return _day(text, week=True)


def _flag_type(d: Declared) -> Callable[[str], Any]:
    """Parse and check a flag's value the way the config file checks the same key."""
    convert: Callable[[str], Any] = {int: _whole, float: _number}.get(d.type, _text)
    if d.spec.complete == "file":
        def convert(text: str) -> Path:
            return Path(_file_name(text))

    if d.type is list and d.spec.parse is not None:
        return _list_flag(d)

    named = dict(d.spec.named)

    def parse(text: str) -> Any:
        if text in named:
            return named[text]
        value = convert(text)
        problem = None if d.spec.choices else d.problem(value)
        if problem:
            shown = text if len(text) <= 24 else text[:20] + "..."
            raise argparse.ArgumentTypeError(f"expected {problem}, got {shown}")
        return value

    parse.__name__ = d.type.__name__  # argparse names the type in some messages
    return parse


def _list_flag(d: Declared) -> Callable[[str], Any]:
    """A comma-separated flag of a list setting, checked by the setting's own parse (what
    the config refuses, the flag refuses); the text is kept as given."""

    def parse(text: str) -> str:
        items = [item.strip() for item in _text(text).split(",")]
        try:
            d.value(items, d.flag)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{d.flag}: ")) from None
        return text

    parse.__name__ = "list"
    return parse


class Flag(NamedTuple):
    """A shared command-line option that is no config setting (what to load, from where)."""

    flag: str
    commands: frozenset[str]
    help: str
    type: Callable[[str], Any] | None = None  # None: a switch
    metavar: str | None = None
    complete: str = ""
    source: bool = False  # one of the exclusive "which day" options
    cached_help: str = ""  # the help for the commands that read the cache only (no LOADING)

    def help_for(self, command: str) -> str:
        return self.cached_help if self.cached_help and command not in LOADING else self.help

    @property
    def dest(self) -> str:
        return self.flag[2:].replace("-", "_")


CONFIGURED = LOADING | MODEL | {"learn", "star", "unstar", "starred", "themes", "topics",
                                 "config", "completions", "eval"}
FLAGS = (
    Flag("--config", CONFIGURED, "config file (env PAPERTERM_CONFIG)", str, "FILE", "file"),
    Flag("--feed", LOADING, "load a saved arXiv RSS or Atom file", Path, "PATH", "file",
         source=True),
    Flag("--date", LOADING | {"eval"}, "a past announcement day (cache, else approximated via "
         "the arXiv API; also: today, yesterday)", _day, "YYYY-MM-DD", source=True,
         cached_help="the cached announcement day of --gold's picks (also: today, yesterday)"),
    Flag("--query", LOADING, "an arXiv search", _text, "TEXT", source=True),
    Flag("--sample", LOADING, "open the bundled sample day", source=True),
    Flag("--since", LOADING | {"search", "starred", "eval"}, "every day from this date "
         "on, with a day "
         "column; the 5 most recent missing days are fetched (also: today, yesterday, week)",
         _since, "YYYY-MM-DD", source=True,
         cached_help="only the cached days from this date on; nothing is fetched (also: "
                     "today, yesterday, week)"),
    Flag("--starred-since", frozenset({"starred"}), "only papers starred on or after this "
         "date (--since: announced on or after it; also: today, yesterday, week)", _since,
         "YYYY-MM-DD"),
    Flag("--offline", LOADING | {"search", "eval"}, "never touch the network (cache, else "
         "the sample day)", cached_help="accepted, and changes nothing: this command never "
         "touches the network (kept for scripts written for earlier versions)"),
    Flag("--refresh", LOADING, "fetch today's announcement again, even if fetched today"),
)
GROUPS = ("loading", "scoring", "bibtex and display")  # the help's groups, in order


def _add(target: Any, flag: Flag | Declared, **kwargs: Any) -> None:
    """Add one shared option; SUPPRESS so a subcommand never resets a value given before it.
    What shell completion offers for its value rides on the action (`complete`)."""
    action = target.add_argument(flag.flag, default=argparse.SUPPRESS, **kwargs)
    action.complete = flag.complete if isinstance(flag, Flag) else flag.spec.complete


def _setting_kwargs(d: Declared) -> dict[str, Any]:
    if d.type is bool:
        return {"action": "store_true", "help": d.spec.help or None}
    return {"type": _flag_type(d), "choices": list(d.spec.choices) or None,
            "metavar": d.spec.metavar, "help": d.spec.help or None}


def shared_options(command: str) -> argparse.ArgumentParser:
    """The shared options `command` ("tui": the reader) takes: FLAGS and declared settings."""
    p = argparse.ArgumentParser(add_help=False)
    groups = {name: p.add_argument_group(name) for name in GROUPS}
    mine = [f for f in FLAGS if command in f.commands]
    loading = groups["loading"]
    sources = loading.add_mutually_exclusive_group() if sum(f.source for f in mine) > 1 \
        else loading
    for f in mine:
        kind = {"action": "store_true"} if f.type is None else {"type": f.type,
                                                                 "metavar": f.metavar}
        _add(sources if f.source else loading, f, help=f.help_for(command), **kind)
    for d in flags(command):
        _add(groups.get(d.spec.group, p), d, **_setting_kwargs(d))
    return p


def accepted(command: str) -> set[str]:
    """The attributes of the shared options `command` takes."""
    return {f.dest for f in FLAGS if command in f.commands} | {d.dest for d in flags(command)}


def shared() -> dict[str, str]:
    """Every shared option's attribute -> its flag."""
    out = {f.dest: f.flag for f in FLAGS}
    out.update((d.dest, d.flag) for d in every_setting() if d.spec.commands)
    return out


class _Formatter(argparse.HelpFormatter):
    """Usage without the double spaces that hidden options leave behind."""

    def _format_usage(self, *args: Any, **kwargs: Any) -> str:
        return re.sub(r"(?<=\S)  +(?=\S)", " ", super()._format_usage(*args, **kwargs))




# what a command does instead of an option of others it does not take
INSTEAD = {("eval", "--model"): "it measures every model with cached scores for the topic, "
                                "one row each (`paperterm score --model M` caches a model's)"}


def not_taken(command: str, flags: Sequence[str]) -> str:
    """Options of paperterm that `command` does not take, said as one error line."""
    instead = INSTEAD.get((command, flags[0])) if len(flags) == 1 else None
    return (f"{', '.join(flags)}: {'not options' if len(flags) > 1 else 'not an option'} "
            f"of `paperterm {command}`" + (f": {instead}" if instead else ""))


def _error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """A refused value (`argument --date: no such date`) and an option of paperterm that
    the command does not take (`eval --model X`) are said alone, in one line; an unknown or
    missing argument keeps the usage, which lists what the command takes."""
    if message.startswith("argument ") or " of `paperterm " in message:
        parser.exit(2, f"{parser.prog}: error: {message}\n")
    argparse.ArgumentParser.error(parser, message)  # (exits)


def _options_of_others(command: str, extras: Sequence[str]) -> str | None:
    """`extras` said as options of paperterm that `command` does not take (None: one of
    them is no option of paperterm at all)."""
    every = set(shared().values())
    flags = [e.split("=", 1)[0] for e in extras if e.startswith("-")]
    if not flags or not set(flags) <= every:
        return None
    return not_taken(command, list(dict.fromkeys(flags)))


class _Parser(argparse.ArgumentParser):
    """`paperterm` itself: a shared option given before the subcommand must be one the
    subcommand takes (`paperterm --prefilter 0.3 summarize ID` is a usage error)."""

    def error(self, message: str) -> NoReturn:
        _error(self, message)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        ns, extras = super().parse_known_args(args, namespace)
        command = getattr(ns, "command", None)
        if command:
            every = shared()
            given = sorted(every[d] for d in vars(ns).keys() & every.keys() - accepted(command))
            if given:
                self.error(not_taken(command, given))
            sub = next(a for a in self._actions if isinstance(a, _Subcommands))
            if command == "search" and extras and not any(e.startswith("--") for e in extras):
                # query words after an option (`search experts --limit 5 -survey`)
                try:
                    ns.terms = [*ns.terms, *(_text(e) for e in extras)]
                except argparse.ArgumentTypeError as exc:
                    sub.choices[command].error(f"argument QUERY: {exc}")
                extras = []
            if extras:  # said with the subcommand's usage, which lists what it does take
                sub.choices[command].error(_options_of_others(command, extras)
                                           or f"unrecognized arguments: {' '.join(extras)}")
        return ns, extras


class _SearchParser(argparse.ArgumentParser):
    """`search`'s parser: a "-word" (an exclusion, or anything typed after one dash:
    `-"a phrase"`, `-(`) is a query word, never an option (`search experts -hessian`
    printed the help: argparse read it as `-h`; `-"survey"` was "unrecognized arguments").
    Only `-h` and the `--` options are options."""

    def error(self, message: str) -> NoReturn:
        _error(self, message)

    def _parse_optional(self, arg_string: str) -> Any:
        if (arg_string.startswith("-") and not arg_string.startswith("--")
                and arg_string not in self._option_string_actions):
            return None
        return super()._parse_optional(arg_string)


class _Listed:
    """The parser of a subcommand the command line does not name: never parsed, only its name
    and help are listed, so the options added to it go nowhere (building twenty parsers for
    nothing took 6 ms of the reader's start)."""

    def __init__(self, **kwargs: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return self._take

    def _take(self, *args: Any, **kwargs: Any) -> _Listed:
        return self


class _Subcommands(argparse._SubParsersAction):
    """Subcommands with the shared options each one takes. `wanted`: the subcommands that
    get them (None: all); the others are only listed, since a command line uses at most one
    (this saves a tenth of start-up)."""

    wanted: frozenset[str] | None = None

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        usual = self._parser_class
        if self.wanted is None or name in self.wanted:
            kwargs["parents"] = [shared_options(name)]
        else:
            self._parser_class = _Listed
        kwargs.setdefault("formatter_class", _Formatter)
        if name == "search" and self._parser_class is usual:
            self._parser_class = _SearchParser
        try:
            return super().add_parser(name, **kwargs)
        finally:
            self._parser_class = usual


def _file(action: argparse.Action) -> None:
    """Completion offers file names for this option's value."""
    action.complete = "file"  # type: ignore[attr-defined]


DOCS_EPILOG = """\
`paperterm COMMAND --help` shows one command's options.
Documentation: README.md and the docs/ folder of the paperterm source;
the man page: `paperterm manpage > ~/.local/share/man/man1/paperterm.1`."""


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line parser; given `argv`, complete only for the subcommands named in it
    (parsing `argv` gives the same result as with the complete parser)."""
    parser = _Parser(
        prog="paperterm",
        description="Triage the day's arXiv papers: score them against your topic, save to BibTeX.",
        parents=[shared_options(READER)],
        epilog=DOCS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"paperterm {__version__}")
    sub = cast(_Subcommands, parser.add_subparsers(dest="command", metavar="COMMAND",
                                                    action=_Subcommands))
    if argv is not None:
        assert isinstance(sub, _Subcommands)
        sub.wanted = frozenset(argv)

    sc = sub.add_parser("score", help="score the loaded day headless")
    sc.add_argument("--json", action="store_true", help="one JSON object per paper on stdout")
    sc.add_argument("--rescore", action="store_true",
                    help="ask the model again for every paper, ignoring cached scores "
                         "(costs tokens; --budget still applies)")
    sc.add_argument("--limit", type=_positive_int, default=0, metavar="N",
                    help="only the top N papers (default: all)")

    dg = sub.add_parser("digest", help="write the day's digest")
    dg.add_argument("--format", choices=["md", "json"], default="md")
    dg.add_argument("--min-relevance", type=_relevance, metavar="N")
    dg.add_argument("--all", dest="all_papers", action="store_true",
                    help="every paper with its whole abstract (default: the top papers, "
                         "config digest_max, abstracts trimmed)")
    _file(dg.add_argument("-o", "--output", metavar="FILE", type=_file_name,
                          help="write to FILE instead of stdout"))
    dg.add_argument("--send", action="store_true",
                    help="mail the digest and post it to the webhook set under [delivery]")
    dg.add_argument("--force", action="store_true",
                    help="with --send: send even if this day was already sent")
    dg.add_argument("--summaries", type=_positive_int, metavar="N",
                    help="add a 3-5 sentence summary to each of the top N papers (needs a model)")

    ex = sub.add_parser("export", help="save papers to a .bib file")
    ex.add_argument("--ids", nargs="+", metavar="ID", type=_text, help="these arXiv ids only")
    ex.add_argument("--starred", action="store_true",
                    help="starred papers of every day (with a --feed/--date/...: of that day)")
    ex.add_argument("--day", type=_day, metavar="YYYY-MM-DD",
                    help="cached papers announced that day: with --all, or narrowing "
                         "--starred/--tag")
    ex.add_argument("--all", dest="whole_day", action="store_true",
                    help="every paper of the day (--day, or the one loaded); not marked saved")
    ex.add_argument("--tag", metavar="TAG", type=_text, help="papers with this tag, any day")
    ex.add_argument("--notes", action="store_true",
                    help="write your notes as `note` and your tags as `keywords`")
    ex.add_argument("--min-relevance", type=_relevance, metavar="N")
    ex.add_argument("--update", action="store_true",
                    help="update entries already in the file instead of skipping them")
    _file(ex.add_argument("-o", "--output", metavar="FILE", type=_file_name,
                    help="the .bib file (default: --bib, config bib_path, or papers.bib in the "
                         "data dir); - for stdout"))
    ex.add_argument("--format", choices=list(EXPORT_FORMATS), default="bibtex",
                    help="bibtex (merged into the .bib file), ris, csl-json, csv (to -o FILE, "
                         "else stdout) or markdown (one note per paper in -o DIR, default "
                         "notes/ in the data dir; one file with -o FILE.md)")

    cf = sub.add_parser("config", help="show or create the config file")
    grp = cf.add_mutually_exclusive_group()
    grp.add_argument("--path", action="store_true",
                     help="print the resolved paths (the default)")
    grp.add_argument("--init", action="store_true", help="write a commented starter config")

    for name, verb in (("star", "star"), ("unstar", "unstar")):
        st = sub.add_parser(name, help=f"{verb} cached papers by arXiv id" + (
            " (--topic: the topic whose ranking the stars teach; default: the config's)"
            if name == "star" else ""))
        st.add_argument("ids", nargs="+", metavar="ID", type=_text)

    se = sub.add_parser("search", help="search every cached paper, offline")
    se.add_argument("terms", nargs="+", metavar="QUERY", type=_text,
                    help='words (stemmed; papers with all of them first, then those with '
                         'most of them), "a phrase", prefix*, -word, OR, '
                         "title:/author:/abstract:/note:/tag:")
    se.add_argument("--json", action="store_true", help="a JSON array of results")
    se.add_argument("--limit", type=_positive_int, default=20, metavar="N",
                    help="at most N results (default 20)")
    se.add_argument("--starred", action="store_true", help="only starred papers")
    se.add_argument("--tag", metavar="TAG", type=_text, help="only papers with this tag")

    sr = sub.add_parser("starred", help="the reading list: starred papers of every day, "
                        "newest first (--topic T: the stars given under T)")
    sr.add_argument("--json", action="store_true", help="a JSON array of papers")

    ev = sub.add_parser("eval", help="how well each scorer (keywords, the local blend, the "
                        "learned ranking, each LLM with cached scores) ranks the papers you "
                        "picked, per day: is the LLM worth its money?")
    ev.add_argument("--json", action="store_true",
                    help="a JSON array, one object per scorer (scorer, days, picks, "
                         "in_top_2x, precision_at_10, ndcg_at_20)")
    ev.add_argument("--curve", action="store_true",
                    help="the learned ranking's learning curve: your picks within the top 2x "
                         "after your first 5, 10, 20, 40 ... marks, on the days after them, "
                         "and with all of them")
    _file(ev.add_argument("--gold", metavar="FILE",
                          help="with --date: that day's picks from FILE (JSON lines with an "
                               "`id` field, or one id per line) instead of your labels"))
    ev.epilog = ("--topic T: the topic (default: the config's); --since DATE: only the "
                 "cached days from DATE on (eval fetches nothing); --date D: the day of "
                 "--gold's picks. Labels: stars, papers saved one by one, `paperterm learn`")

    nt = sub.add_parser("note", help="show or set a paper's note and tags")
    nt.add_argument("ids", nargs=1, metavar="ID", type=_text)
    nt.add_argument("--set", dest="note_text", metavar="TEXT", type=_text,
                    help="replace the note ('' deletes it; - reads stdin)")
    nt.add_argument("--tags", dest="tag_list", metavar="TAGS", type=_text,
                    help="replace the tags (comma-separated; '' removes them)")

    lb = sub.add_parser("library",
                        help="export or import stars, seen, saved, notes and tags (JSON)")
    lb.add_argument("library_action", choices=["export", "import"], metavar="export|import")
    lb.add_argument("file", metavar="FILE", type=_file_name,
                    help="the JSON file (- for stdout/stdin)")

    sm = sub.add_parser("summarize",
                        help="3-5 sentence summaries of cached papers (needs a model)")
    sm.add_argument("ids", nargs="+", metavar="ID", type=_text)
    sm.add_argument("--json", action="store_true", help="one JSON object per paper on stdout")

    dr = sub.add_parser("doctor",
                        help="check config, data, database, model, terminal; say how to fix")
    dr.add_argument("--no-request", action="store_true",
                    help="skip the tiny test request to the model")

    tp = sub.add_parser("topics", help="list topics and where they come from; show how one "
                        "is understood (show); write one from a text (new)")
    tp.add_argument("topics_action", nargs="?", choices=["show", "new"], metavar="show|new",
                    help="show NAME|TEXT: how a topic (or a free text) is understood and the "
                         "top 10 of the latest cached day; new NAME --from-text FILE|-: write "
                         "a topic file from a text, after showing how it was understood")
    tp.add_argument("topic_text", nargs="?", metavar="NAME|TEXT", type=_text,
                    help="a topic's name, or a free text in quotes (show); the new topic's "
                         "name (new)")
    _file(tp.add_argument("--from-text", metavar="FILE", type=_file_name,
                          help="new: the topic in your words, from FILE (- for stdin): "
                               "criteria, prose, keywords or one line"))
    sub.add_parser("themes", help="list themes")

    zo = sub.add_parser("zotero",
                        help="send papers to Zotero: the running desktop app (its local "
                             "connector) or your zotero.org web library")
    zo.add_argument("--ids", nargs="+", metavar="ID", type=_text, help="these arXiv ids only")
    zo.add_argument("--starred", action="store_true", help="only starred papers")
    zo.add_argument("--min-relevance", type=_relevance, metavar="N")
    zo.add_argument("--collection", metavar="NAME", type=_text,
                    help="the Zotero collection to file them in (default: [zotero] collection, "
                         "else the selected one / the library root)")
    where = zo.add_mutually_exclusive_group()
    where.add_argument("--web", action="store_true",
                       help="to the zotero.org library set under [zotero] (key: ZOTERO_API_KEY)")
    where.add_argument("--desktop", action="store_true",
                       help="to the running Zotero app (the default unless [zotero] send_to)")
    zo.add_argument("--resend", action="store_true",
                    help="send papers already sent to that library again (by default each "
                         "paper goes to a library once)")

    le = sub.add_parser("learn",
                        help="record the arXiv papers you keep (Zotero web library, a .bib) "
                             "as positives for ranking a topic (--topic, default: the "
                             "config's)")
    le.add_argument("--zotero", action="store_true",
                    help="the zotero.org library set under [zotero] (key: ZOTERO_API_KEY)")
    le.epilog = "--bib FILE: a .bib file's arXiv entries (eprint, arXiv DOI, arxiv.org URL)"

    en = sub.add_parser("enrich",
                        help="add Hugging Face upvotes, Semantic Scholar citations and code "
                             "links to the loaded day (cached; online parts skip --offline)")
    en.add_argument("--source", dest="enrich_sources", metavar="SOURCES",
                    help="comma-separated, some of links,hf,s2 (default: config `enrich`, "
                         "else all)")
    en.add_argument("--force", action="store_true", help="ask again even if cached lately")
    en.add_argument("--json", action="store_true", help="one JSON object per paper on stdout")

    co = sub.add_parser("completions",
                        help="print a shell completion script (bash, zsh or fish)")
    co.add_argument("shell", nargs="?", choices=["bash", "zsh", "fish"],
                    help="e.g. `paperterm completions bash > ~/.local/share/bash-completion/"
                         "completions/paperterm`")
    co.add_argument("--names", choices=["topics", "themes"], help=argparse.SUPPRESS)
    sub.add_parser("manpage", help="print the man page (roff), e.g. `paperterm manpage > "
                                   "~/.local/share/man/man1/paperterm.1`")
    return parser
