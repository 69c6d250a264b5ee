"""`paperterm` without a subcommand: load the day, then open the reader."""

from __future__ import annotations

import gc

from paperterm.cli.errors import UserError
from paperterm.cli.options import Options
from paperterm.cli.session import open_session


def no_terminal() -> str | None:
    """Which of stdin and stdout is not a terminal (the reader needs both), else None."""
    import sys

    missing = [name for name, stream in (("stdin", sys.stdin), ("stdout", sys.stdout))
               if stream is None or not stream.isatty()]
    return " and ".join(missing) or None


def run(opts: Options) -> int:
    # Start-up makes many objects and frees few: the garbage collector's passes over them
    # (a tenth of the time to first paint) wait until the list is on screen (the reader
    # turns it back on then; see PapertermApp.on_day_screen_ready).
    gc.disable()
    try:
        session = open_session(opts, defer_network=True)  # the reader paints before any fetch
        session = session.close()  # the reader opens its own connection, in its own thread
        missing = no_terminal()
        if missing:  # from cron or a pipe: the reader would never end and write escapes
            verb = "are not terminals" if " and " in missing else "is not one"
            raise UserError(f"the reader needs a terminal, and {missing} {verb}; without "
                            "one use a headless command: `paperterm score --json` (or "
                            "`digest`, `search`, `starred`)")
        from paperterm.tui.app import run_tui

        return run_tui(session)
    finally:
        gc.enable()


def builtin_theme_names() -> list[str]:
    """Textual's own themes, which the reader offers too (this module is the command line's
    one way into the reader, and only the reader imports Textual)."""
    from paperterm.tui.themes import builtin_theme_names as textual_themes

    return textual_themes()


def key_problems(keys: dict[str, str]) -> list[str]:
    """What the reader says at start about a [keys] table (unknown actions, bad key names,
    a binding a remapped key displaced), for `paperterm doctor`."""
    from paperterm.tui.bindings import keymap_problems

    return keymap_problems(keys)[1]
