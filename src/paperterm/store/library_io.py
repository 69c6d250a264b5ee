"""Everything the user made (stars, seen, saved, notes, tags; the topic each star, save and
read teaches; followed authors, "not interested" marks and `learn` records), as plain records
to export and merge back, with each paper's cached metadata so that another machine can use
them."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from paperterm.models import Paper
from paperterm.store.fts import reindex
from paperterm.store.library import LibraryQueries
from paperterm.store.notes import clean_note, normal_tag
from paperterm.store.papers import _paper_row

FORMAT = "paperterm-library"
FORMAT_VERSION = 1


@dataclass
class ImportCounts:
    """What an import changed; a file imported twice changes nothing the second time."""

    papers: int = 0  # records read
    changed: int = 0  # records that added or changed something (a mark, a note, the paper)
    added_papers: int = 0  # papers that were not cached yet
    starred: int = 0  # stars that were not there
    notes: int = 0  # notes set or extended
    tags: int = 0  # tags that were not there

    @property
    def unchanged(self) -> int:
        return self.papers - self.changed


def _paper_record(p: Paper) -> dict[str, object]:
    return {"version": p.version, "title": p.title, "authors": list(p.authors),
            "abstract": p.abstract, "categories": list(p.categories),
            "primary_category": p.primary_category, "doi": p.doi,
            "journal_ref": p.journal_ref, "comment": p.comment, "published": p.published}


class LibraryIO(LibraryQueries):
    """The export and import of the user's library; reads papers through LibraryQueries."""

    def library_records(self) -> list[dict[str, object]]:
        """One record per paper the user did anything with, sorted by id."""
        c = self.conn
        rec: dict[str, dict[str, Any]] = {}

        def at(pid: str) -> dict[str, Any]:
            return rec.setdefault(pid, {"id": pid, "starred": False, "seen_at": None,
                                        "saved_at": None, "bib_key": None, "bib_path": None,
                                        "star_topic": None, "saved_topic": None,
                                        "seen_topic": None, "note": "", "tags": []})

        for r in c.execute("SELECT * FROM user_state"):
            at(r["id"]).update(starred=bool(r["starred"]), seen_at=r["seen_at"],
                               saved_at=r["saved_at"], bib_key=r["bib_key"],
                               bib_path=r["bib_path"], star_topic=r["star_topic"],
                               saved_topic=r["saved_topic"], seen_topic=r["seen_topic"])
        for r in c.execute("SELECT id, body FROM notes"):
            at(r[0])["note"] = r[1]
        for r in c.execute("SELECT id, tag FROM tags ORDER BY tag"):
            at(r[0])["tags"].append(r[1])
        # papers marked "not interested" or recorded by `learn`: their metadata travels too
        for r in c.execute("SELECT id FROM dismissals UNION SELECT id FROM positives"):
            at(r[0])
        papers = self.cached_papers(list(rec))
        days = self.paper_days(list(rec))
        for pid, r in rec.items():
            if pid in papers:
                r["day"] = days.get(pid)
                r["paper"] = _paper_record(papers[pid])
        return [rec[k] for k in sorted(rec)]

    def import_records(self, records: Sequence[dict[str, object]],
                       papers: Sequence[Paper], days: dict[str, str]) -> ImportCounts:
        """Merge records (already validated) into the store, in one transaction: stars and
        tags are added, the earliest seen/saved time wins, a different note is appended to
        the local one; each mark keeps the topic it teaches (the local star's, else the
        imported one's; the saved and seen time's). `papers` not cached yet are added."""
        counts = ImportCounts(papers=len(records))
        now = time.time()
        ids = list(dict.fromkeys(str(r["id"]) for r in records))
        with self.transaction() as c:
            before = self._marks_of(ids)
            have = {r[0] for r in self.select_in(
                "SELECT DISTINCT id FROM papers WHERE id IN ({marks})", (),
                [p.id for p in papers])}
            new = [p for p in papers if p.id not in have]
            c.executemany(
                "INSERT OR IGNORE INTO papers (id, version, title, authors, abstract, categories,"
                " primary_category, doi, journal_ref, comment, published, first_seen)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", [_paper_row(p, now) for p in new])
            counts.added_papers = len(new)
            for r in records:
                pid = str(r["id"])
                c.execute(
                    """INSERT INTO user_state (id, seen_at, starred, saved_at, bib_key, bib_path,
                       star_topic, saved_topic, seen_topic)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET
                       seen_at = CASE WHEN user_state.seen_at IS NULL THEN excluded.seen_at
                                 ELSE min(user_state.seen_at, coalesce(excluded.seen_at,
                                 user_state.seen_at)) END,
                       seen_topic = CASE WHEN user_state.seen_at IS NULL
                                    OR excluded.seen_at < user_state.seen_at
                                    THEN excluded.seen_topic ELSE user_state.seen_topic END,
                       star_topic = CASE WHEN user_state.starred = 1 THEN user_state.star_topic
                                    ELSE excluded.star_topic END,
                       saved_topic = CASE WHEN user_state.saved_at IS NULL
                                     THEN excluded.saved_topic ELSE user_state.saved_topic END,
                       starred = max(user_state.starred, excluded.starred),
                       saved_at = coalesce(user_state.saved_at, excluded.saved_at),
                       bib_key = coalesce(user_state.bib_key, excluded.bib_key),
                       bib_path = coalesce(user_state.bib_path, excluded.bib_path)""",
                    (pid, r.get("seen_at"), int(bool(r.get("starred"))), r.get("saved_at"),
                     r.get("bib_key"), r.get("bib_path"), r.get("star_topic"),
                     r.get("saved_topic"), r.get("seen_topic")))
                note = clean_note(str(r.get("note") or ""))
                if note:
                    old = c.execute("SELECT body FROM notes WHERE id=?", (pid,)).fetchone()
                    if old is None or not old[0]:
                        body = note
                    elif note in old[0]:
                        body = old[0]
                    else:
                        body = f"{old[0]}\n\n{note}"
                    c.execute("INSERT OR REPLACE INTO notes (id, body, updated_at) "
                              "VALUES (?, ?, ?)", (pid, body, now))
                given = cast("list[object]", r.get("tags") or [])  # validated: a list
                tags = {normal_tag(str(t)) for t in given} - {""}
                c.executemany("INSERT OR IGNORE INTO tags (id, tag, created_at) VALUES (?,?,?)",
                              [(pid, t, now) for t in sorted(tags)])
            c.executemany(  # the day it was announced, so --day and the day column keep it
                "INSERT OR IGNORE INTO announcements VALUES ('library', ?, 0, ?, ?, 'new')",
                [(days[p.id], p.id, p.version or 0) for p in new if days.get(p.id)])
            reindex(c, [str(r["id"]) for r in records])
            after = self._marks_of(ids)
        added = {p.id for p in new}
        for pid in ids:
            (star0, *_), note0, tags0 = before.get(pid, ((0,), "", frozenset()))
            (star1, *_), note1, tags1 = after[pid]
            counts.changed += before.get(pid) != after[pid] or pid in added
            counts.starred += bool(star1) and not star0
            counts.notes += note1 != note0
            counts.tags += len(tags1 - tags0)
        return counts

    def _marks_of(self, ids: Sequence[str],
                  ) -> dict[str, tuple[tuple[object, ...], str, frozenset[str]]]:
        """Per paper with any mark: (its user_state row, starred first; note; tags)."""
        cols = ("starred, seen_at, saved_at, bib_key, bib_path, star_topic, saved_topic, "
                "seen_topic")
        out: dict[str, tuple[tuple[object, ...], str, frozenset[str]]] = {}
        states = {r[0]: tuple(r[1:]) for r in self.select_in(
            f"SELECT id, {cols} FROM user_state WHERE id IN ({{marks}})", (), ids)}
        notes = {r[0]: r[1] for r in self.select_in(
            "SELECT id, body FROM notes WHERE id IN ({marks})", (), ids)}
        tags: dict[str, set[str]] = {}
        for r in self.select_in("SELECT id, tag FROM tags WHERE id IN ({marks})", (), ids):
            tags.setdefault(r[0], set()).add(r[1])
        for pid in states.keys() | notes.keys() | tags.keys():
            out[pid] = (states.get(pid, (0,)), notes.get(pid, ""),
                        frozenset(tags.get(pid, ())))
        return out


# what the ranking learned from besides the marks above: table -> its columns, as exported
LEARNED = {
    "followed_authors": ("key", "name", "added_at"),
    "not_interested": ("id", "topic", "dismissed_at"),
    "positives": ("id", "source", "topic", "title", "abstract", "added_at"),
}
_TABLES = {"followed_authors": "followed_authors", "not_interested": "dismissals",
           "positives": "positives"}


class LearnedIO(LibraryIO):
    """Followed authors, "not interested" marks and `learn` positives: exported with the
    library and merged back (a row already there is kept)."""

    def learned_records(self) -> dict[str, list[dict[str, object]]]:
        out: dict[str, list[dict[str, object]]] = {}
        for name, cols in LEARNED.items():
            rows = self.conn.execute(
                f"SELECT {', '.join(cols)} FROM {_TABLES[name]} ORDER BY {cols[0]}")
            out[name] = [dict(zip(cols, r, strict=True)) for r in rows]
        return out

    def import_learned(self, learned: dict[str, list[dict[str, object]]]) -> int:
        """Merge validated rows (`LEARNED`'s columns); how many were not there yet."""
        added = 0
        with self.transaction() as c:
            for name, cols in LEARNED.items():
                for row in learned.get(name, ()):
                    cur = c.execute(
                        f"INSERT OR IGNORE INTO {_TABLES[name]} ({', '.join(cols)}) "
                        f"VALUES ({', '.join('?' * len(cols))})", [row[k] for k in cols])
                    added += cur.rowcount
        return added


def dumps(records: list[dict[str, object]], exported_at: str,
          learned: dict[str, list[dict[str, object]]] | None = None) -> str:
    doc: dict[str, object] = {"format": FORMAT, "version": FORMAT_VERSION,
                              "exported_at": exported_at, "papers": records}
    if learned is not None:
        doc["learned"] = learned
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
