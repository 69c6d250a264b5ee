"""Theme files (see `paperterm.theming`) turned into Textual themes."""

from __future__ import annotations

from textual.app import App
from textual.color import Color, ColorParseError
from textual.theme import Theme

from paperterm.config import Config
from paperterm.theming import DEFAULT_THEME, ThemeSpec, load_themes

SCORE_VARIABLES = ("score-high", "score-mid", "score-low")


def to_textual(spec: ThemeSpec) -> Theme:
    p = spec.palette
    for key, value in p.items():
        try:
            Color.parse(value)
        except ColorParseError as exc:  # pragma: no cover - theming validates hex already
            raise ValueError(f"{spec.source}: [palette] '{key}': {exc}") from None
    return Theme(
        name=spec.name,
        primary=p["primary"],
        secondary=p["secondary"],
        accent=p["accent"],
        background=p["background"],
        surface=p["surface"],
        panel=p["panel"],
        foreground=p["foreground"],
        success=p["success"],
        warning=p["warning"],
        error=p["error"],
        dark=spec.dark,
        variables={
            "score-high": p["score_high"],
            "score-mid": p["score_mid"],
            "score-low": p["score_low"],
            "footer-key-foreground": p["accent"],
        },
    )


def register_themes(app: App, config: Config | None) -> tuple[list[str], list[str]]:
    """Register every theme file with the app. Returns (our theme names, error notices)."""
    specs, errors = load_themes(config)
    names = []
    for spec in specs.values():
        try:
            app.register_theme(to_textual(spec))
        except Exception as exc:  # a theme must never crash the app
            errors.append(f"theme {spec.name!r} from {spec.source}: {exc}")
            continue
        names.append(spec.name)
    return sorted(names, key=lambda n: (n != DEFAULT_THEME, n)), errors


def score_defaults(theme: Theme) -> dict[str, str]:
    """Score colours for themes that do not define them (Textual's built-ins)."""
    return {
        "score-high": theme.success or "green",
        "score-mid": theme.warning or "yellow",
        "score-low": "#808080",
    }


def builtin_theme_names() -> list[str]:
    """Textual's own themes, which work in paperterm too."""
    from textual.theme import BUILTIN_THEMES

    return list(BUILTIN_THEMES)
