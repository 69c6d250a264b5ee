"""How the reader's threads report: `post(target, message)` from any thread, the one way
(no `call_from_thread`). The message is a `messages.WorkerMessage` carrying its worker."""

from __future__ import annotations

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
