"""The SQLite file: opening, integrity, quarantine of corrupt files, migrations, transactions."""

from __future__ import annotations

import contextlib
import errno
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from paperterm.store.schema import _MIGRATIONS, SCHEMA_VERSION, statements

APP_ID = 0x50505452  # "PPTR": marks the file as ours
CHUNK = 500  # ids per IN (...) list, well under SQLite's variable limit


class StoreError(Exception):
    """The database cannot be used; the message says what happened to the file."""


class BusyError(StoreError):
    """Another process holds a lock on the database for longer than we wait."""


class DiskFullError(StoreError):
    """The disk holding the database has no room left (to write, or even to open it)."""


class _Corrupt(sqlite3.DatabaseError):
    """Our own verdict that the file is damaged or not ours (a failed integrity check)."""


# SQLite primary result codes (sqlite3.Error.sqlite_errorcode on Python >= 3.11)
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
_CORRUPT_TEXT = ("malformed", "not a database", "file is encrypted")
_BUSY_TEXT = ("database is locked", "database table is locked", "database is busy")


def is_corrupt(exc: BaseException) -> bool:
    """Real corruption: SQLITE_CORRUPT, SQLITE_NOTADB or a failed integrity check. Only these
    move the user's file aside; a lock, a read-only file or a full disk never does."""
    if isinstance(exc, _Corrupt):
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _CORRUPT_CODES
    return isinstance(exc, sqlite3.DatabaseError) and any(
        t in str(exc).lower() for t in _CORRUPT_TEXT)


def is_busy(exc: BaseException) -> bool:
    """SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _BUSY_CODES
    return any(t in str(exc).lower() for t in _BUSY_TEXT)


def describe(exc: BaseException, path: Path | str) -> StoreError:
    """A database error that is not corruption, as one line saying what to do."""
    why = " ".join(str(exc).split())
    if is_busy(exc):
        return BusyError(f"{path}: the database is locked by another program (another "
                         "paperterm?) and stayed locked; try again when it has finished")
    low = why.lower()
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, (FileExistsError, NotADirectoryError)) or (
            isinstance(exc, OSError) and exc.errno in (errno.EEXIST, errno.ENOTDIR)):
        folder = Path(path).parent
        while folder != folder.parent and not folder.exists():
            folder = folder.parent
        if folder.exists() and not folder.is_dir():
            return StoreError(f"the data directory {Path(path).parent} cannot be made: "
                              f"{folder} is a file, not a folder; point PAPERTERM_HOME at a "
                              "folder (or move the file)")
    if (code is not None and code & 0xFF == 13) or "disk is full" in low or (
            isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)):
        return DiskFullError(f"{path}: the disk holding the database is full ({why}); nothing "
                          "more could be saved: free some space")
    if "disk i/o error" in low and _disk_full(Path(path).parent):
        # SQLite's lock file (-shm) cannot grow: even reading needs a few kB of room
        return DiskFullError(f"{path}: the disk holding the database is full ({why}); paperterm "
                          "cannot open it, even to read, until some space is free")
    if isinstance(exc, PermissionError) or "readonly" in low or "read-only" in low \
            or "unable to open" in low or "permission" in low:
        return StoreError(f"{path}: cannot write the database ({why}); make the file and its "
                          "folder writable, or set PAPERTERM_HOME to another folder")
    return StoreError(f"{path}: database error ({why})")


def _disk_full(folder: Path) -> bool:
    """Whether the filesystem holding `folder` has no block left for us."""
    import os

    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def _quarantine(path: Path, why: str) -> StoreError:
    why = " ".join(why.split())  # SQLite's messages can span lines; a notice is one line
    stamp = time.strftime("%Y%m%d-%H%M%S")
    moved = path.with_name(f"{path.name}.broken-{stamp}")
    n = 1
    while moved.exists():  # never replace an earlier broken copy (rename would overwrite it)
        n += 1
        moved = path.with_name(f"{path.name}.broken-{stamp}-{n}")
    try:
        path.rename(moved)
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(moved.with_name(moved.name + suffix))
    except OSError as exc:
        return StoreError(f"{path}: {why}; could not move it aside ({exc.strerror}).")
    error = StoreError(
        f"{path}: {why}. It was kept as {moved}; paperterm starts a new, empty cache."
    )
    error.moved = moved  # type: ignore[attr-defined]  # (for the salvage, `Database.open`)
    return error


class Database:
    """One SQLite connection. Not thread-safe: open one per thread."""

    BUSY_TIMEOUT = 10.0  # seconds to wait for another process's lock before giving up

    def __init__(self, path: Path | str, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        try:
            if read_only:  # (no folder made, no file created: `reading.connect`)
                from paperterm.store.reading import connect

                self.conn = connect(self.path, self.BUSY_TIMEOUT)
            else:
                if str(path) != ":memory:":
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                self.conn = sqlite3.connect(str(path), timeout=self.BUSY_TIMEOUT,
                                            isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise describe(exc, self.path) from None
        try:
            self.conn.row_factory = sqlite3.Row
            if read_only:
                self._check_readable()
            else:
                self._check_with_retries()
        except StoreError:  # ours, but from a newer paperterm: leave the file alone
            self._close_quietly()
            raise
        except sqlite3.Error as exc:
            self._close_quietly()
            if str(path) == ":memory:" or not is_corrupt(exc):
                raise describe(exc, self.path) from None  # the file is left where it is
            raise _quarantine(self.path, f"not a usable paperterm database ({exc})") from None

    @classmethod
    def open(cls, path: Path | str):  # -> Self
        """Open, and if the file was corrupt or foreign, move it aside and start afresh.

        Raises StoreError only when even a fresh database cannot be created; otherwise the
        notice about the moved file is available as `store.notice`.
        """
        try:
            store = cls(path)
            store.notice = None
            return store
        except StoreError as exc:
            if Path(path).exists():
                raise
            store = cls(path)
            store.notice = str(exc)
            moved = getattr(exc, "moved", None)
            if moved is not None:  # what SQLite can still read of stars, notes, tags...
                from paperterm.store.salvage import salvage, summary

                saved = summary(salvage(moved, store.conn))
                store.notice = (str(exc).replace("a new, empty cache", "a new cache") +
                                (f" Salvaged from it: {saved}." if saved else
                                 " Nothing of it could be read to salvage."))
            return store

    @classmethod
    def open_for_reading(cls, path: Path | str):  # -> Self
        """`open`, for a command that only reads: when the disk is too full even to open the
        database as usual, it is opened read-only, writing nothing (`reading.connect`), and
        `notice` says so; the full disk's one line when even that fails."""
        try:
            return cls.open(path)
        except DiskFullError as full:
            try:
                store = cls(path, read_only=True)
            except (StoreError, sqlite3.Error, OSError):
                raise full from None
            store.notice = (f"{path}: the disk holding the database is full; it was read "
                            "without writing anything: free some space")
            return store

    notice: str | None = None
    problem: str | None = None  # set on a stand-in that keeps nothing (Store.unavailable)

    def _close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()

    def _check_with_retries(self) -> None:
        """`_check_and_migrate`, tried again while another process holds a lock, for up to
        BUSY_TIMEOUT seconds: SQLite answers some lock conflicts (changing the journal mode,
        a transaction that began as a read) with SQLITE_BUSY at once, without waiting."""
        deadline = time.monotonic() + self.BUSY_TIMEOUT
        while True:
            try:
                self._check_and_migrate()
                return
            except sqlite3.OperationalError as exc:
                if not is_busy(exc) or time.monotonic() >= deadline:
                    raise
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                time.sleep(0.05)

    def _check_readable(self) -> None:
        """A read-only connection's check: the file is ours and of this schema (nothing can
        be migrated or moved aside without writing)."""
        app_id, version, _ = self._header()
        if app_id != APP_ID or version != SCHEMA_VERSION:
            raise StoreError(f"{self.path}: cannot be read without writing (schema version "
                             f"{version}, this paperterm's is {SCHEMA_VERSION})")
        self.conn.execute("PRAGMA foreign_keys=ON")

    def _check_and_migrate(self) -> None:
        c = self.conn
        app_id, version, tables = self._header()
        if app_id not in (0, APP_ID) or (app_id == 0 and tables):
            raise _Corrupt("the file belongs to another program")
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer paperterm (schema version {version}; this "
                f"version understands up to {SCHEMA_VERSION}). Upgrade paperterm, or move the "
                "file away to start a new cache."
            )
        c.execute("PRAGMA journal_mode=WAL")
        c.execute("PRAGMA synchronous=NORMAL")
        c.execute("PRAGMA foreign_keys=ON")
        for index in range(version, SCHEMA_VERSION):
            with self.transaction():
                # re-read under the write lock: another process may have migrated meanwhile
                app_id, current, tables = self._header()
                if app_id == 0 and tables and current == 0:
                    raise _Corrupt("the file belongs to another program")
                if current > index:
                    continue
                for stmt in statements(_MIGRATIONS[index]):
                    c.execute(stmt)
                c.execute(f"PRAGMA user_version={index + 1}")
                c.execute(f"PRAGMA application_id={APP_ID}")
        if version == SCHEMA_VERSION and not self._unchanged_since_clean_close():
            # the scan costs ~0.1 s per year of papers: only when the file may have been
            # damaged (a crash, an outside edit, a restore), not on every start
            check = c.execute("PRAGMA quick_check(1)").fetchone()[0]
            if check != "ok":
                raise _Corrupt(f"integrity check failed: {check}")

    def _header(self) -> tuple[int, int, int]:
        """application_id, user_version and the number of schema objects, read together (one
        snapshot: a process creating the file at the same time is seen before or after)."""
        c = self.conn
        own = not c.in_transaction
        if own:
            c.execute("BEGIN")
        try:
            app_id = c.execute("PRAGMA application_id").fetchone()[0]
            version = c.execute("PRAGMA user_version").fetchone()[0]
            tables = c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            if own and c.in_transaction:  # (a full disk may have ended it: its error shows)
                c.execute("COMMIT")
        return app_id, version, tables

    def close(self) -> None:
        self.conn.close()
        if not self.read_only:
            self._record_clean_close()

    # -- integrity ------------------------------------------------------------------------

    @property
    def _marker(self) -> Path:
        return self.path.with_name(self.path.name + ".clean")

    def _file_state(self) -> str | None:
        """The file's identity and change stamps when nothing is pending in the WAL, else None.

        Size and mtime alone miss damage that keeps them (a tool that restores the mtime, a
        same-size overwrite). The inode number and ctime are added: every write or rename
        through the filesystem sets ctime to the current time, and unlike mtime no user
        program can set it back, so any outside change since the clean close is seen and
        the integrity check runs. (Damage below the filesystem, on the disk itself, shows in
        no metadata; SQLite reports it as SQLITE_CORRUPT when the page is read.)"""
        if str(self.path) == ":memory:":
            return None
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            if wal.exists() and wal.stat().st_size:
                return None
            st = self.path.stat()
        except OSError:
            return None
        return f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}"

    def _record_clean_close(self) -> None:
        if str(self.path) == ":memory:":
            return
        state = self._file_state()
        try:
            if state is None:
                self._marker.unlink(missing_ok=True)
            elif state != self._recorded_state():  # (a run that wrote nothing: it holds)
                from paperterm.io.atomic import atomic_write

                # never half a marker (then the check would only run for nothing)
                atomic_write(self._marker, state.encode("ascii"))
        except OSError:
            pass  # only an optimisation: the next open runs the full check

    def _recorded_state(self) -> str | None:
        """The file state the last clean close recorded, if any."""
        try:
            return self._marker.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError):
            return None

    def _unchanged_since_clean_close(self) -> bool:
        recorded = self._recorded_state()
        return recorded is not None and recorded == self._file_state()

    def data_version(self) -> int:
        """SQLite's `PRAGMA data_version`: changes when another connection commits (a
        reader's watch for another program's writes; in WAL mode it reads shared memory,
        not the file)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def set_busy_timeout(self, seconds: float) -> None:
        """How long a statement waits for another process's lock before SQLITE_BUSY."""
        self.conn.execute(f"PRAGMA busy_timeout={max(0, int(seconds * 1000))}")

    # -- the two helpers every query module uses -------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE): committed on success, rolled back on any
        exception. Inside another one it is part of it (the outer one commits or rolls back),
        so several writes make one step that a kill -9 can never cut in half."""
        c = self.conn
        if c.in_transaction:
            yield c
            return
        c.execute("BEGIN IMMEDIATE")
        try:
            yield c
            c.execute("COMMIT")
        except BaseException:
            # SQLite may have rolled back already (a full disk, SQLITE_FULL/IOERR): the
            # original error is what the user hears, never "no transaction is active"
            if c.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    c.execute("ROLLBACK")
            raise

    def select_in(self, sql: str, before: Sequence[object], values: Sequence[object],
                  ) -> Iterator[sqlite3.Row]:
        """Rows of `sql` (which holds one `{marks}` placeholder for an IN list) for every
        value, run in chunks of CHUNK; `before` are the parameters preceding the IN list."""
        values = list(values)
        for i in range(0, len(values), CHUNK):
            chunk = values[i : i + CHUNK]
            marks = ",".join("?" * len(chunk))
            yield from self.conn.execute(sql.format(marks=marks), (*before, *chunk))


class Queries:
    """One group of queries over a shared Database: `conn`, `transaction()` and `select_in()`
    are the database's, so every query module reads as if it owned the connection."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def available(self) -> bool:
        """False on a stand-in database that keeps nothing (`Store.unavailable`)."""
        return self.db.problem is None

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return self.db.transaction()

    def select_in(self, sql: str, before: Sequence[object], values: Sequence[object],
                  ) -> Iterator[sqlite3.Row]:
        return self.db.select_in(sql, before, values)
