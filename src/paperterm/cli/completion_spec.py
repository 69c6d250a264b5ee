"""What shell completion needs to know, read from the argument parser itself (so the scripts
never drift from the real flags): the commands, each one's options, and what an option's
value is (a file, a topic, a theme, one of some choices, or free text: the `complete` of its
declaration, which the parser puts on the option)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass


@dataclass(frozen=True)
class OptionSpec:
    flags: tuple[str, ...]  # e.g. ("-o", "--output")
    help: str
    takes_value: bool
    value: str  # "file" | "topics" | "themes" | "choices" | "text" | "" (no value)
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class CommandSpec:
    name: str  # "" for paperterm itself
    help: str
    options: tuple[OptionSpec, ...]
    positional: tuple[str, ...] = ()  # choices of a positional argument, if any


def _option(action: argparse.Action) -> OptionSpec | None:
    if not action.option_strings or action.help == argparse.SUPPRESS:
        return None
    flags = tuple(action.option_strings)
    takes = action.nargs != 0
    choices = tuple(str(c) for c in action.choices or ())
    if not takes:
        kind = ""
    elif choices:
        kind = "choices"
    else:  # "topics" and "themes" are asked of paperterm (`completions --names KIND`)
        kind = getattr(action, "complete", "") or "text"
    help_text = (action.help or "").split(" (")[0].replace("%%", "%")
    return OptionSpec(flags, help_text, takes, kind, choices)


def _command(name: str, help_text: str, parser: argparse.ArgumentParser) -> CommandSpec:
    options = tuple(o for o in map(_option, parser._actions) if o is not None)
    positional: tuple[str, ...] = ()
    for action in parser._actions:
        if not action.option_strings and action.choices and not isinstance(
                action, argparse._SubParsersAction):
            positional = tuple(str(c) for c in action.choices)
    return CommandSpec(name, help_text, options, positional)


def command_specs(parser: argparse.ArgumentParser) -> list[CommandSpec]:
    """paperterm itself first, then every subcommand in the order the parser lists them."""
    out = [_command("", parser.description or "", parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                out.append(_command(name, helps.get(name, ""), sub))
    return out


def value_options(specs: list[CommandSpec]) -> list[str]:
    """Every flag that takes a value, over all commands (to skip values when scanning)."""
    return sorted({f for c in specs for o in c.options if o.takes_value for f in o.flags})
