"""SQLite cache of papers, announcement days, user state and scores."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from paperterm.models import Paper

APP_ID = 0x50505452  # "PPTR": marks the file as ours


class StoreError(Exception):
    """The database cannot be used; the message says what happened to the file."""


_MIGRATIONS: list[str] = [
    # 1: papers, announcements, fetch log, user state
    """
    CREATE TABLE papers (
        id TEXT NOT NULL,
        version INTEGER NOT NULL,          -- 0: unknown
        title TEXT NOT NULL,
        authors TEXT NOT NULL,             -- JSON list
        abstract TEXT NOT NULL,
        categories TEXT NOT NULL,          -- JSON list, primary first
        primary_category TEXT NOT NULL,
        doi TEXT,
        journal_ref TEXT,
        comment TEXT,
        published TEXT,
        first_seen REAL NOT NULL,
        PRIMARY KEY (id, version)
    );
    CREATE TABLE announcements (
        feed TEXT NOT NULL,                -- categories key, e.g. "cs.AI+cs.LG", or "query:..."
        day TEXT NOT NULL,                 -- ISO date
        position INTEGER NOT NULL,
        id TEXT NOT NULL,
        version INTEGER NOT NULL,
        announce_type TEXT NOT NULL,
        PRIMARY KEY (feed, day, id)
    );
    CREATE TABLE fetches (
        feed TEXT NOT NULL,
        fetched_for TEXT NOT NULL,         -- the local (US Eastern) date of the fetch
        day TEXT,                          -- the announcement day it returned, NULL if empty
        source TEXT NOT NULL,
        approximate INTEGER NOT NULL DEFAULT 0,
        fetched_at REAL NOT NULL,
        PRIMARY KEY (feed, fetched_for)
    );
    CREATE TABLE user_state (
        id TEXT PRIMARY KEY,
        seen_at REAL,
        starred INTEGER NOT NULL DEFAULT 0,
        saved_at REAL,
        bib_key TEXT,
        bib_path TEXT
    );
    """,
    # 2: scores, one row per (paper version, topic criteria, model, prompt version)
    """
    CREATE TABLE score_requests (
        request_id INTEGER PRIMARY KEY AUTOINCREMENT,
        model TEXT NOT NULL,
        n_papers INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        cost REAL,                         -- dollars, NULL: unknown
        created_at REAL NOT NULL
    );
    CREATE TABLE scores (
        id TEXT NOT NULL,
        version INTEGER NOT NULL,
        topic_fp TEXT NOT NULL,
        model TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        relevance INTEGER,
        novelty INTEGER,
        reason TEXT NOT NULL DEFAULT '',
        request_id INTEGER REFERENCES score_requests(request_id),
        created_at REAL NOT NULL,
        PRIMARY KEY (id, version, topic_fp, model, prompt_version)
    );
    """,
]

SCHEMA_VERSION = len(_MIGRATIONS)


@dataclass
class UserState:
    seen: bool = False
    starred: bool = False
    saved: bool = False
    bib_key: str | None = None


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
    return StoreError(
        f"{path}: {why}. It was kept as {moved}; paperterm starts a new, empty cache."
    )


class Store:
    """One SQLite database. Not thread-safe: open one Store per thread."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.conn = sqlite3.connect(str(path), timeout=10.0, isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            self._check_and_migrate()
        except StoreError:  # ours, but from a newer paperterm: leave the file alone
            self._close_quietly()
            raise
        except sqlite3.DatabaseError as exc:
            self._close_quietly()
            if str(path) == ":memory:":
                raise StoreError(f"database error: {exc}") from None
            raise _quarantine(self.path, f"not a usable paperterm database ({exc})") from None

    @classmethod
    def open(cls, path: Path | str) -> Store:
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
            return store

    notice: str | None = None

    def _close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()

    def _check_and_migrate(self) -> None:
        c = self.conn
        app_id = c.execute("PRAGMA application_id").fetchone()[0]
        version = c.execute("PRAGMA user_version").fetchone()[0]
        tables = c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id not in (0, APP_ID) or (app_id == 0 and tables):
            raise sqlite3.DatabaseError("the file belongs to another program")
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
            c.execute("BEGIN IMMEDIATE")
            try:
                for stmt in _split_sql(_MIGRATIONS[index]):
                    c.execute(stmt)
                c.execute(f"PRAGMA user_version={index + 1}")
                c.execute(f"PRAGMA application_id={APP_ID}")
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
        if version == SCHEMA_VERSION and not self._unchanged_since_clean_close():
            # the scan costs ~0.1 s per year of papers: only when the file may have been
            # damaged (a crash, an outside edit, a restore), not on every start
            check = c.execute("PRAGMA quick_check(1)").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")

    def close(self) -> None:
        self.conn.close()
        self._record_clean_close()

    # -- integrity ------------------------------------------------------------------------

    @property
    def _marker(self) -> Path:
        return self.path.with_name(self.path.name + ".clean")

    def _file_state(self) -> str | None:
        """Size and mtime of the file when nothing is pending in the WAL, else None."""
        if str(self.path) == ":memory:":
            return None
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            if wal.exists() and wal.stat().st_size:
                return None
            st = self.path.stat()
        except OSError:
            return None
        return f"{st.st_size} {st.st_mtime_ns}"

    def _record_clean_close(self) -> None:
        state = self._file_state()
        try:
            if state is None:
                self._marker.unlink(missing_ok=True)
            else:
                self._marker.write_text(state, encoding="ascii")
        except OSError:
            pass  # only an optimisation: the next open runs the full check

    def _unchanged_since_clean_close(self) -> bool:
        try:
            recorded = self._marker.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError):
            return False
        return recorded == self._file_state()

    # -- papers and days -------------------------------------------------------------

    def save_day(
        self,
        feed: str,
        day: date | None,
        papers: Sequence[Paper],
        *,
        source: str,
        fetched_for: date | str | None = None,
        approximate: bool = False,
    ) -> None:
        """Store papers and (when day is known) their announcement, in one transaction."""
        now = time.time()
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        try:
            c.executemany(
                """INSERT INTO papers (id, version, title, authors, abstract, categories,
                   primary_category, doi, journal_ref, comment, published, first_seen)
                   VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
                   ON CONFLICT(id, version) DO UPDATE SET
                     title=excluded.title, authors=excluded.authors, abstract=excluded.abstract,
                     categories=excluded.categories, primary_category=excluded.primary_category,
                     doi=coalesce(excluded.doi, papers.doi),
                     journal_ref=coalesce(excluded.journal_ref, papers.journal_ref),
                     comment=coalesce(excluded.comment, papers.comment),
                     published=coalesce(excluded.published, papers.published)""",
                [_paper_row(p, now) for p in papers],
            )
            if day is not None:
                iso = day.isoformat()
                c.execute("DELETE FROM announcements WHERE feed=? AND day=?", (feed, iso))
                c.executemany(
                    "INSERT OR IGNORE INTO announcements VALUES (?,?,?,?,?,?)",
                    [
                        (feed, iso, i, p.id, p.version or 0, p.announce_type)
                        for i, p in enumerate(papers)
                    ],
                )
            if fetched_for is not None:
                c.execute(
                    "INSERT OR REPLACE INTO fetches VALUES (?,?,?,?,?,?)",
                    (
                        feed,
                        fetched_for if isinstance(fetched_for, str) else fetched_for.isoformat(),
                        day.isoformat() if day else None,
                        source,
                        int(approximate),
                        now,
                    ),
                )
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise

    def fetch_record(self, feed: str, fetched_for: date) -> sqlite3.Row | None:
        return self.conn.execute(
            "SELECT * FROM fetches WHERE feed=? AND fetched_for=?", (feed, fetched_for.isoformat())
        ).fetchone()

    def day_papers(self, feed: str, day: date) -> list[Paper]:
        rows = self.conn.execute(
            """SELECT p.*, a.announce_type FROM announcements a
               JOIN papers p ON p.id=a.id AND p.version=a.version
               WHERE a.feed=? AND a.day=? ORDER BY a.position""",
            (feed, day.isoformat()),
        ).fetchall()
        return [_row_paper(r) for r in rows]

    def latest_day(self, feed: str, before: date | None = None) -> date | None:
        sql = "SELECT max(day) FROM announcements WHERE feed=?"
        args: list[str] = [feed]
        if before is not None:
            sql += " AND day<=?"
            args.append(before.isoformat())
        value = self.conn.execute(sql, args).fetchone()[0]
        return date.fromisoformat(value) if value else None

    def is_approximate(self, feed: str, day: date) -> bool:
        row = self.conn.execute(
            "SELECT approximate FROM fetches WHERE feed=? AND day=? ORDER BY fetched_at DESC",
            (feed, day.isoformat()),
        ).fetchone()
        return bool(row and row[0])

    def paper_count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM papers").fetchone()[0]

    # -- user state -------------------------------------------------------------------

    def states(self, ids: Iterable[str]) -> dict[str, UserState]:
        ids = list(ids)
        out: dict[str, UserState] = {}
        for chunk in _chunks(ids, 500):
            marks = ",".join("?" * len(chunk))
            for r in self.conn.execute(
                f"SELECT * FROM user_state WHERE id IN ({marks})", chunk
            ).fetchall():
                out[r["id"]] = UserState(
                    seen=r["seen_at"] is not None,
                    starred=bool(r["starred"]),
                    saved=r["saved_at"] is not None,
                    bib_key=r["bib_key"],
                )
        return out

    def mark_seen(self, ids: Iterable[str]) -> None:
        now = time.time()
        self.conn.executemany(
            """INSERT INTO user_state (id, seen_at) VALUES (?, ?)
               ON CONFLICT(id) DO UPDATE
               SET seen_at=coalesce(user_state.seen_at, excluded.seen_at)""",
            [(i, now) for i in ids],
        )

    def set_starred(self, paper_id: str, starred: bool) -> None:
        self.conn.execute(
            """INSERT INTO user_state (id, starred) VALUES (?, ?)
               ON CONFLICT(id) DO UPDATE SET starred=excluded.starred""",
            (paper_id, int(starred)),
        )

    def starred_ids(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT id FROM user_state WHERE starred=1")}

    def mark_saved(self, saved: Iterable[tuple[str, str]], bib_path: Path | str) -> None:
        """Record (paper id, citation key) pairs written to bib_path."""
        now = time.time()
        self.conn.executemany(
            """INSERT INTO user_state (id, saved_at, bib_key, bib_path) VALUES (?, ?, ?, ?)
               ON CONFLICT(id) DO UPDATE SET saved_at=excluded.saved_at,
               bib_key=excluded.bib_key, bib_path=excluded.bib_path""",
            [(pid, now, key, str(bib_path)) for pid, key in saved],
        )


def _split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _paper_row(p: Paper, now: float) -> tuple:
    return (
        p.id,
        p.version or 0,
        p.title,
        json.dumps(list(p.authors), ensure_ascii=False),
        p.abstract,
        json.dumps(list(p.categories)),
        p.primary_category,
        p.doi,
        p.journal_ref,
        p.comment,
        p.published,
        now,
    )


def _row_paper(r: sqlite3.Row) -> Paper:
    return Paper(
        id=r["id"],
        version=r["version"] or None,
        title=r["title"],
        authors=tuple(json.loads(r["authors"])),
        abstract=r["abstract"],
        categories=tuple(json.loads(r["categories"])),
        primary_category=r["primary_category"],
        announce_type=r["announce_type"],
        doi=r["doi"],
        journal_ref=r["journal_ref"],
        comment=r["comment"],
        published=r["published"],
    )
