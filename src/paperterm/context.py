"""Everything the TUI (or a headless command) needs to show one loaded day."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from paperterm.config import Config
from paperterm.models import Day, Topic
from paperterm.scoring.types import ScoringSettings


@dataclass
class AppContext:
    config: Config
    day: Day
    topic: Topic
    settings: ScoringSettings
    db_path: Path
    bib_path: Path
    unicode_bib: bool = False
    theme: str | None = None  # --theme, else config.theme
    notices: list[str] = field(default_factory=list)  # shown once at start (one line each)
