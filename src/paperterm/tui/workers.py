"""How the reader's threads report: `post(target, message)` from any thread, the one way
(no `call_from_thread`). The message is a `messages.WorkerMessage` carrying its worker."""

from __future__ import annotations

import concurrent.futures
import threading
from typing import Any, Protocol

from textual.message import Message
from textual.worker import NoActiveWorker, Worker, get_current_worker

from paperterm.tui.messages import WorkerMessage


class Target(Protocol):
    """What a thread reports to: a screen, a widget or the app."""

    def post_message(self, message: Message) -> bool: ...


def post(target: Target, message: WorkerMessage) -> bool:
    """Queue `message` for `target` (thread-safe); False if it is gone or the app closed."""
    try:
        return target.post_message(message)
    except RuntimeError:  # the app's event loop has closed
        return False


Job = Worker[Any] | threading.Thread  # what a message's `worker` is


def current_job() -> Job:
    """The job this code runs in: its Textual worker, else its (daemon) thread."""
    try:
        return get_current_worker()
    except NoActiveWorker:
        return threading.current_thread()


class DaemonExecutor(concurrent.futures.ThreadPoolExecutor):
    """The event loop's executor for thread workers: each job on a daemon thread, so quitting
    never waits for one (a ranking blocked for 10 s behind another program's lock on the
    database held `q` for ~19 s: asyncio.run and the interpreter's exit join the default
    executor's threads). A thread cut short at exit has committed nothing it was waiting
    to write; SQLite keeps every transaction whole (issue 31, item 7)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # handed to the awaiting worker, as the pool does
                future.set_exception(exc)

        threading.Thread(target=run, daemon=True, name="paperterm-worker").start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to join: the threads are daemons, one per job."""
