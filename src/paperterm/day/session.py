"""One loaded day and everything needed to work on it: shared by the CLI and the reader.

Immutable: a change (another day, a topic switch, a load under way) is a new session
(`dataclasses.replace`), held by its owner: the CLI command; in the reader, a `HeldSession`
(the session later days open with, the app's) and each day's model (`day.model.DayModel`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperterm.models import Day, Topic
from paperterm.settings import ScoringSettings
from paperterm.settings.config import Config

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
    # open for headless commands (the reader closes it and opens its own); a stand-in that
    # keeps nothing when none was given
    store: Store = field(default_factory=lambda: _no_store())
    pending: LoadRequest | None = None  # the reader loads this in the background (day empty)
    request: LoadRequest | None = None  # what the day was loaded from (R re-fetches it)
    categories_fixed: bool = False  # --categories given: a topic switch keeps them

    def open_store(self) -> Store:
        """A new Store on this session's database, for the calling thread: the
        `StoreFactory` handed to workers (SQLite connections stay in their thread)."""
        from paperterm.store import Store

        return Store.open(self.db_path)

    def close(self) -> Session:
        """Close the store (idempotent); the session, whose store is closed from now on (the
        reader opens its own, in its own thread)."""
        self.store.close()
        return self


class HeldSession:
    """The one owner of a session that changes while the reader runs: `update(**changes)`
    is the only way to replace it, and tells every listener (`subscribe`) once."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._listeners: list[Callable[[Session], None]] = []

    @property
    def session(self) -> Session:
        return self._session

    def update(self, **changes: Any) -> Session:
        """The session with `changes` (`dataclasses.replace`), told to the listeners."""
        self._session = replace(self._session, **changes)
        for listener in list(self._listeners):
            listener(self._session)
        return self._session

    def subscribe(self, listener: Callable[[Session], None]) -> Callable[[], None]:
        """Call `listener(session)` after each change; returns the function that stops it."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe


def _no_store() -> Store:
    from paperterm.store import Store

    return Store.unavailable("no database was opened for this session")
