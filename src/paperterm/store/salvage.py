"""What a corrupt database still holds of the user's own work, carried into the new one.

When the cache is moved aside as corrupt (`db._quarantine`), the new database receives,
table by table and row by row, what SQLite can still read of the old file: the papers and
their days (so starred papers keep their titles), stars and seen marks, notes, tags,
follows, "not interested" marks and `learn` positives. A table that cannot be read at all,
or stops part way, gives what was read before the damage.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

# the user's work first; papers and their days so that it shows with titles and days
TABLES = ("user_state", "notes", "tags", "followed_authors", "dismissals", "positives",
          "positives_by_topic", "papers", "announcements")
_COUNTED = {"user_state": ("marked paper", "marked papers"), "notes": ("note", "notes"),
            "tags": ("tag", "tags")}


def _rows(old: sqlite3.Connection, table: str, columns: list[str]) -> list[tuple]:
    names = ", ".join(f'"{c}"' for c in columns)
    rows: list[tuple] = []
    try:
        for row in old.execute(f'SELECT {names} FROM "{table}"'):
            rows.append(tuple(row))
    except sqlite3.DatabaseError:
        pass  # the damage starts here: keep what came before it
    return rows


def _columns(c: sqlite3.Connection, table: str) -> list[str]:
    try:
        return [r[1] for r in c.execute(f'PRAGMA table_info("{table}")')]
    except sqlite3.DatabaseError:
        return []


def salvage(broken: Path, new: sqlite3.Connection) -> dict[str, int]:
    """Copy what can be read of `broken`'s TABLES into `new` (an open, current database),
    never replacing a row; the rows copied per table. Never raises for the old file."""
    copied: dict[str, int] = {}
    sides = [broken.with_name(broken.name + s) for s in ("-wal", "-shm")]
    had = [p.exists() for p in sides]
    try:
        old = sqlite3.connect(f"file:{broken}?mode=ro", uri=True)
    except sqlite3.Error:
        return copied
    try:
        return _copy(old, new, copied)
    finally:
        old.close()
        for side, existed in zip(sides, had, strict=True):  # made by reading: removed
            if not existed:
                with contextlib.suppress(OSError):
                    side.unlink()


def _copy(old: sqlite3.Connection, new: sqlite3.Connection,
          copied: dict[str, int]) -> dict[str, int]:
    for table in TABLES:
        have = set(_columns(new, table))
        columns = [c for c in _columns(old, table) if c in have]
        if not columns:
            continue
        rows = _rows(old, table, columns)
        if not rows:
            continue
        names = ", ".join(f'"{c}"' for c in columns)
        marks = ", ".join("?" * len(columns))
        before = new.total_changes
        new.execute("BEGIN IMMEDIATE")
        try:
            for row in rows:
                with contextlib.suppress(sqlite3.IntegrityError):
                    new.execute(f'INSERT OR IGNORE INTO "{table}" ({names}) VALUES '
                                f"({marks})", row)
            if table == "papers":
                from paperterm.store.fts import reindex

                reindex(new, [r[columns.index("id")] for r in rows] if "id" in columns
                        else [])
            new.execute("COMMIT")
        except sqlite3.Error:
            new.execute("ROLLBACK")
            continue
        copied[table] = new.total_changes - before
    return copied


def summary(copied: dict[str, int]) -> str:
    """'3 marked papers, 2 notes and 1 tag' of what was salvaged, or ''."""
    parts = [f"{copied[t]} {names[copied[t] != 1]}" for t, names in _COUNTED.items()
             if copied.get(t)]
    if not parts:
        return ""
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
