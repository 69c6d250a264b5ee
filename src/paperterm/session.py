"""One loaded day and everything needed to work on it: shared by the CLI and the reader.

Immutable: a change (another day, a topic switch, a load under way) is a new session
(`dataclasses.replace`), held by its owner (the CLI command, the reader's app)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.config import Config
from paperterm.models import Day, Topic
from paperterm.settings import ScoringSettings

if TYPE_CHECKING:
    from paperterm.sources.loader import LoadRequest
    from paperterm.store import Store


@dataclass(frozen=True)
class Session:
    config: Config
    day: Day
    topic: Topic
    settings: ScoringSettings
    db_path: Path
    bib_path: Path
    unicode_bib: bool = False
    theme: str | None = None  # --theme, else config.theme
    notices: tuple[str, ...] = ()  # shown once at start (one line each)
    store: Store | None = None  # open for headless commands; the reader opens its own
    pending: LoadRequest | None = None  # the reader loads this in the background (day empty)
    request: LoadRequest | None = None  # what the day was loaded from (R re-fetches it)
    categories_fixed: bool = False  # --categories given: a topic switch keeps them

    def close(self) -> Session:
        """Close the store, if open; the session without it."""
        if self.store is not None:
            self.store.close()
        return replace(self, store=None)
