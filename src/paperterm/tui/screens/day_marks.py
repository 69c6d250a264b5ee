"""The day screen's marks as the store has them: seen, starred, saved and their citation
keys, "not interested" under the screen's topic, and which kept papers came back revised
(services.history). A controller held by the day screen; marks given here go through the
marks service (screens/paper_actions.py, triage.py)."""

from __future__ import annotations

from paperterm.services.history import mark_history
from paperterm.tui.screens.day_view import DayController


class DayMarks(DayController):
    def load(self) -> None:
        """Every mark of the day's papers, read once when the screen opens."""
        store = self.view.reader.store
        by_id = self.view.model.by_id
        for pid, st in store.marks.states(by_id).items():
            e = by_id.get(pid)
            if e is not None:
                e.seen, e.starred, e.saved, e.bib_key = st.seen, st.starred, st.saved, st.bib_key
        mark_history(store, by_id, self.session.day, self.view.model.topic.follow)
        self.load_dismissed()

    def load_dismissed(self) -> None:
        """Which papers are marked "not interested" under the screen's topic."""
        view = self.view
        try:
            dismissed = view.reader.store.marks.dismissed_ids(view.model.topic.name)
        except Exception:  # an unreadable store loses only the trace of the marks
            dismissed = set()
        for e in view.model.entries:
            e.dismissed = e.id in dismissed

    def reload_keys(self) -> None:
        """The citation keys of the saved papers as the store has them (after the marks
        service re-read the marks: another program may have saved some)."""
        by_id = self.view.model.by_id
        for pid, st in self.view.reader.store.marks.states(by_id).items():
            e = by_id.get(pid)
            if e is not None and e.saved:
                e.bib_key = st.bib_key
