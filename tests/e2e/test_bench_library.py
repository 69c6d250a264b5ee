"""The library benchmark's first paint (issue 32, item 10) is measured as a user sees it: the
reader on a pseudo-terminal of its own. Its headless child stopped at "the reader needs a
terminal" once the reader checked for one, so the large-cache figure could not be measured
again; this runs it on a one-day cache."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def test_the_first_paint_is_measured_on_a_terminal(tmp_path):
    sys.path.insert(0, str(BENCH))
    try:
        import bench_library
    finally:
        sys.path.remove(str(BENCH))
    home, today = bench_library.home_with(bench_library.PER_DAY, tmp_path / "home")
    seconds, rows, cpu = bench_library.paint_once(bench_library.env_for(home, today))
    assert rows == bench_library.PER_DAY
    assert 0 < seconds < 120 and cpu > 0
