"""What the reader remembers between starts (the theme chosen with `T`), in a small JSON file
in the data dir. Never fatal: an unreadable file is as good as none."""

from __future__ import annotations

import json
from pathlib import Path

from paperterm import paths
from paperterm.atomic import atomic_write

STATE_FILE = "reader-state.json"


def state_file() -> Path:
    return paths.data_dir() / STATE_FILE


def _read() -> dict[str, object]:
    try:
        data = json.loads(state_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def remembered_theme(config_theme: str) -> str | None:
    """The theme last chosen with `T`, unless the config's `theme` changed since (an edit of
    the config file wins over an older choice)."""
    data = _read()
    theme, chosen_over = data.get("theme"), data.get("config_theme")
    if isinstance(theme, str) and theme and chosen_over == config_theme:
        return theme
    return None


def remember_theme(theme: str, config_theme: str) -> str | None:
    """Remember `theme` for the next start; the problem, if it could not be written."""
    data = {**_read(), "theme": theme, "config_theme": config_theme}
    path = state_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))
    except OSError as exc:
        return f"could not remember the theme in {path}: {exc.strerror or exc}"
    return None
