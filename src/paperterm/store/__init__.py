"""The SQLite cache: papers and days, user state, scores. The only package with SQL.

`Store` holds one connection (`db.Database`: opening, integrity, quarantine of corrupt
files, migrations, `transaction()`, `select_in()`) and one repository per concern over it
(`repositories`), each of which groups query modules:

- `store.papers` (Papers): papers, announcement days, the fetch log.
- `store.marks` (Marks): seen, starred, saved; not interested and training examples; notes
  and tags; followed authors.
- `store.scores` (ScoreCache): cached LLM scores and requests, score claims, local scores,
  embeddings.
- `store.library` (Library): papers across days, full-text search, similar papers, library
  export/import, the positives of `learn`.
- `store.enrichment` (Enrichment), `store.deliveries` (Deliveries), `store.zotero`
  (ZoteroRecords), `store.health` (HealthCheck).

A repository is handed to the code that uses it (`deliver(..., store.deliveries)`); a
repository that needs another's reads says so in its bases (LibraryIO on LibraryQueries).

Not thread-safe: a thread opens its own Store. Workers get a `StoreFactory`, a callable
that opens one (`session.open_store`, `opener(path)`), never a path. `Store.unavailable(why)`
is an empty in-memory stand-in for a database that cannot be opened (`open_or_unavailable`
makes one from a failing factory): it works, keeps nothing (`available` is False on it and
on its repositories) and says why (`store.problem`), so no caller checks for None.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from sqlite3 import Connection

from paperterm.store.db import (
    APP_ID,
    BusyError,
    Database,
    DiskFullError,
    StoreError,
    describe,
    is_busy,
)
from paperterm.store.feedback import Example
from paperterm.store.health import Health
from paperterm.store.library import SearchHit, Selection
from paperterm.store.positives import Positive
from paperterm.store.repositories import (
    Deliveries,
    Enrichment,
    HealthCheck,
    Library,
    Marks,
    Papers,
    ScoreCache,
    ZoteroRecords,
)
from paperterm.store.schema import SCHEMA_VERSION
from paperterm.store.scores import ScoreRow
from paperterm.store.user import UserState


class Store:
    """One SQLite database and its repositories. Not thread-safe: open one Store per thread."""

    def __init__(self, path: Path | str | Database) -> None:
        self.db = path if isinstance(path, Database) else Database(path)
        self.closed = False
        self.papers = Papers(self.db)
        self.marks = Marks(self.db)
        self.scores = ScoreCache(self.db)
        self.library = Library(self.db)
        self.enrichment = Enrichment(self.db)
        self.deliveries = Deliveries(self.db)
        self.zotero = ZoteroRecords(self.db)
        self.health = HealthCheck(self.db)

    @classmethod
    def open(cls, path: Path | str) -> Store:
        """Open, and if the file was corrupt or foreign, move it aside and start afresh (the
        notice about the moved file is `store.notice`); raises StoreError when even a fresh
        database cannot be created."""
        return cls(Database.open(path))

    @classmethod
    def open_for_reading(cls, path: Path | str) -> Store:
        """`open`, for a command that only reads: on a disk too full to open the database as
        usual, it is read without writing anything (`store.notice` says so); any write
        through it fails."""
        return cls(Database.open_for_reading(path))

    @classmethod
    def unavailable(cls, problem: str) -> Store:
        """An empty in-memory store standing in for a database that cannot be used."""
        store = cls(":memory:")
        store.db.problem = problem
        return store

    @property
    def problem(self) -> str | None:
        """Why this store keeps nothing (`unavailable`), else None."""
        return self.db.problem

    @property
    def available(self) -> bool:
        """False for a stand-in that keeps nothing (`unavailable`)."""
        return self.db.problem is None

    @property
    def read_only(self) -> bool:
        """Opened to read without writing anything (`open_for_reading` on a full disk)."""
        return self.db.read_only

    @property
    def path(self) -> Path:
        return self.db.path

    @property
    def notice(self) -> str | None:
        return self.db.notice

    @property
    def conn(self) -> Connection:
        return self.db.conn

    def transaction(self) -> AbstractContextManager[Connection]:
        return self.db.transaction()

    def set_busy_timeout(self, seconds: float) -> None:
        self.db.set_busy_timeout(seconds)

    def close(self) -> None:
        """Close the connection (again: nothing)."""
        if not self.closed:
            self.closed = True
            self.db.close()


StoreFactory = Callable[[], Store]  # opens a Store for the calling thread


def opener(path: Path | str) -> StoreFactory:
    """A StoreFactory for the database at `path` (`Store.open` on each call)."""
    return lambda: Store.open(path)


def open_or_unavailable(open_store: StoreFactory) -> Store:
    """`open_store()`, or, when the database cannot be opened, a stand-in saying why."""
    try:
        return open_store()
    except Exception as exc:
        return Store.unavailable(str(exc) or type(exc).__name__)


__all__ = ["APP_ID", "SCHEMA_VERSION", "BusyError", "Deliveries", "DiskFullError", "Enrichment",
           "Example",
           "Health", "HealthCheck", "Library", "Marks", "Papers", "Positive", "ScoreCache",
           "ScoreRow", "SearchHit", "Selection", "Store", "StoreError", "StoreFactory",
           "UserState", "ZoteroRecords", "describe", "is_busy", "open_or_unavailable", "opener"]
