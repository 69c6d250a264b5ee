"""Colour themes as TOML files: the bundled ones and the user's own (no Textual here).

A theme file:

    name = "paperterm-dark"
    dark = true
    [palette]
    primary = "#5fafff"   # ... secondary, accent, background, surface, panel, foreground,
                          # success, warning, error, score_high, score_mid, score_low

Bundled themes live in the package's `themes/` folder (the repository's top-level `themes/`,
force-included into the wheel as `paperterm/themes`). User themes are `<config dir>/themes/*.toml`
and override bundled ones of the same name. The module is called `theming` so that it never
shadows that data folder.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from paperterm.settings import paths
from paperterm.settings.config import Config, ConfigError, read_toml

DEFAULT_THEME = "paperterm-dark"
PALETTE_KEYS = (
    "primary",
    "secondary",
    "accent",
    "background",
    "surface",
    "panel",
    "foreground",
    "success",
    "warning",
    "error",
    "score_high",
    "score_mid",
    "score_low",
)
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


class ThemeSpec(NamedTuple):
    name: str
    dark: bool
    palette: dict[str, str]
    source: str  # "built-in" or the file it came from


def builtin_theme_dir() -> Path | None:
    """The bundled themes: inside the installed package, else the source checkout's `themes/`."""
    packaged = Path(__file__).resolve().parents[1] / "themes"  # importlib.resources: slower
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[3] / "themes"
    return checkout if checkout.is_dir() else None


def user_theme_dir(config: Config | None) -> Path:
    if config is not None and config.path is not None:
        return config.path.parent / "themes"
    return paths.config_dir() / "themes"


def parse_theme(data: dict, origin: str, source: str, fallback_name: str) -> ThemeSpec:
    known = {"name", "dark", "palette"}
    unknown = set(data) - known
    if unknown:
        raise ConfigError(
            f"{origin}: unknown key(s) {sorted(unknown)} (known: dark, name, palette)"
        )
    name = data.get("name", fallback_name)
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{origin}: key 'name' expected a non-empty string")
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ConfigError(f"{origin}: key 'dark' expected true or false, got {dark!r}")
    palette = data.get("palette")
    if not isinstance(palette, dict):
        raise ConfigError(f"{origin}: a [palette] table is required")
    out: dict[str, str] = {}
    for key, value in palette.items():
        if key not in PALETTE_KEYS:
            raise ConfigError(
                f"{origin}: [palette] unknown colour '{key}' (known: {', '.join(PALETTE_KEYS)})"
            )
        if not isinstance(value, str) or not _HEX.match(value):
            raise ConfigError(
                f"{origin}: [palette] '{key}' expected a colour like \"#1e2030\", got {value!r}"
            )
        out[key] = value
    missing = [k for k in PALETTE_KEYS if k not in out]
    if missing:
        raise ConfigError(f"{origin}: [palette] is missing {', '.join(missing)}")
    return ThemeSpec(name=name.strip(), dark=dark, palette=out, source=source)


def load_theme_file(path: Path, source: str | None = None) -> ThemeSpec:
    """Parse one theme file; every problem is a ConfigError naming the file."""
    return parse_theme(read_toml(path), str(path), source or str(path), path.stem)


def load_themes(config: Config | None) -> tuple[dict[str, ThemeSpec], list[str]]:
    """All loadable themes (bundled, then the user's) and one message per broken file."""
    themes: dict[str, ThemeSpec] = {}
    errors: list[str] = []
    bundled = builtin_theme_dir()
    folders: list[tuple[Path | None, str | None]] = [(bundled, "built-in")] if bundled else []
    folders.append((user_theme_dir(config), None))
    for folder, source in folders:
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                spec = load_theme_file(path, source)
            except ConfigError as exc:
                errors.append(str(exc))
                continue
            themes[spec.name] = spec
    return themes, errors


def list_themes(config: Config | None) -> list[tuple[str, str]]:
    """(name, source) of every paperterm theme file that loads, sorted by name.

    Textual's own themes (textual-dark, nord, gruvbox, ...) are usable too; the TUI lists
    them in its theme cycle after these."""
    themes, _ = load_themes(config)
    return sorted((spec.name, spec.source) for spec in themes.values())
