"""What the reader's screens and widgets need of the app beyond Textual's `App`: the session,
the store, the marks service, notices and store writes (other than marks). A Protocol, so
that no module besides `tui/app.py` names the app class (and none imports it)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from textual.app import App

    from paperterm.day.session import Session
    from paperterm.models import Topic
    from paperterm.services.day_fetch import DayFetches
    from paperterm.services.marks import MarksService
    from paperterm.services.ranking import RankingProcess
    from paperterm.services.storage import Store
    from paperterm.tui.store_writes import Op


class Reader(Protocol):
    """The reader app as its screens use it (`reader_of(self.app)`)."""

    @property
    def session(self) -> Session:
        """The session later days open with (the app's; each day's is its model's)."""
    store: Store  # a stand-in (`Store.unavailable`) when there is no database
    marks: MarksService  # every mark goes through it (the current topic's; undo)
    quitting: bool  # set by `q`: nothing new starts
    fetches: DayFetches  # the day fetched in the background (`session.pending`'s one owner)
    hints_given: set[str]  # once per run, whatever day screens follow
    free_topics: dict[str, Topic]  # free-text topics of this session, offered again by `t`
    ranking: RankingProcess | None  # where local rankings run (None: in this process)

    def update_session(self, **changes: Any) -> Session:
        """The one way to change the reader's session (`dataclasses.replace`'s changes)."""

    def say(self, message: str, severity: str = "information",
            timeout: float | None = None) -> None:
        """A one-line notice, never parsed as markup."""

    def write_store(self, what: str, op: Op) -> bool:
        """Run a store write now, or later while another program holds the lock."""

    def switch_marks_topic(self, name: str) -> None:
        """Marks made from now on are `name`'s; every open day's waiting seen marks first go
        under the topic they were read under."""

    def reload_for_topic(self, topic: Topic) -> bool:
        """Load the shown day for `topic`'s categories in the background; False: it stays."""

    def copy_to_clipboard(self, text: str) -> None: ...

    def suspend(self) -> AbstractContextManager[None]: ...


def reader_of(app: App[Any]) -> Reader:
    """The running reader behind a screen's or widget's `self.app`."""
    return cast("Reader", app)
