"""Waiting on a condition instead of sleeping a fixed time: `wait_for` polls `condition`
until it holds or `timeout` seconds pass (then the test fails saying what it waited for).
`ChildCpu` counts a deadline in the CPU time a child process was given instead."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(condition: Callable[[], T], timeout: float = 90.0, *, every: float = 0.01,
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


class ChildCpu:
    """The CPU time a child process has had (summed over the children `pid_of` names one
    after another: one that was killed and started again), read from /proc.

    A wait on work done in a child at a lower priority (the ranking process runs at nice 10)
    counts its deadline in this, not in wall-clock time: beside busy processes at nice 0 the
    child gets a twentieth of a core, so a ranking that takes 1.2 s of CPU takes 30 s or more
    to come, while one that never comes still fails once the child has spent its budget."""

    def __init__(self, pid_of: Callable[[], int | None]) -> None:
        self.pid_of = pid_of
        self._seen: dict[int, float] = {}

    def spent(self) -> float:
        pid = self.pid_of()
        if pid is not None:
            used = _cpu_seconds(pid)
            if used is not None:
                self._seen[pid] = used
        return sum(self._seen.values())


def _cpu_seconds(pid: int) -> float | None:
    """User and system time of process `pid` so far (None when it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None
