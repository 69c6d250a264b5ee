"""`paperterm themes`: our themes, the user's and Textual's built-in ones; then every theme
file that does not load, with the reason."""

from __future__ import annotations

from paperterm.cli.errors import EXIT_OK
from paperterm.cli.options import Options
from paperterm.cli.session import load_user_config


def run(opts: Options) -> int:
    from paperterm.cli.reader import builtin_theme_names
    from paperterm.settings.reader_state import remembered_theme
    from paperterm.settings.theming import load_themes

    config = load_user_config(opts)
    current = opts.theme or config.theme
    themes, broken = load_themes(config)
    ours = sorted((spec.name, spec.source) for spec in themes.values())
    names = {name for name, _ in ours}
    builtin = [(name, "textual built-in") for name in builtin_theme_names() if name not in names]
    listed = {name for name, _ in [*ours, *builtin]}
    # the reader opens `--theme`, else the one last chosen with T, else the config's
    chosen = None if opts.theme else remembered_theme(config.theme)
    chosen = chosen if chosen in listed and chosen != current else None
    for name, source in [*ours, *builtin]:
        mark = "T" if name == chosen else "*" if name == current else " "
        print(f"{mark} {name:<24} {source}")
    if chosen is not None:
        print(f"* the config's theme ({current}); T the one chosen with T in the reader "
              f"({chosen}), which the reader opens until you pick another or the config's "
              "theme changes")
    for problem in broken:  # each names its file and what is wrong
        print(f"! broken: {problem}")
    return EXIT_OK
