"""The user's marks on papers, one entry point for all of them: star, unstar, seen, saved, not
interested, note, tags. Each mark that teaches the ranking (a star, a save one by one, a
read, not interested) is recorded under the topic the service works for. Every change is
published to the subscribers as `MarkChange`s; the last star, unstar, not interested or bulk
seen can be undone.

Plain Python over the store: the reader and the command line both call it. Not thread-safe:
one service per store, used from one thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from paperterm.day.marks import FIELDS, NO_MARKS, Listener, MarkChange, PaperMarks, Value
from paperterm.store import Positive, Store
from paperterm.store.notes import clean_note, clean_tags

Op = Callable[[Store], None]
Write = Callable[[str, Op], "bool | None"]  # (what: "the star of 2602.1", the write); False:
# it failed and is not queued, so the mark is not shown as made
UNDO_DEPTH = 50  # the undo steps kept, latest first
TITLE_CHARS = 60


class _Step(NamedTuple):
    """An undoable change: what it did (for the notice) and how to take it back."""

    did: str  # "starred 2602.12345 (Title)"
    reverse: Callable[[], list[MarkChange]]


class MarksService:
    """Marks read, written, published and undone. `topic`: the topic's name marks are made
    under; `write`: how a write reaches the store (default: at once; the reader passes its
    writer that survives a locked database)."""

    def __init__(self, store: Store, topic: str, *, write: Write | None = None) -> None:
        self.store = store
        self._topic = topic
        self._write = write
        self._listeners: list[Listener] = []
        self._known: dict[str, PaperMarks] = {}  # as last read or written
        self._undo: list[_Step] = []

    # -- the topic ------------------------------------------------------------------------

    @property
    def topic(self) -> str:
        return self._topic

    def switch_topic(self, topic: str) -> None:
        """Make later marks under `topic`; "dismissed" is then read for it (the marks known
        so far are forgotten: read them again with `marks`). What can be undone stays: each
        step takes its mark back under the topic it was made under."""
        self._topic = topic
        self._known.clear()

    # -- subscribers ----------------------------------------------------------------------

    def subscribe(self, fn: Listener) -> Callable[[], None]:
        """Call `fn` with every batch of changes from now on; returns the unsubscribe."""
        self._listeners.append(fn)

        def unsubscribe() -> None:
            if fn in self._listeners:
                self._listeners.remove(fn)

        return unsubscribe

    def _publish(self, changes: list[MarkChange]) -> list[MarkChange]:
        changes = [c for c in changes if c.ids]
        for c in changes:
            for pid in c.ids:
                self._known[pid] = self._known.get(pid, NO_MARKS).with_value(c.field, c.value)
        if changes:
            for fn in list(self._listeners):
                fn(changes)
        return changes

    # -- reading --------------------------------------------------------------------------

    def _read(self, ids: Sequence[str]) -> dict[str, PaperMarks]:
        return read_marks(self.store, ids, self._topic)

    def marks(self, ids: Iterable[str]) -> dict[str, PaperMarks]:
        """The marks of these papers, read from the store (and remembered, for `reload`)."""
        got = self._read(list(dict.fromkeys(ids)))
        self._known.update(got)
        return got

    def _current(self, ids: Sequence[str]) -> dict[str, PaperMarks]:
        """What the service last read or wrote (writes may still wait behind a lock), else
        the store's."""
        missing = [pid for pid in ids if pid not in self._known]
        if missing:
            self.marks(missing)
        return {pid: self._known[pid] for pid in ids}

    def reload(self, ids: Iterable[str],
               fresh: Mapping[str, PaperMarks] | None = None) -> list[MarkChange]:
        """Read these papers' marks again (another process may have changed them) and
        publish what differs from what the service knew (papers it never read: from no
        marks). `fresh`: the marks already read (`read_marks`, on another thread and
        connection: the reader reads 5,000 papers' marks off its UI thread). Returns the
        changes published."""
        ids = list(dict.fromkeys(ids))
        if fresh is None:
            fresh = self._read(ids)
        known = self._known
        differ = [pid for pid in ids if pid in fresh and known.get(pid, NO_MARKS) != fresh[pid]]
        changes = []
        for field in FIELDS:
            by_value: dict[Value, list[str]] = {}
            for pid in differ:
                value = fresh[pid].get(field)
                if known.get(pid, NO_MARKS).get(field) != value:
                    by_value.setdefault(value, []).append(pid)
            changes += [MarkChange(tuple(pids), field, v) for v, pids in by_value.items()]
        for pid in ids:  # remembered: changed, or never read before
            if pid in fresh and (pid not in known or known[pid] != fresh[pid]):
                known[pid] = fresh[pid]
        return self._publish(changes)

    # -- writing --------------------------------------------------------------------------

    def _run(self, what: str, op: Op) -> bool:
        """Write (or queue behind a lock); False when the write failed: the caller then
        publishes nothing, so a mark that cannot be saved is never shown as made."""
        if self._write is None:
            op(self.store)
            return True
        return self._write(what, op) is not False

    def _describe(self, verb: str, ids: Sequence[str]) -> str:
        if len(ids) == 1:
            title = ""
            try:
                paper = self.store.library.cached_papers(ids).get(ids[0])
            except Exception:  # a title is a nicety: an unreadable cache only loses it
                paper = None
            if paper is not None:
                title = " ".join(paper.title.split())
                if len(title) > TITLE_CHARS:
                    title = title[: TITLE_CHARS - 1] + "…"
            return f"{verb} {ids[0]}" + (f" ({title})" if title else "")
        shown = ", ".join(ids[:3]) + (", …" if len(ids) > 3 else "")
        return f"{verb} {len(ids)} papers ({shown})"

    def _remember(self, did: str, reverse: Callable[[], list[MarkChange]]) -> None:
        self._undo.append(_Step(did, reverse))
        del self._undo[:-UNDO_DEPTH]

    def _set_stars(self, wanted: Mapping[str, tuple[bool, str | None]]) -> list[MarkChange]:
        """Write (starred, topic) per paper; the changes published."""
        if not wanted:
            return []

        def op(store: Store) -> None:
            with store.transaction():
                for pid, (on, topic) in wanted.items():
                    store.marks.set_starred(pid, on, topic=topic)

        ids = list(wanted)
        if not self._run(self._describe("the star of", ids), op):
            return []
        on = tuple(pid for pid, (s, _) in wanted.items() if s)
        off = tuple(pid for pid, (s, _) in wanted.items() if not s)
        return self._publish([MarkChange(on, "starred", True), MarkChange(off, "starred", False)])

    def _star(self, ids: Sequence[str], starred: bool) -> list[MarkChange]:
        ids = list(dict.fromkeys(ids))
        before = self._current(ids)
        topics = self.store.marks.states(ids)
        prior = {pid: (before[pid].starred, topics[pid].star_topic if pid in topics else None)
                 for pid in ids}
        wanted: dict[str, tuple[bool, str | None]]
        if starred:  # a star given again under this topic now teaches this topic
            wanted = {pid: (True, self._topic) for pid in ids}
        else:
            wanted = {pid: (False, prior[pid][1]) for pid in ids if before[pid].starred}
        if not wanted:
            return []
        changes = self._set_stars(wanted)
        if not changes:  # not saved: nothing to undo
            return []
        restore = {pid: prior[pid] for pid in wanted}
        self._remember(self._describe("starred" if starred else "unstarred", list(wanted)),
                       lambda: self._set_stars(restore))
        return changes

    def starred_elsewhere(self, ids: Sequence[str]) -> dict[str, str]:
        """The papers among `ids` starred under another topic than the service's: the topic
        each is starred under (a star given here moves to this topic; say so)."""
        states = self.store.marks.states(list(dict.fromkeys(ids)))
        return {pid: st.star_topic for pid, st in states.items()
                if st.starred and st.star_topic and st.star_topic != self._topic}

    def star(self, ids: Sequence[str]) -> list[MarkChange]:
        """Star these papers under the service's topic (the reading list is one for every
        topic; the star teaches this topic only). Undoable."""
        return self._star(ids, True)

    def unstar(self, ids: Sequence[str]) -> list[MarkChange]:
        """Unstar these papers. Undoable (the star comes back under its topic)."""
        return self._star(ids, False)

    def toggle_star(self, ids: Sequence[str]) -> list[MarkChange]:
        """Unstar these papers if all are starred, else star them all."""
        current = self._current(list(dict.fromkeys(ids)))
        if current and all(m.starred for m in current.values()):
            return self.unstar(ids)
        return self.star(ids)

    def _set_seen(self, ids: Sequence[str], seen: bool, topic: str | None) -> list[MarkChange]:
        def op(store: Store) -> None:
            with store.transaction():
                if seen:
                    store.marks.mark_seen(ids, topic=topic)
                else:
                    store.marks.unmark_seen(ids)

        if not self._run("the seen marks", op):
            return []
        return self._publish([MarkChange(tuple(ids), "seen", seen)])

    def mark_seen(self, ids: Sequence[str], *, undoable: bool = False) -> list[MarkChange]:
        """Mark papers seen (read under the service's topic). `undoable`: one step for
        `undo` (a bulk "mark all above seen"); the cursor's passing is not."""
        current = self._current(list(dict.fromkeys(ids)))
        new = [pid for pid, m in current.items() if not m.seen]
        if not new:
            return []
        changes = self._set_seen(new, True, self._topic)
        if undoable and changes:
            did = self._describe("marked seen", new) if len(new) == 1 else (
                f"marked {len(new)} papers seen")
            self._remember(did, lambda: self._set_seen(new, False, None))
        return changes

    def mark_saved(self, saved: Sequence[tuple[str, str]], bib_path: Path | str, *,
                   one_by_one: bool = True) -> list[MarkChange]:
        """Record (paper id, citation key) pairs written to `bib_path`. Saved `one_by_one`
        (chosen papers): a signal for the service's topic; else (a selection such as every
        starred paper) no topic's."""
        saved = list(saved)
        if not saved:
            return []
        topic = self._topic if one_by_one else None
        path = str(bib_path)
        if not self._run("the saved marks",
                         lambda store: store.marks.mark_saved(saved, path, topic=topic)):
            return []
        return self._publish([MarkChange(tuple(dict.fromkeys(p for p, _ in saved)), "saved",
                                         True)])

    def _set_dismissed(self, ids: Sequence[str], dismissed: bool,
                       topic: str) -> list[MarkChange]:
        def op(store: Store) -> None:
            with store.transaction():  # all of them or none, whenever the process dies
                for pid in ids:
                    store.marks.set_dismissed(pid, topic, dismissed)

        if not self._run(self._describe("not interested in", ids), op):
            return []
        if topic != self._topic:  # undone after a switch: nothing shown changes
            return []
        return self._publish([MarkChange(tuple(ids), "dismissed", dismissed)])

    def set_dismissed(self, ids: Sequence[str], dismissed: bool) -> list[MarkChange]:
        """Mark papers "not interested" for the service's topic (or interested again).
        Undoable."""
        current = self._current(list(dict.fromkeys(ids)))
        changed = [pid for pid, m in current.items() if m.dismissed != dismissed]
        if not changed:
            return []
        topic = self._topic
        changes = self._set_dismissed(changed, dismissed, topic)
        if not changes:
            return []
        verb = f"not interested ({topic}) in" if dismissed else f"interested again ({topic}) in"
        self._remember(self._describe(verb, changed),
                       lambda: self._set_dismissed(changed, not dismissed, topic))
        return changes

    def toggle_dismissed(self, ids: Sequence[str]) -> list[MarkChange]:
        """Interested again if all are dismissed, else not interested in them all."""
        current = self._current(list(dict.fromkeys(ids)))
        return self.set_dismissed(ids, not (current and all(m.dismissed
                                                             for m in current.values())))

    def set_note(self, paper_id: str, body: str) -> list[MarkChange]:
        """Replace the paper's note (an empty one deletes it)."""
        note = clean_note(body)
        topic = self._topic
        if not self._run(f"the note on {paper_id}",
                         lambda store: store.marks.set_note(paper_id, note, topic=topic)):
            return []
        return self._publish([MarkChange((paper_id,), "note", note)])

    def set_tags(self, paper_id: str, tags: Iterable[str]) -> list[MarkChange]:
        """Replace the paper's tags (normalised: "Reading Group" -> "reading-group")."""
        wanted, topic = clean_tags(tags), self._topic

        def op(store: Store) -> None:
            store.marks.set_tags(paper_id, wanted, topic=topic)

        if not self._run(f"the tags of {paper_id}", op):
            return []
        return self._publish([MarkChange((paper_id,), "tags", tuple(wanted))])

    def record_positives(self, source: str, positives: Iterable[Positive]) -> tuple[int, int]:
        """Make `positives` (papers kept in a library or file, `paperterm learn`) what
        `source` teaches the service's topic. Returns (now recorded, newly added)."""
        return self.store.library.replace_positives(source, positives, self._topic)

    # -- undo -----------------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        """Whether `undo` has a step to take back."""
        return bool(self._undo)

    def undo(self) -> str | None:
        """Take back the last star, unstar, not interested or bulk seen (publishing the
        reverse change); what was undone ("Undid: starred 2602.12345 (Title)"), None when
        there is nothing to undo."""
        if not self._undo:
            return None
        step = self._undo.pop()
        step.reverse()
        return f"Undid: {step.did}"


def read_marks(store: Store, ids: Sequence[str], topic: str) -> dict[str, PaperMarks]:
    """Everything marked on these papers, as `store` has it ("dismissed": for `topic`).
    Any thread with its own store may call it (`MarksService.reload` takes the result)."""
    marks = store.marks
    states, notes, tags = marks.states(ids), marks.notes(ids), marks.tags(ids)
    dismissed = marks.dismissed_ids(topic)
    out = {}
    for pid in ids:
        st = states.get(pid)
        out[pid] = PaperMarks(
            starred=bool(st and st.starred), saved=bool(st and st.saved),
            seen=bool(st and st.seen), dismissed=pid in dismissed,
            note=notes.get(pid, ""), tags=tuple(tags.get(pid, ())))
    return out
