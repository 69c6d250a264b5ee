"""Requests in flight per model and endpoint, across every run in this process.

A run that was cancelled lets its paid requests finish (their answers are cached), and
the reader may start another run meanwhile: together they never have more than
`concurrency` requests in flight. Thread-safe: the reader runs each pass on its own thread.
"""

from __future__ import annotations

import threading

_lock = threading.Lock()
_taken: dict[tuple[str, str], int] = {}


def take(key: tuple[str, str], limit: int) -> bool:
    """Take a slot for one request; False when `limit` requests are already in flight."""
    with _lock:
        if _taken.get(key, 0) >= max(1, limit):
            return False
        _taken[key] = _taken.get(key, 0) + 1
        return True


def give_back(key: tuple[str, str]) -> None:
    with _lock:
        left = _taken.get(key, 0) - 1
        if left > 0:
            _taken[key] = left
        else:
            _taken.pop(key, None)


def in_flight(key: tuple[str, str]) -> int:
    with _lock:
        return _taken.get(key, 0)
