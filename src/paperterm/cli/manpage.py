"""`paperterm manpage`: the man page (roff), made from the argument parser itself, as the
completions are (`completion_spec`), so it never drifts from the real commands and flags.

    paperterm manpage > ~/.local/share/man/man1/paperterm.1 && man paperterm
"""

from __future__ import annotations

import sys

from paperterm import __version__
from paperterm.cli.completion_spec import CommandSpec, OptionSpec
from paperterm.cli.errors import EXIT_OK
from paperterm.cli.options import Options
from paperterm.io.env import ENV_VARS


def _roff(text: str) -> str:
    """Plain text safe in roff: backslashes and hyphens escaped, no line starting with a
    control character."""
    text = " ".join(text.split()).replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in ".'" else text


def _flag(option: OptionSpec) -> str:
    metavar = " \\fI" + (f"{{{','.join(option.choices)}}}" if option.choices
                         else option.value.upper() if option.value else "VALUE") + "\\fR"
    flags = ", ".join(f"\\fB{_roff(f)}\\fR" for f in option.flags)
    return flags + (_roff_meta(metavar) if option.takes_value else "")


def _roff_meta(metavar: str) -> str:
    return metavar.replace("-", "\\-")


def _options(options: tuple[OptionSpec, ...]) -> list[str]:
    out: list[str] = []
    for option in options:
        if option.flags[0] in ("-h", "--help"):
            continue
        out += [".TP", _flag(option), _roff(option.help or "")]
    return out


def render(specs: list[CommandSpec]) -> str:
    """The man page of `paperterm` and every subcommand in `specs` (`command_specs`)."""
    top, commands = specs[0], specs[1:]
    out = [f'.TH PAPERTERM 1 "" "paperterm {__version__}" "User Commands"',
           ".SH NAME", f"paperterm \\- {_roff(top.help)}",
           ".SH SYNOPSIS",
           "\\fBpaperterm\\fR [\\fIOPTIONS\\fR]",
           ".br",
           "\\fBpaperterm\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR]",
           ".SH DESCRIPTION",
           _roff("Without a command, paperterm opens the reader on the day's announcement; "
                 "each command runs headless. `paperterm COMMAND --help` lists a command's "
                 "options."),
           ".SH OPTIONS", *_options(top.options),
           ".SH COMMANDS"]
    for command in commands:
        out += [".SS " + _roff(command.name), _roff(command.help)]
        if command.positional:
            out += [".TP", "\\fI" + _roff("|".join(command.positional)) + "\\fR",
                    "one of these, as the first argument"]
        out += _options(command.options)
    out += [".SH ENVIRONMENT"]
    for var in ENV_VARS:
        out += [".TP", f"\\fB{_roff(var.name)}\\fR", _roff(var.help)]
    out += [".SH SEE ALSO",
            _roff("The README and the docs/ folder of the paperterm source: the reader's "
                  "keys, the headless commands and their JSON, the configuration reference. "
                  "`paperterm completions bash|zsh|fish` prints shell completions.")]
    return "\n".join(out) + "\n"


def run(opts: Options) -> int:
    from paperterm.cli.completion_spec import command_specs
    from paperterm.cli.parser import build_parser

    del opts
    sys.stdout.write(render(command_specs(build_parser())))
    return EXIT_OK
