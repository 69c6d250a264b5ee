"""What the day screen does to the paper under the cursor (or the marked ones): star, mark,
save to the .bib file, copy its BibTeX, open it in the browser.

A mixin of `DayScreen`. The BibTeX work itself is in `paperterm.tui.bib_actions`; this only
applies the outcome to the list and the store, and says it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from paperterm.listing import Entry
from paperterm.models import Topic
from paperterm.session import Session
from paperterm.tui.text import one_line

if TYPE_CHECKING:
    from textual.app import App

    from paperterm.tui.bib_actions import BibOptions
    from paperterm.tui.host import Reader
    from paperterm.tui.paper_list import PaperTable
    from paperterm.tui.zotero_actions import ZoteroOutcome


class PaperActions:
    """Marks, BibTeX and links for the day screen."""

    # provided by DayScreen
    session: Session
    entries: list[Entry]
    by_id: dict[str, Entry]
    reader: Reader
    table: PaperTable
    current: Entry | None
    app: App[int]
    topic: Topic
    relearn: Callable[[], None]

    if TYPE_CHECKING:  # provided by Triage (declared only: a stub here would shadow it)
        def marks_changed(self) -> None: ...
        def mark_seen(self, entries: list[Entry]) -> int: ...

    def action_toggle_star(self) -> None:
        """Star (and so mark seen) or unstar the paper."""
        e = self.current
        if e is None:
            return
        e.starred = not e.starred
        pid, starred = e.id, e.starred
        self.reader.write_store(f"the star of {pid}",
                                lambda store: store.set_starred(pid, starred))
        if not (starred and self.mark_seen([e])):
            self.marks_changed()
        self.relearn()  # stars are what the local ranking learns from

    def action_not_interested(self) -> None:
        """Tell the local ranking this paper is not for the current topic (again: undo)."""
        e = self.current
        store = self.reader.store
        if e is None or store is None:
            if store is None:
                self.reader.say("No database: paperterm cannot remember this.", "warning")
            return
        pid, topic = e.id, self.topic.name
        dismissed = pid not in store.dismissed_ids(topic)
        self.reader.write_store(f"not interested in {pid}",
                                lambda s: s.set_dismissed(pid, topic, dismissed))
        title = one_line(e.paper.title)[:60]
        self.reader.say(f"Not interested ({topic}): {title}; ranked lower from now on"
                        if dismissed else f"Interested again ({topic}): {title}", timeout=4)
        self.relearn()

    def action_toggle_mark(self) -> None:
        """Mark or unmark the paper, then go on to the next one (triage)."""
        e = self.current
        if e is None:
            return
        e.marked = not e.marked
        self.marks_changed()
        table = self.table
        if table.cursor + 1 < len(table.entries):
            table.moved_by_user = True
            table.move_to(table.cursor + 1)  # the paper marked is seen as the cursor leaves

    def action_clear_marks(self) -> None:
        for e in self.entries:
            e.marked = False
        self.marks_changed()

    def targets(self) -> list[Entry]:
        """The marked papers (announcement order), else the one under the cursor."""
        marked = [e for e in self.entries if e.marked]
        if marked:
            return marked
        return [self.current] if self.current is not None else []

    def _bib_options(self) -> BibOptions:
        from paperterm.tui.bib_actions import BibOptions  # on first use

        return BibOptions.from_config(self.session.config.bibtex,
                                      unicode=self.session.unicode_bib)

    def action_save_bib(self) -> None:
        targets = self.targets()
        if not targets:
            return
        from paperterm.tui.bib_actions import save_papers

        outcome = save_papers([e.paper for e in targets], self.session.bib_path,
                              self._bib_options())
        if outcome.error:
            self.reader.say(outcome.message, "error", timeout=12)
            return
        if outcome.in_file:
            in_file, path = list(outcome.in_file), outcome.path
            self.reader.write_store("the saved marks",
                                    lambda store: store.mark_saved(in_file, path))
        for pid, key in outcome.in_file:
            e = self.by_id.get(pid)
            if e is not None:
                e.saved, e.bib_key, e.marked = True, key, False
        self.reader.say(outcome.message, "information", timeout=8)
        for warning in outcome.warnings:
            self.reader.say(warning, "warning")
        self.marks_changed()

    def action_copy_bibtex(self) -> None:
        e = self.current
        if e is None:
            return
        from paperterm.tui.bib_actions import bibtex_clipping
        from paperterm.tui.copying import copy_text

        clip = bibtex_clipping(e.paper, e.bib_key, self._bib_options())
        copy_text(self.reader, clip.text, clip.what)

    def action_export_as(self) -> None:
        """Pick a format in the command palette, then export the marked papers (or this one)."""
        from functools import partial

        from textual.command import SimpleCommand

        from paperterm.tui.export_actions import READER_FORMATS

        if not self.targets():
            return
        commands = [SimpleCommand(fmt, partial(self.export_targets, fmt), help_text)
                    for fmt, help_text in READER_FORMATS.items()]
        self.app.search_commands(commands, placeholder="Export as…")

    def export_targets(self, fmt: str) -> None:
        from paperterm import paths
        from paperterm.tui.export_actions import export_as

        targets = self.targets()
        if not targets:
            return
        outcome = export_as([e.paper for e in targets], fmt, paths.data_dir(),
                            self.session.config.bibtex.key_pattern)
        self.reader.say(outcome.message, "error" if outcome.error else "information",
                        timeout=10)

    def action_send_zotero(self) -> None:
        """Send the marked papers (or this one) to Zotero on a worker thread; marks are
        cleared once Zotero has them."""
        from functools import partial

        targets = self.targets()
        if not targets:
            return
        n = len(targets)
        self.reader.say(f"Sending {n} paper{'s' * (n != 1)} to Zotero…", timeout=3)
        self.app.run_worker(partial(self._zotero_in_thread, targets), name="zotero",
                            group="zotero", thread=True, exit_on_error=False)

    def _zotero_in_thread(self, targets: list[Entry]) -> None:
        from paperterm.tui.zotero_actions import send_to_zotero

        outcome = send_to_zotero([e.paper for e in targets], self.session.config.zotero,
                                 self.session.db_path)
        self.app.call_from_thread(self._zotero_done, targets, outcome)

    def _zotero_done(self, targets: list[Entry], outcome: ZoteroOutcome) -> None:
        if not outcome.error:
            for e in targets:
                e.marked = False
            self.marks_changed()
        self.reader.say(outcome.message, "error" if outcome.error else "information",
                        timeout=12 if outcome.error else 8)

    def _open_url(self, url: str) -> None:
        from paperterm.tui.links import open_link

        open_link(self.reader, url)

    def action_open_abs(self) -> None:
        if self.current is not None:
            self._open_url(self.current.paper.abs_url)

    def action_open_pdf(self) -> None:
        if self.current is not None:
            self._open_url(self.current.paper.pdf_url)
