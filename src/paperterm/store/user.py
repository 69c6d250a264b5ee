"""What the user did with papers: seen, starred, saved to a .bib file, each with the topic it
was done under (what the ranking of that topic learns from; NULL: it teaches no topic)."""

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
    star_topic: str | None = None  # the topic the star was given under


class UserQueries(Queries):
    def states(self, ids: Iterable[str]) -> dict[str, UserState]:
        out: dict[str, UserState] = {}
        for r in self.select_in("SELECT * FROM user_state WHERE id IN ({marks})", (), list(ids)):
            out[r["id"]] = UserState(
                seen=r["seen_at"] is not None,
                starred=bool(r["starred"]),
                saved=r["saved_at"] is not None,
                bib_key=r["bib_key"],
                star_topic=r["star_topic"],
            )
        return out

    def mark_seen(self, ids: Iterable[str], *, topic: str | None = None) -> None:
        """Mark papers seen (read under `topic`); the first time and topic are kept. All of
        them or none (one transaction)."""
        now = time.time()
        with self.transaction() as c:
            c.executemany(
                """INSERT INTO user_state (id, seen_at, seen_topic) VALUES (?, ?, ?)
                   ON CONFLICT(id) DO UPDATE
                   SET seen_topic=CASE WHEN user_state.seen_at IS NULL
                                  THEN excluded.seen_topic ELSE user_state.seen_topic END,
                       seen_at=coalesce(user_state.seen_at, excluded.seen_at)""",
                [(i, now, topic) for i in ids],
            )

    def unmark_seen(self, ids: Iterable[str]) -> None:
        """Papers unseen again (an undo); all of them or none."""
        with self.transaction() as c:
            c.executemany("UPDATE user_state SET seen_at=NULL, seen_topic=NULL WHERE id=?",
                          [(i,) for i in ids])

    def set_starred(self, paper_id: str, starred: bool, *, topic: str | None = None) -> None:
        """Star (given under `topic`, None: teaching no topic) or unstar a paper."""
        if starred:
            self.conn.execute(  # starred_at: when it was first starred (kept while starred)
                """INSERT INTO user_state (id, starred, star_topic, starred_at) VALUES (?, 1, ?, ?)
                   ON CONFLICT(id) DO UPDATE SET starred=1, star_topic=excluded.star_topic,
                   starred_at=CASE WHEN user_state.starred=1 AND user_state.starred_at
                                   IS NOT NULL THEN user_state.starred_at
                              ELSE excluded.starred_at END""",
                (paper_id, topic, time.time()),
            )
        else:
            self.conn.execute(
                """INSERT INTO user_state (id, starred) VALUES (?, 0)
                   ON CONFLICT(id) DO UPDATE SET starred=0""", (paper_id,))

    def starred_ids(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT id FROM user_state WHERE starred=1")}

    def mark_saved(self, saved: Iterable[tuple[str, str]], bib_path: Path | str, *,
                   topic: str | None = None) -> None:
        """Record (paper id, citation key) pairs written to bib_path, saved one by one under
        `topic` (None: in bulk, teaching no topic). All of them or none (a kill -9 between
        two rows left some of an export recorded)."""
        now = time.time()
        with self.transaction() as c:
            c.executemany(
                """INSERT INTO user_state (id, saved_at, bib_key, bib_path, saved_topic)
                   VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT(id) DO UPDATE SET saved_at=excluded.saved_at,
                   bib_key=excluded.bib_key, bib_path=excluded.bib_path,
                   saved_topic=excluded.saved_topic""",
                [(pid, now, key, str(bib_path), topic) for pid, key in saved],
            )
