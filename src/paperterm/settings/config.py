"""Config file: loading, strict validation and the starter file, all from the declarations
in `paperterm.settings` (this module lists no setting)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperterm.settings import (
    WEBHOOK_FORMATS,
    ZOTERO_LIBRARY_TYPES,
    ZOTERO_TARGETS,
    BibtexConfig,
    Config,
    ConfigError,
    Declared,
    DeliveryConfig,
    ZoteroConfig,
    language_problem,
    paths,
    tomlread,
)
from paperterm.settings.spec import declared, sections, toml_value

__all__ = [
    "WEBHOOK_FORMATS",
    "ZOTERO_LIBRARY_TYPES",
    "ZOTERO_TARGETS",
    "BibtexConfig",
    "Config",
    "ConfigError",
    "DeliveryConfig",
    "ZoteroConfig",
    "init_config",
    "language_problem",
    "load_config",
    "parse_config",
    "read_toml",
]


def _read_regular(path: Path) -> bytes:
    """The bytes of `path`, refusing a FIFO, device or directory: it is opened without
    blocking and checked before reading (reading a FIFO or /dev/zero never ends)."""
    import os

    from paperterm.io import limits
    from paperterm.io.atomic import not_regular

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        what = not_regular(os.fstat(fd))
        if what is not None:
            raise ConfigError(f"{path}: is {what}, not a regular file")
        try:
            return limits.read_fd(fd, str(path), limits.MAX_TEXT_FILE)
        except (limits.InputTooLarge, limits.InputTooSlow) as exc:
            raise ConfigError(str(exc)) from None
    finally:
        os.close(fd)


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file, turning every failure into a ConfigError naming the file."""
    try:
        text = _read_regular(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return tomlread.loads(text)
    except tomlread.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def _keys(obj: Any) -> dict[str, tuple[Any, Declared | None]]:
    """A table's keys: the object each one is set on and its declaration (None: a table)."""
    out: dict[str, tuple[Any, Declared | None]] = {
        d.name: (obj, d) for d in declared(type(obj))}
    for name, _, _, inline in sections(type(obj)):
        if inline:
            out.update(_keys(getattr(obj, name)))
        else:
            out[name] = (obj, None)
    return out


def _fill(obj: Any, data: dict[str, Any], origin: str, table: str = "") -> None:
    """Set every key of the TOML table `data` on `obj`, checked by its declaration."""
    keys = _keys(obj)
    head = f"{origin}: [{table}]" if table else origin
    for key, value in data.items():
        if key not in keys:
            known = (f"known: {', '.join(keys)}" if table
                     else f"known keys: {', '.join(sorted(keys))}")
            raise ConfigError(f"{head}: unknown key '{key}' ({known})")
        owner, d = keys[key]
        if d is not None:
            setattr(owner, key, d.value(value, f"{head}{' ' if table else ': '}key '{key}'"))
        elif isinstance(value, dict):
            _fill(getattr(owner, key), value, origin, key)
        else:
            raise ConfigError(f"{origin}: [{key}]: expected a table")


def parse_config(data: dict[str, Any], origin: str) -> Config:
    """Validate a parsed TOML table into a Config; unknown keys are errors."""
    cfg = Config()
    _fill(cfg, data, origin)
    return cfg


def load_config(explicit: str | Path | None = None) -> Config:
    """Load the resolved config file; a missing file means defaults."""
    path = paths.config_file(explicit)
    if not path.exists():
        if explicit:
            raise ConfigError(f"{path}: config file not found")
        return Config()
    cfg = parse_config(read_toml(path), str(path))
    cfg.path = path
    return cfg


# -- the starter config --------------------------------------------------------------------

_HEADER = ("# paperterm configuration. Every key is optional; the values shown are the defaults.\n"
           "# Docs: docs/configuration.md in paperterm's source (every key, topics, models),\n"
           "# and `paperterm manpage`.")


def _commented(text: str) -> list[str]:
    return [f"# {line}" if line else "#" for line in text.splitlines()]


def _setting_lines(d: Declared, commented: bool) -> list[str]:
    spec = d.spec
    if spec.block:
        return _commented(spec.before) + _commented(spec.block)
    example = spec.example if spec.example and spec.example != "commented" else ""
    text = f"{d.name} = {example or toml_value(d.default)}"
    if example or commented:
        text = f"# {text}"
    if spec.comment:
        text = f"{text:<{max(23, len(text) + 2)}}# {spec.comment}"
    return [*_commented(spec.before), text]


def _starter_items(obj: Any) -> list[tuple[bool, bool, list[str]]]:
    """(a blank line before, after, lines) for each top-level item of the starter config."""
    own = {d.name: d for d in declared(type(obj))}
    subs = {name: (spec, inline) for name, _, spec, inline in sections(type(obj))}
    items: list[tuple[bool, bool, list[str]]] = []
    for name in obj.__dataclass_fields__:
        if name in own and own[name].spec.starter:
            apart = bool(own[name].spec.block)
            items.append((apart, apart, _setting_lines(own[name], False)))
        elif name in subs and subs[name][1]:
            inner = _starter_items(getattr(obj, name))
            items += [(True, *inner[0][1:]), *inner[1:]] if inner else []
        elif name in subs:
            spec = subs[name][0]
            commented = spec.example == "commented"
            lines = [*_commented(spec.before), f"# [{name}]" if commented else f"[{name}]"]
            for d in declared(type(getattr(obj, name)), name):
                lines += _setting_lines(d, commented)
            items.append((True, True, lines))
    return items


def starter_config() -> str:
    """The commented starter config: every declared setting's line, defaults shown."""
    out = [_HEADER, ""]
    gap = False
    for before, after, lines in _starter_items(Config()):
        if (before or gap) and out[-1] != "":
            out.append("")
        out += lines
        gap = after
    return "\n".join(out) + "\n"


def init_config(explicit: str | Path | None = None) -> tuple[Path, bool]:
    """Write the starter config unless one exists. Returns (path, written)."""
    path = paths.config_file(explicit)
    if path.exists():
        return path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "x", encoding="utf-8") as fh:
        fh.write(starter_config())  # made here: not on every command's start-up
    return path, True
