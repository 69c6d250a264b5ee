"""Enrichment in the day screen: the cached signals (Signal column, preview lines, sorts,
the with-code filter) and, when the config's `enrich` names sources, fetching them for the
day on a worker thread (online sources never with --offline).

`Enrichment` is a controller held by the day screen; the work itself is
`paperterm.outputs.enrich.run.enrich`, and the worker reports with an `EnrichmentDone` message."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from paperterm.tui.messages import EnrichmentDone
from paperterm.tui.workers import Target, current_job, post

if TYPE_CHECKING:
    from textual.worker import Worker

    from paperterm.day.session import Session
    from paperterm.models import Paper
    from paperterm.services.storage import Store
    from paperterm.tui.screens.day_view import DayView


class Enrichment:
    def __init__(self, view: DayView) -> None:
        self.view = view
        self.model = view.model
        self._worker: Worker[Any] | None = None

    def show_signals(self, store: Store) -> None:
        """Attach the cached enrichment to the entries; the Signal column shows if any."""
        from paperterm.signals import load_signals

        by_id = self.model.by_id
        for pid, sig in load_signals(store.enrichment, list(by_id)).items():
            by_id[pid].signals = sig
        table = self.view.table
        table.with_signals = any(e.signals for e in self.model.entries)
        table.refresh_entries()

    def start(self) -> None:
        session = self.view.session
        if not session.config.enrich or not self.model.entries \
                or session.day.source == "loading":
            return
        papers = [e.paper for e in self.model.entries]
        # the app's worker, as before: it finishes its writes if another day replaces this
        self._worker = self.view.app.run_worker(
            partial(enrich_in_thread, self.view, session, papers),
            name="enrich", group="enrich", thread=True, exit_on_error=False)

    def done(self, message: EnrichmentDone) -> None:
        if message.worker is not self._worker:
            return
        self.show_signals(self.view.reader.store)
        self.view.refilter()
        if message.problem:
            self.view.reader.say(f"Enrichment incomplete: {message.problem}", "warning",
                                 timeout=8)


def enrich_in_thread(target: Target, session: Session, papers: list[Paper]) -> None:
    from paperterm.outputs.enrich.run import enrich
    req = session.request
    try:
        store = session.open_store()
        try:
            outcome = enrich(store.enrichment, papers, session.config.enrich, day=session.day.day,
                             offline=bool(req is not None and req.offline))
        finally:
            store.close()
        problem = "; ".join(outcome.errors.values())
    except Exception as exc:  # a worker must not die with a traceback on screen
        problem = f"{type(exc).__name__}: {exc}"
    post(target, EnrichmentDone(current_job(), problem))
