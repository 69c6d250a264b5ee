"""The database as the reader uses it: opened (or a stand-in saying why not), opened per
thread from a factory, watched for other programs' writes, and whether a failed write only
met another program's lock. The reader and the command line reach the store only through
here and the other services (issue 29: one door); the store's own types (and the schema
version `paperterm doctor` shows, the one line a database error is said in) are named here.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from paperterm.store import (
    SCHEMA_VERSION,
    Library,
    Positive,
    Store,
    StoreError,
    StoreFactory,
    describe,
    is_busy,
    open_or_unavailable,
    opener,
)

__all__ = ["SCHEMA_VERSION", "Library", "Opened", "Positive", "Store", "StoreError",
           "StoreFactory", "data_version", "describe", "is_busy", "open_database",
           "open_or_unavailable", "opener", "unavailable"]


class Opened(NamedTuple):
    """The store to use, and why the database could not be opened (`problem`; the store is
    then a stand-in that keeps nothing). A database moved aside and made afresh opens with
    its `store.notice`."""

    store: Store
    problem: str | None = None


def open_database(path: Path | str) -> Opened:
    """The database at `path`, else a stand-in (`unavailable`) and the reason."""
    try:
        return Opened(Store.open(path))
    except (StoreError, OSError) as exc:
        return Opened(Store.unavailable(str(exc)), str(exc))


def unavailable(problem: str) -> Store:
    """A store that keeps nothing, standing in for a database that cannot be used (no caller
    checks for None)."""
    return Store.unavailable(problem)


def data_version(store: Store) -> int | None:
    """SQLite's `data_version` of `store`'s connection: it moves when another connection
    wrote. None when it cannot be read now (busy, the file gone): look again later."""
    try:
        return store.db.data_version()
    except Exception:
        return None
