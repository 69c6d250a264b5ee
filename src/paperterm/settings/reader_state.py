"""What the reader remembers between starts (the theme chosen with `T`, how often a hint was
shown), in a small JSON file in the data dir. Never fatal: an unreadable file is as good as
none."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from paperterm.io.atomic import atomic_write
from paperterm.settings import paths

STATE_FILE = "reader-state.json"
HINT_STARTS = 3  # a hint shows on this many starts, then the user knows it


def state_file() -> Path:
    return paths.data_dir() / STATE_FILE


def _read() -> dict[str, object]:
    from paperterm.io import limits

    try:
        raw = limits.read_path(state_file(), "the reader's state", limits.MAX_TEXT_FILE)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, limits.InputTooLarge, limits.InputTooSlow):
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


def _write(data: dict[str, object]) -> None:
    path = state_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def remember_theme(theme: str, config_theme: str) -> str | None:
    """Remember `theme` for the next start; the problem, if it could not be written."""
    try:
        _write({**_read(), "theme": theme, "config_theme": config_theme})
    except OSError as exc:
        return f"could not remember the theme in {state_file()}: {exc.strerror or exc}"
    return None


def _hints(data: dict[str, object]) -> dict[str, int]:
    hints = data.get("hints")
    return {k: v for k, v in hints.items() if isinstance(v, int)} if isinstance(
        hints, dict) else {}


def hint_due(name: str) -> bool:
    """Whether the hint `name` shows on this start (it shows on the first HINT_STARTS)."""
    return _hints(_read()).get(name, 0) < HINT_STARTS


def count_hint(name: str) -> None:
    """Record one more start on which the hint `name` showed (not recorded if unwritable:
    it shows again)."""
    data = _read()
    hints = _hints(data)
    hints[name] = hints.get(name, 0) + 1
    with contextlib.suppress(OSError):
        _write({**data, "hints": hints})


UNSURE_KEY = "unsure_answers"  # per topic: paper id -> the answer given in the unsure queue


def _unsure(data: dict[str, object]) -> dict[str, dict[str, str]]:
    raw = data.get(UNSURE_KEY)
    if not isinstance(raw, dict):
        return {}
    return {t: {p: a for p, a in v.items() if isinstance(a, str)}
            for t, v in raw.items() if isinstance(t, str) and isinstance(v, dict)}


def record_unsure_answer(topic: str, paper_id: str, answer: str) -> None:
    """Remember an answer given in the reader's unsure queue ("starred", "dismissed",
    "saved") for `paperterm eval` (not recorded if unwritable: only the count is lost)."""
    data = _read()
    answers = _unsure(data)
    answers.setdefault(topic, {})[paper_id] = answer
    with contextlib.suppress(OSError):
        _write({**data, UNSURE_KEY: answers})


def unsure_answers(topic: str) -> dict[str, str]:
    """The unsure queue's answers for `topic`: paper id -> answer."""
    return _unsure(_read()).get(topic, {})
