"""The user's notes (free multi-line text) and tags on papers, kept in the full-text index."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable

from paperterm.store.db import Queries
from paperterm.store.fts import reindex
from paperterm.text.hygiene import clean_text

_TAG = re.compile(r"[^\w.+/-]+")


def normal_tag(text: str) -> str:
    """A tag as stored: lower case, no spaces ("Reading Group" -> "reading-group")."""
    return _TAG.sub("-", text.strip().lower()).strip("-")


def clean_tags(tags: Iterable[str]) -> list[str]:
    """Tags as stored: normalised, sorted, without duplicates or empty ones."""
    return sorted({t for t in (normal_tag(t) for t in tags) if t})


def clean_note(text: str) -> str:
    """A note as stored: lines kept, controls and escapes removed, trailing space trimmed."""
    lines = [clean_text(line).rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    return "\n".join(lines).strip("\n")


class NoteQueries(Queries):
    def note(self, paper_id: str) -> str:
        row = self.conn.execute("SELECT body FROM notes WHERE id=?", (paper_id,)).fetchone()
        return row[0] if row else ""

    def notes(self, ids: Iterable[str]) -> dict[str, str]:
        return {r[0]: r[1] for r in self.select_in(
            "SELECT id, body FROM notes WHERE id IN ({marks})", (), list(ids))}

    def set_note(self, paper_id: str, body: str, *, topic: str | None = None) -> None:
        """Replace the note (an empty one deletes it); `topic`: the one it was written under."""
        body = clean_note(body)
        with self.transaction() as c:
            if body:
                c.execute("""INSERT INTO notes (id, body, updated_at, topic) VALUES (?, ?, ?, ?)
                             ON CONFLICT(id) DO UPDATE SET body=excluded.body,
                             updated_at=excluded.updated_at, topic=excluded.topic""",
                          (paper_id, body, time.time(), topic))
            else:
                c.execute("DELETE FROM notes WHERE id=?", (paper_id,))
            reindex(c, [paper_id])

    def tags(self, ids: Iterable[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for r in self.select_in("SELECT id, tag FROM tags WHERE id IN ({marks}) ORDER BY tag",
                                (), list(ids)):
            out.setdefault(r[0], []).append(r[1])
        return out

    def set_tags(self, paper_id: str, tags: Iterable[str], *,
                 topic: str | None = None) -> list[str]:
        """Replace the paper's tags; returns them as stored. `topic`: the one they were
        given under."""
        wanted = clean_tags(tags)
        now = time.time()
        with self.transaction() as c:
            c.execute("DELETE FROM tags WHERE id=?", (paper_id,))
            c.executemany("INSERT INTO tags (id, tag, created_at, topic) VALUES (?, ?, ?, ?)",
                          [(paper_id, t, now, topic) for t in wanted])
            reindex(c, [paper_id])
        return wanted
