"""One loaded day and everything needed to work on it: shared by the CLI and the reader."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.config import Config
from paperterm.models import Day, Topic
from paperterm.settings import ScoringSettings

if TYPE_CHECKING:
    from paperterm.sources.loader import LoadRequest
    from paperterm.store import Store


@dataclass
class Session:
    config: Config
    day: Day
    topic: Topic
    settings: ScoringSettings
    db_path: Path
    bib_path: Path
    unicode_bib: bool = False
    theme: str | None = None  # --theme, else config.theme
    notices: list[str] = field(default_factory=list)  # shown once at start (one line each)
    store: Store | None = None  # open for headless commands; the reader opens its own
    pending: LoadRequest | None = None  # the reader loads this in the background (day empty)
    request: LoadRequest | None = None  # what the day was loaded from (R re-fetches it)
    categories_fixed: bool = False  # --categories given: a topic switch keeps them

    def close(self) -> None:
        """Close the store, if open (idempotent)."""
        if self.store is not None:
            self.store.close()
            self.store = None
