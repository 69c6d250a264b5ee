"""Theme files (see `paperterm.theming`) turned into Textual themes."""

from __future__ import annotations

from textual.app import App
from textual.color import Color, ColorParseError
from textual.theme import Theme

from paperterm.config import Config
from paperterm.theming import DEFAULT_THEME, ThemeSpec, load_themes


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
    """Score colours for themes that do not define them (Textual's built-ins), and the
    cursor row's colours (computed for every theme: readable in truecolor and 256 colours)."""
    background, foreground = cursor_colours(theme)
    return {
        "score-high": theme.success or "green",
        "score-mid": theme.warning or "yellow",
        "score-low": "#808080",
        "cursor-background": background,
        "cursor-foreground": foreground,
    }


MIN_CONTRAST = 4.5  # WCAG AA for normal text
_TINTS = (0.45, 0.35, 0.55, 0.25, 0.65, 0.15, 0.8)  # primary over the background, best first


def luminance(c: Color) -> float:
    """WCAG relative luminance."""
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)


def contrast(a: Color, b: Color) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def as_256(c: Color) -> Color:
    """The colour a 256-colour terminal shows for `c` (Rich's downgrade)."""
    from rich.color import Color as RichColor
    from rich.color import ColorSystem

    t = RichColor.from_rgb(c.r, c.g, c.b).downgrade(ColorSystem.EIGHT_BIT).get_truecolor()
    return Color(t.red, t.green, t.blue)


def readable(fg: Color, bg: Color) -> bool:
    """At least MIN_CONTRAST in truecolor and once both are reduced to 256 colours."""
    return min(contrast(fg, bg), contrast(as_256(fg), as_256(bg))) >= MIN_CONTRAST


def cursor_colours(theme: Theme) -> tuple[str, str]:
    """(background, foreground) of the cursor row: a tint of the primary colour that stays
    visible in 256 colours, with whichever text colour reads at MIN_CONTRAST on it."""
    base = Color.parse(theme.background or ("#000000" if theme.dark else "#ffffff"))
    primary = Color.parse(theme.primary)
    texts = [Color.parse(theme.foreground or ("#ffffff" if theme.dark else "#000000")), base,
             Color(255, 255, 255), Color(0, 0, 0)]
    for tint in _TINTS:
        bg = base.blend(primary, tint)
        if as_256(bg) == as_256(base):  # the tint would vanish in 256 colours
            continue
        for fg in texts:
            if readable(fg, bg):
                return bg.hex, fg.hex
    fallback = ("#ffffff", "#000000") if not theme.dark else ("#000000", "#ffffff")
    return fallback


def builtin_theme_names() -> list[str]:
    """Textual's own themes, which work in paperterm too."""
    from textual.theme import BUILTIN_THEMES

    return list(BUILTIN_THEMES)
