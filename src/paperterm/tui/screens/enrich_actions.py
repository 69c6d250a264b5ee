"""Enrichment in the day screen: the cached signals (Signal column, preview lines, sorts,
the with-code filter) and, when the config's `enrich` names sources, fetching them for the
day on a worker thread (online sources never with --offline).

A mixin of `DayScreen`; the work itself is `paperterm.enrich.run.enrich`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperterm.listing import Entry
from paperterm.session import Session

if TYPE_CHECKING:
    from textual.app import App

    from paperterm.store import Store
    from paperterm.tui.host import Reader
    from paperterm.tui.paper_list import PaperTable


class EnrichActions:
    # provided by DayScreen
    session: Session
    entries: list[Entry]
    by_id: dict[str, Entry]
    reader: Reader
    table: PaperTable
    app: App[int]

    if TYPE_CHECKING:
        def _refilter(self, *, to_top: bool = False) -> None: ...

    def show_signals(self, store: Store) -> None:
        """Attach the cached enrichment to the entries; the Signal column shows if any."""
        from paperterm.enrich.signals import load_signals

        for pid, sig in load_signals(store, list(self.by_id)).items():
            self.by_id[pid].signals = sig
        self.table.with_signals = any(e.signals for e in self.entries)
        self.table.refresh_entries()

    def start_enrichment(self) -> None:
        sources = list(self.session.config.enrich)
        if not sources or not self.entries or self.session.day.source == "loading":
            return
        self.app.run_worker(self._enrich_in_thread, name="enrich", group="enrich",
                            thread=True, exit_on_error=False)

    def _enrich_in_thread(self) -> None:
        from paperterm.enrich.run import enrich
        from paperterm.store import Store

        req = self.session.request
        try:
            store = Store.open(self.session.db_path)
            try:
                outcome = enrich(store, [e.paper for e in self.entries],
                                 self.session.config.enrich, day=self.session.day.day,
                                 offline=bool(req is not None and req.offline))
            finally:
                store.close()
            problem = "; ".join(outcome.errors.values())
        except Exception as exc:  # a worker must not die with a traceback on screen
            problem = f"{type(exc).__name__}: {exc}"
        self.app.call_from_thread(self._enrich_done, problem)

    def _enrich_done(self, problem: str) -> None:
        store = self.reader.store
        if store is not None:
            self.show_signals(store)
            self._refilter()
        if problem:
            self.reader.say(f"Enrichment incomplete: {problem}", "warning", timeout=8)
