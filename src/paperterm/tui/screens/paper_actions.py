"""What the day screen does to the paper under the cursor (or the marked ones): star, mark,
save to the .bib file, copy its BibTeX, export, send to Zotero, open it in the browser.

`PaperActions` is a controller held by the day screen. The BibTeX, export and Zotero work
itself is in `paperterm.tui.bib_actions`, `export_actions` and `zotero_actions`; this only
applies the outcome to the day model and the store, and says it.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from paperterm.day.listing import Entry
from paperterm.text.hygiene import clean_line
from paperterm.tui.messages import ZoteroDone
from paperterm.tui.screens.day_view import DayController
from paperterm.tui.workers import Target, current_job, post

if TYPE_CHECKING:
    from paperterm.services.storage import StoreFactory
    from paperterm.settings.config import ZoteroConfig
    from paperterm.tui.bib_actions import BibOptions
    from paperterm.tui.screens.day_view import DayView
    from paperterm.tui.screens.scoring import ScoringController
    from paperterm.tui.screens.triage import Triage


class PaperActions(DayController):
    """Marks, BibTeX, exports and links for the day screen."""

    def __init__(self, view: DayView, triage: Triage, scoring: ScoringController) -> None:
        super().__init__(view)
        self.model = view.model
        self.triage = triage
        self.scoring = scoring

    def toggle_star(self, entry: Entry | None = None, *, say: bool = True) -> None:
        """Star (and so mark seen) or unstar the paper (`entry`, else the one under the
        cursor), said (`say`; quick triage's next card says it, its counter stays)."""
        e = entry or self.view.current
        if e is None:
            return
        marks = self.view.reader.marks  # it publishes the change to every open day
        starred = not e.starred  # as the row shows it
        other = marks.starred_elsewhere([e.id]).get(e.id)  # a star given under another topic
        (marks.star if starred else marks.unstar)([e.id])
        if starred:
            self.triage.mark_seen([e])
        title = clean_line(e.paper.title)  # whole: the log keeps it (M)
        if other:  # say which topic's ranking loses it (and, starred here, gains it)
            self._say(f"Starred under topic {marks.topic} (was {other}): {title}" if starred
                      else f"Unstarred (it was starred under topic {other}): {title}",
                      timeout=4)
        elif say:  # as the other marks are: an older notice never stands for the star
            self._say(f"Starred ({marks.topic}): {title}" if starred
                      else f"Unstarred ({marks.topic}): {title}", timeout=4)

    def not_interested(self, entry: Entry | None = None) -> None:
        """Tell the local ranking this paper (`entry`, else the one under the cursor) is not
        for the current topic (again: undo)."""
        e = entry or self.view.current
        store = self.view.reader.store
        if e is None or not store.available:
            if not store.available:
                self._say("No database: paperterm cannot remember this.", "warning")
            return
        topic = self.view.model.topic.name
        changes = self.view.reader.marks.toggle_dismissed([e.id])
        dismissed = any(c.field == "dismissed" and c.value for c in changes)
        title = clean_line(e.paper.title)  # whole: the log keeps it (M)
        self._say(f"Not interested ({topic}): {title}; ranked lower from now on"
                  if dismissed else f"Interested again ({topic}): {title}", timeout=4)

    def toggle_mark(self) -> None:
        """Mark or unmark the paper, then go on to the next one (triage)."""
        e = self.view.current
        if e is None:
            return
        e.marked = not e.marked
        self.view.marks_changed()
        table = self.view.table
        if table.cursor + 1 < len(table.entries):
            table.moved_by_user = True
            table.move_to(table.cursor + 1)  # the paper marked is seen as the cursor leaves

    def clear_marks(self) -> None:
        for e in self.model.entries:
            e.marked = False
        self.view.marks_changed()

    def targets(self) -> list[Entry]:
        """The marked papers (announcement order), else the one under the cursor."""
        marked = [e for e in self.model.entries if e.marked]
        if marked:
            return marked
        current = self.view.current
        return [current] if current is not None else []

    def _bib_options(self) -> BibOptions:
        from paperterm.tui.bib_actions import BibOptions  # on first use

        return BibOptions.from_config(self.session.config.bibtex,
                                      unicode=self.session.unicode_bib)

    def save_bib(self) -> None:
        self.save_entries(self.targets())

    def save_entries(self, targets: list[Entry]) -> None:
        """Save these papers to the .bib file (marked saved, unmarked), and say so."""
        if not targets:
            return
        from paperterm.tui.bib_actions import save_papers

        outcome = save_papers([e.paper for e in targets], self.session.bib_path,
                              self._bib_options())
        if outcome.error:
            self._say(outcome.message, "error", timeout=12)
            return
        for pid, key in outcome.in_file:
            e = self.model.by_id.get(pid)
            if e is not None:
                e.bib_key, e.marked = key, False
        if outcome.in_file and outcome.path is not None:  # chosen one by one: a signal
            self.view.reader.marks.mark_saved(list(outcome.in_file), outcome.path)
        self._say(outcome.message, "information", timeout=8)
        for warning in outcome.warnings:
            self._say(warning, "warning")
        self.view.marks_changed()

    def copy_bibtex(self) -> None:
        e = self.view.current
        if e is None:
            return
        from paperterm.tui.bib_actions import bibtex_clipping
        from paperterm.tui.copying import copy_text

        clip = bibtex_clipping(e.paper, e.bib_key, self._bib_options())
        copy_text(self.view.reader, clip.text, clip.what)

    def export_as(self) -> None:
        """Pick a format in the command palette, then export the marked papers (or this one)."""
        from textual.command import SimpleCommand

        from paperterm.tui.export_actions import READER_FORMATS

        if not self.targets():
            return
        commands = [SimpleCommand(fmt, partial(self.export_targets, fmt), help_text)
                    for fmt, help_text in READER_FORMATS.items()]
        self.view.app.search_commands(commands, placeholder="Export as…")

    def export_targets(self, fmt: str) -> None:
        from paperterm.settings import paths
        from paperterm.tui.export_actions import export_as

        targets = self.targets()
        if not targets:
            return
        outcome = export_as([e.paper for e in targets], fmt, paths.data_dir(),
                            self.session.config.bibtex.key_pattern)
        self._say(outcome.message, "error" if outcome.error else "information", timeout=10)

    def send_zotero(self) -> None:
        """Send the marked papers (or this one) to Zotero on a worker thread; marks are
        cleared once Zotero has them."""
        targets = self.targets()
        if not targets:
            return
        n = len(targets)
        self._say(f"Sending {n} paper{'s' * (n != 1)} to Zotero…", timeout=3)
        # the app's worker: it goes on if another day replaces this screen
        self.view.app.run_worker(
            partial(zotero_in_thread, self.view, targets, self.session.config.zotero,
                    self.session.open_store),
            name="zotero", group="zotero", thread=True, exit_on_error=False)

    def zotero_done(self, message: ZoteroDone) -> None:
        outcome = message.outcome
        if not outcome.error:
            for e in message.targets:
                e.marked = False
            self.view.marks_changed()
        self._say(outcome.message, "error" if outcome.error else "information",
                  timeout=12 if outcome.error else 8)

    def _open_url(self, url: str) -> None:
        from paperterm.tui.links import open_link

        open_link(self.view.reader, url)

    def open_abs(self) -> None:
        if self.view.current is not None:
            self._open_url(self.view.current.paper.abs_url)

    def open_pdf(self) -> None:
        if self.view.current is not None:
            self._open_url(self.view.current.paper.pdf_url)


def zotero_in_thread(target: Target, targets: list[Entry], cfg: ZoteroConfig,
                     open_store: StoreFactory) -> None:
    """Send `targets` to Zotero; every send is a job of its own, each outcome counts."""
    from paperterm.tui.zotero_actions import send_to_zotero

    outcome = send_to_zotero([e.paper for e in targets], cfg, open_store)
    post(target, ZoteroDone(current_job(), targets, outcome))
