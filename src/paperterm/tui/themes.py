"""Theme files (see `paperterm.settings.theming`) turned into Textual themes."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from textual.app import App
from textual.color import Color, ColorParseError
from textual.theme import Theme

from paperterm.settings.config import Config
from paperterm.settings.theming import DEFAULT_THEME, ThemeSpec, load_themes


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
    reader's own text colours as the theme has them (`readable_variables` makes them
    readable where it can)."""
    if theme.ansi:  # the terminal's own colours: text in its default colour, whatever it is
        plain = "ansi_default"
        return {name: plain for name in (
            "score-high", "score-mid", "score-low", "pt-text", "pt-muted", "pt-accent",
            "pt-star", "pt-saved", "pt-error", "cursor-background", "cursor-foreground",
            "pt-blurred", "pt-marked", "pt-placeholder", "pt-unchecked", "pt-on-primary",
            "pt-primary-button")
        } | {"cursor-text-style": "bold reverse"}
    foreground = theme.foreground or "ansi_default"
    return {
        "cursor-text-style": "bold",
        "pt-blurred": theme.primary,
        "pt-marked": theme.accent or theme.primary,
        "score-high": theme.success or "green",
        "score-mid": theme.warning or "yellow",
        "score-low": "#808080",
        "pt-text": foreground,
        "pt-muted": foreground,
        "pt-placeholder": foreground,
        "pt-unchecked": foreground,
        "pt-on-primary": theme.background or foreground,
        "pt-primary-button": theme.primary,
        "pt-accent": theme.accent or foreground,
        "pt-star": theme.warning or "yellow",
        "pt-saved": theme.success or "green",
        "pt-error": theme.error or "red",
        "cursor-background": theme.primary,
        "cursor-foreground": theme.background or foreground,
    }


MIN_CONTRAST = 4.5  # WCAG AA for normal text
_WHITE, _BLACK = Color(255, 255, 255), Color(0, 0, 0)
_TINTS = (0.45, 0.35, 0.55, 0.25, 0.65, 0.15, 0.8)  # primary over the background, best first


def _linear(v: int) -> float:
    x = v / 255
    return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4


_LINEAR = tuple(_linear(v) for v in range(256))  # per channel value: worked out once


def luminance(c: Color) -> float:
    """WCAG relative luminance."""
    return _luminance(c.r, c.g, c.b)


def _luminance(r: int, g: int, b: int) -> float:
    return 0.2126 * _LINEAR[r] + 0.7152 * _LINEAR[g] + 0.0722 * _LINEAR[b]


def _ratio(la: float, lb: float) -> float:
    return (la + 0.05) / (lb + 0.05) if la >= lb else (lb + 0.05) / (la + 0.05)


def contrast(a: Color, b: Color) -> float:
    return _ratio(luminance(a), luminance(b))


def as_256(c: Color) -> Color:
    """The colour a 256-colour terminal shows for `c` (Rich's downgrade)."""
    return Color(*_as_256(c.r, c.g, c.b))


@lru_cache(maxsize=4096)
def _as_256(r: int, g: int, b: int) -> tuple[int, int, int]:
    from rich.color import Color as RichColor
    from rich.color import ColorSystem

    t = RichColor.from_rgb(r, g, b).downgrade(ColorSystem.EIGHT_BIT).get_truecolor()
    return t.red, t.green, t.blue


def readable(fg: Color, bg: Color) -> bool:
    """At least MIN_CONTRAST in truecolor and once both are reduced to 256 colours."""
    return _readable(fg.rgb, bg.rgb)


@lru_cache(maxsize=16384)
def _readable(fg: tuple[int, int, int], bg: tuple[int, int, int]) -> bool:
    # on plain tuples, the 256 colours only when truecolor reads (a theme's colours are
    # worked out before its first paint: hundreds of pairs)
    if _ratio(_luminance(*fg), _luminance(*bg)) < MIN_CONTRAST:
        return False
    return _ratio(_luminance(*_as_256(*fg)), _luminance(*_as_256(*bg))) >= MIN_CONTRAST


def cursor_colours(base: Color, primary: Color, foreground: Color,
                   dark: bool) -> tuple[str, str]:
    """(background, foreground) of the cursor row: a tint of the primary colour that stays
    visible in 256 colours, with whichever text colour reads at MIN_CONTRAST on it."""
    texts = [foreground, base, _WHITE, _BLACK]
    for tint in _TINTS:
        bg = base.blend(primary, tint)
        if as_256(bg) == as_256(base):  # the tint would vanish in 256 colours
            continue
        for fg in texts:
            if readable(fg, bg):
                return bg.hex, fg.hex
    fallback = ("#ffffff", "#000000") if not dark else ("#000000", "#ffffff")
    return fallback


def on_colour(colour: Color, *texts: Color) -> tuple[Color, Color]:
    """(background, text) for a label on `colour` (a primary button): the first of `texts`,
    white or black that reads on it, else on `colour` darkened or lightened the least."""
    for shift in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5):
        for toward in (_BLACK, _WHITE):
            bg = colour.blend(toward, shift)
            for fg in (*texts, _WHITE, _BLACK):
                if readable(fg, bg):
                    return bg, fg
    return _BLACK, _WHITE


def readable_on(fg: Color, backgrounds: Sequence[Color]) -> Color:
    """`fg`, or the least change of it towards white or black (whichever the first
    background contrasts more with) that reads on every one of `backgrounds`."""
    if all(readable(fg, bg) for bg in backgrounds):
        return fg
    first = backgrounds[0]
    target = _WHITE if contrast(_WHITE, first) >= contrast(_BLACK, first) else _BLACK
    for step in range(1, 21):
        shade = fg.blend(target, step / 20)
        if all(readable(shade, bg) for bg in backgrounds):
            return shade
    return target


def muted_on(fg: Color, backgrounds: Sequence[Color]) -> Color:
    """A quieter text colour than `fg` (for authors, categories, provisional scores) that
    still reads on every one of `backgrounds`: as far towards the first as that allows."""
    base = backgrounds[0]
    for step in range(10, -1, -1):  # 50% of the way to the background, then less
        shade = fg.blend(base, step / 20)
        if all(readable(shade, bg) for bg in backgrounds):
            return shade
    return readable_on(fg, backgrounds)


def visible_tint(base: Color, colour: Color, amount: float) -> Color:
    """`base` tinted with `colour` (by `amount`, or more where 256 colours would show no
    difference from `base`)."""
    for extra in (0.0, 0.1, 0.2, 0.3):
        tint = base.blend(colour, amount + extra)
        if as_256(tint) != as_256(base):
            return tint
    return base.blend(colour, amount)


def _parse(value: str | None) -> Color | None:
    """A variable's colour; None for a terminal (ANSI) colour or a non-colour value: the
    terminal's own palette decides how those look."""
    if not value:
        return None
    try:
        color = Color.parse(value)
    except ColorParseError:
        return None
    return None if color.ansi is not None or color.a < 1 else color


def readable_variables(variables: dict[str, str], dark: bool) -> dict[str, str]:
    """See `_readable_variables` (worked out once per theme)."""
    return dict(_readable_variables(tuple(sorted(variables.items())), dark))


@lru_cache(maxsize=64)
def _readable_variables(items: tuple[tuple[str, str], ...],
                        dark: bool) -> tuple[tuple[str, str], ...]:
    return tuple(_work_out_readable(dict(items), dark).items())


def _work_out_readable(variables: dict[str, str], dark: bool) -> dict[str, str]:
    """The theme's text colours made to read at MIN_CONTRAST, in truecolor and in 256
    colours, on the backgrounds they are drawn on; added variables for the reader's own
    parts: `pt-text`, `pt-muted` (quieter, never brighter than the text), `pt-star`,
    `pt-saved`, `pt-error`, `pt-accent`, `pt-placeholder`, `pt-unchecked`, `pt-on-primary`
    on `pt-primary-button`, the cursor row's colours. A theme of terminal (ANSI) colours
    is left as it is."""
    get = variables.get
    background, surface, panel = (_parse(get(k)) for k in ("background", "surface", "panel"))
    foreground, primary, accent = (_parse(get(k)) for k in ("foreground", "primary", "accent"))
    if None in (background, surface, panel, foreground, primary, accent):
        return {}
    assert background and surface and panel and foreground and primary and accent
    blurred = visible_tint(background, primary, 0.2)  # the cursor row, the preview focused
    marked = visible_tint(background, accent, 0.18)  # a row marked with x
    rows = [background, blurred, marked, marked.blend(primary, 0.2)]
    texts = [*rows, surface, panel]
    toast = _parse(get("panel-lighten-1")) or panel
    out: dict[str, Color] = {
        "pt-blurred": blurred, "pt-marked": marked,  # opaque: a Rich style has no alpha
        "foreground": readable_on(foreground, [background, surface, panel, toast]),
        "pt-text": readable_on(foreground, texts),
        "pt-accent": readable_on(accent, [surface, panel]),
    }
    # quiet cells of plain rows, the column titles, the preview (a marked row or the cursor
    # draws them in the text colour: its tint is light enough in 256 colours to need it)
    out["pt-muted"] = muted_on(out["pt-text"], [background, surface])
    # dialogs: an input's placeholder (on the input, tinted when focused), an unchecked
    # box's X (quiet, yet readable: a checked one is in the success colour), a button's
    # label on the primary colour
    tinted = [surface, surface.blend(foreground, 0.05), panel, panel.blend(foreground, 0.05),
              background, *filter(None, [_parse(get("panel-darken-1"))])]
    out["pt-placeholder"] = muted_on(out["pt-text"], tinted)
    out["pt-unchecked"] = muted_on(out["pt-text"], [panel, *tinted])
    out["pt-primary-button"], out["pt-on-primary"] = on_colour(primary, foreground, background)
    for name, source in (("score-high", "score-high"), ("score-mid", "score-mid"),
                         ("score-low", "score-low"), ("pt-star", "warning"),
                         ("pt-saved", "success"), ("pt-error", "error")):
        color = _parse(get(source))
        if color is not None:
            out[name] = readable_on(color, rows)
    footer = _parse(get("footer-background"))
    if footer is not None:
        for name in ("footer-key-foreground", "footer-description-foreground"):
            color = _parse(get(name))
            if color is not None:
                out[name] = readable_on(color, [footer])
    for name, source in (("text-success", "success"), ("text-warning", "warning"),
                         ("text-error", "error")):
        color = _parse(get(source))
        if color is not None:
            out[name] = readable_on(color, [toast, surface, panel])
    cursor_bg, cursor_fg = cursor_colours(background, primary, foreground, dark)
    return {**{k: c.hex for k, c in out.items()},
            "cursor-background": cursor_bg, "cursor-foreground": cursor_fg}


def builtin_theme_names() -> list[str]:
    """Textual's own themes, which work in paperterm too."""
    from textual.theme import BUILTIN_THEMES

    return list(BUILTIN_THEMES)
