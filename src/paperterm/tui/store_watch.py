"""Marks from another program reach the open reader within a second (issue 32, item 4): a
daemon thread with its own connection polls SQLite's `data_version` (a read of the WAL's
shared memory: no query of the tables, no lock taken) every `INTERVAL` seconds and posts
`StoreChanged` to the app when it moved. Nothing else runs while nothing changed, and
nothing here runs on the UI thread (a locked database can only slow this thread down).
The app then reads the open days' marks again (`PapertermApp.on_store_changed`)."""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING

from paperterm.tui.messages import StoreChanged
from paperterm.tui.workers import Target, post

if TYPE_CHECKING:
    from paperterm.services.storage import Store, StoreFactory

INTERVAL = 0.5  # seconds between two looks: a change shows within a second


class StoreWatch:
    """The watching thread: `start` once, `stop` when the reader closes."""

    def __init__(self, target: Target, open_store: StoreFactory,
                 interval: float = INTERVAL) -> None:
        self.target, self.open_store, self.interval = target, open_store, interval
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="store-watch", daemon=True)

    @property
    def started(self) -> bool:
        return self.thread.ident is not None

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        from paperterm.services.storage import open_or_unavailable

        store = open_or_unavailable(self.open_store)
        if not store.available:
            return
        try:
            last = self._version(store)
            while not self._stop.wait(self.interval):
                now = self._version(store)
                if now is not None and now != last:
                    last = now
                    if not post(self.target, StoreChanged(self.thread)):
                        return  # the reader has closed
        finally:
            with contextlib.suppress(Exception):
                store.close()

    @staticmethod
    def _version(store: Store) -> int | None:
        from paperterm.services.storage import data_version

        return data_version(store)  # None: busy, or the file went away; looked at again
