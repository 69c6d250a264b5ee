"""`paperterm completions bash|zsh|fish`: a completion script made from the parser itself.

`--names topics|themes` (hidden) prints the names the scripts complete, one a line."""

from __future__ import annotations

import sys

from paperterm.cli.errors import EXIT_OK, EXIT_USAGE, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import load_user_config


def run(opts: Options) -> int:
    if opts.names:
        return _names(opts)
    if not opts.shell:
        raise UserError("which shell? paperterm completions bash|zsh|fish", EXIT_USAGE)
    from paperterm.cli.completion_scripts import RENDERERS
    from paperterm.cli.completion_spec import command_specs
    from paperterm.cli.parser import build_parser

    sys.stdout.write(RENDERERS[opts.shell](command_specs(build_parser())))
    return EXIT_OK


def _names(opts: Options) -> int:
    """Topic or theme names; a broken config completes the built-in ones, silently."""
    from paperterm.settings.config import Config, ConfigError

    try:
        config = load_user_config(opts)
    except (UserError, ConfigError):
        config = Config()
    if opts.names == "topics":
        from paperterm.topics import all_topics, builtin_topics

        try:
            names = sorted(all_topics(config))
        except ConfigError:
            names = sorted(builtin_topics())
    else:
        from paperterm.settings.theming import list_themes

        names = [name for name, _ in list_themes(config)]
        try:
            from paperterm.cli.reader import builtin_theme_names

            names += [n for n in builtin_theme_names() if n not in names]
        except Exception:  # Textual's names are a bonus, never a failure
            pass
    sys.stdout.write("".join(f"{n}\n" for n in names))
    return EXIT_OK
