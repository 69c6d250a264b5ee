"""Waiting on a condition instead of sleeping a fixed time: `wait_for` polls `condition`
until it holds or `timeout` seconds pass (then the test fails saying what it waited for)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(condition: Callable[[], T], timeout: float = 10.0, *, every: float = 0.01,
             what: str = "condition") -> T:
    """The first truthy value of `condition()`, polled every `every` seconds; AssertionError
    when none comes within `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what} not reached in {timeout:g} s")
        time.sleep(every)


def until_the_clock_moves() -> None:
    """Return once `time.time()` reads later than at the call: what is written next has a
    later timestamp."""
    start = time.time()
    wait_for(lambda: time.time() > start, every=0.001, what="the clock moving")
