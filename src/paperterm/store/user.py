"""What the user did with papers: seen, starred, saved to a .bib file."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from paperterm.store.db import Queries


@dataclass
class UserState:
    seen: bool = False
    starred: bool = False
    saved: bool = False
    bib_key: str | None = None


class UserQueries(Queries):
    def states(self, ids: Iterable[str]) -> dict[str, UserState]:
        out: dict[str, UserState] = {}
        for r in self.select_in("SELECT * FROM user_state WHERE id IN ({marks})", (), list(ids)):
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
