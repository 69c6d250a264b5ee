"""Which colour theme the reader starts with, how it is set before the first paint, and the
order `T` cycles through the themes in. Helpers the app calls (it holds the theme)."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from textual.app import App
from textual.theme import BUILTIN_THEMES

from paperterm.day.session import Session
from paperterm.settings.reader_state import remembered_theme
from paperterm.settings.theming import DEFAULT_THEME
from paperterm.tui.compat import refresh_truecolor_filter


def cycle_order(ours: list[str], available: Container[str]) -> list[str]:
    """Theme names in the order T cycles through them: ours, then Textual's."""
    mine = [n for n in ours if n in available]
    builtin = sorted(n for n in BUILTIN_THEMES if n != "textual-ansi")
    return mine + [n for n in builtin if n not in mine]


def first_theme(app: App[Any], session: Session, ours: list[str],
                notices: list[tuple[str, str]]) -> str:
    """The theme to start with: `--theme`, else the one last chosen with T (unless its file
    is gone), else the config's; one not found is said in `notices` and the default used."""
    available = app.available_themes
    remembered = None if session.theme else remembered_theme(session.config.theme)
    if remembered is not None and remembered not in available:
        remembered = None  # a theme file since removed: the config's choice
    wanted = session.theme or remembered or session.config.theme or DEFAULT_THEME
    if wanted in available:
        return wanted
    notices.append((f"theme '{wanted}' not found; using {DEFAULT_THEME} "
                    f"(themes: {', '.join(cycle_order(ours, available))})", "warning"))
    return DEFAULT_THEME if DEFAULT_THEME in available else "textual-dark"


def start_with_theme(app: App[Any], name: str) -> None:
    """The first theme, set as Textual's watcher would, minus the full re-parse of the
    stylesheet it queues: the first parse, still to come, uses this theme's colours (the
    re-parse cost a twentieth of the time to first paint)."""
    app.set_reactive(App.theme, name)
    dark = app.current_theme.dark
    app.update_classes({f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark},
                       update=False)
    refresh_truecolor_filter(app)
    app.stylesheet.set_variables(app.get_css_variables())  # made for the default theme
