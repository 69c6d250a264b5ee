"""Opening the database to read it without writing anything: what a read-only command
(`starred`, `search`, `eval`) falls back to when the disk is too full to open it as usual.

The database is in WAL mode, where even a reader needs the wal-index, a shared-memory file
beside it (`-shm`). Opened as usual, SQLite creates that file and grows it to 32 kB; on a
full disk that growth fails and SQLite answers "disk I/O error" before the first row.

Here the database is opened with `mode=ro` (SQLite never writes the database or its WAL)
and `readonly_shm=1` (the `-shm` is mapped read-only and never grown). When no other
connection has the database open, SQLite then builds the wal-index in this process's own
memory from the WAL file (SQLITE_READONLY_CANTINIT, its path for read-only media, since
3.22); when another program has it open, SQLite reads that program's wal-index. Either way
every transaction committed before the read began is seen, including those still in the
WAL, and a writer running beside it is neither blocked nor disturbed.

(`immutable=1` would write nothing either, but it ignores the WAL, so it misses what another
program committed and has not yet checkpointed, and it takes no locks, so a checkpoint
running beside it could show a half-written page: not used.)

`readonly_shm` needs the `-shm` file to exist. When it does not (no other connection is
open), an empty one is created: a name in the folder, no data block; it is the file SQLite
itself would create, so it is left in place for the next connection.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from urllib.parse import quote


def connect(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection to the existing database at `path` that writes nothing to it."""
    if not path.is_file():
        raise FileNotFoundError(f"no database at {path}")
    shm = path.with_name(path.name + "-shm")
    if not shm.exists():
        with contextlib.suppress(FileExistsError):  # (another process made it meanwhile)
            os.close(os.open(shm, os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                             path.stat().st_mode & 0o666))
    uri = f"file:{quote(str(path.absolute()))}?mode=ro&readonly_shm=1"
    return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
