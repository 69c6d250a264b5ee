"""The reader's search box at scale, per keystroke: a cache of N synthetic papers (default
20,000, built as `bench_library.py` builds it: 30 words, so every prefix matches nearly every
paper, the worst case); the reader started on it (`paperterm --offline`, headless, through
Pilot), `F` pressed and a query typed one letter every `--every` seconds, each key sent as a
terminal's key arrives. For each key: the time until the box is drawn showing the letter
(what the hand waits for); after the last key: the time until the box's results are those
of the whole query.

Two source trees take turns in every round (default: this tree, and `--old SRC` if given),
so both see the same load from other programs.

Usage: python benchmarks/bench_search_box.py [N] [--home DIR] [--old /tmp/old/src]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_library import QUERY, ROOT, env_for, home_with

CHILD = r"""
import asyncio, json, sys, time
from textual import events
from textual.widgets import Input
import paperterm.tui.app as tui_app

EVERY, QUERY = float(sys.argv[1]), sys.argv[2]
KEYS = {" ": "space", '"': "quotation_mark", "-": "minus", "*": "asterisk"}
drawn = {}  # the box's text -> when a line of the box was first drawn showing it
render_line = Input.render_line

def drawing(self, y):
    strip = render_line(self, y)
    drawn.setdefault(self.value, time.perf_counter())
    return strip

Input.render_line = drawing

async def drive(app):
    async with app.run_test(headless=True, size=(140, 45)) as pilot:
        day = app.screen
        for _ in range(500):  # the day's first paint
            if getattr(day, "shown", None):
                break
            await pilot.pause(0.01)
        await pilot.press("F")
        screen = app.screen
        echo = []
        for i, ch in enumerate(QUERY):
            want = QUERY[: i + 1]
            t = time.perf_counter()
            key = events.Key(KEYS.get(ch, ch), ch)  # as a terminal's key arrives
            key.set_sender(app)
            app._driver.send_message(key)
            while want not in drawn:
                await asyncio.sleep(0.0005)
            echo.append(drawn[want] - t)
            rest = EVERY - (time.perf_counter() - t)
            if rest > 0 and i < len(QUERY) - 1:
                await asyncio.sleep(rest)
        t = time.perf_counter()
        def done():
            return (screen.hits and getattr(screen, "_query", None) is None
                    and getattr(screen, "_typing", None) is None)
        while not done():
            await asyncio.sleep(0.001)
        results = time.perf_counter() - t
        print(json.dumps({"echo": echo, "results": results, "hits": len(screen.hits)}),
              flush=True)
        app.exit(0)

class Bench(tui_app.PapertermApp):
    def run(self, *args, **kwargs):
        asyncio.run(drive(self))
        return 0

tui_app.PapertermApp = Bench
from paperterm.cli import main
main(["--offline"])
"""


def run_child(env: dict[str, str], every: float) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", CHILD, str(every), QUERY], env=env,
                          capture_output=True, text=True, timeout=300)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("{")), None)
    if line is None:
        raise SystemExit(f"child failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    return json.loads(line)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=20_000)
    ap.add_argument("--home", type=Path, help="keep the built cache here (reused next time)")
    ap.add_argument("--old", type=Path, help="another tree's src/ to take turns with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--every", type=float, default=0.15, help="seconds between keys")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="paperterm-bench-") as tmp:
        home, today = home_with(args.n, args.home or Path(tmp) / "large")
        trees = {"this tree": ROOT / "src", **({"old": args.old} if args.old else {})}
        got: dict[str, dict[str, list[float]]] = {k: {"echo": [], "results": []} for k in trees}
        for _ in range(args.rounds):
            for name, src in trees.items():
                env = {**env_for(home, today), "PYTHONPATH": str(src)}
                env.pop("PAPERTERM_LOCAL_RANKING", None)
                r = run_child(env, args.every)
                got[name]["echo"] += r["echo"]  # type: ignore[operator]
                got[name]["results"].append(r["results"])  # type: ignore[arg-type]
    load = os.getloadavg()[0]
    print(f"{args.n:,} papers, {len(QUERY)} keys of {QUERY!r} every {args.every * 1000:.0f} ms, "
          f"{args.rounds} rounds, load average {load:.1f}")
    for name, g in got.items():
        echo = [x * 1000 for x in g["echo"]]
        print(f"{name:>10}: key to echo p50 {statistics.median(echo):.0f} ms, "
              f"p95 {pct(echo, 0.95):.0f} ms, max {max(echo):.0f} ms; last key to its "
              f"results {statistics.median(g['results']) * 1000:.0f} ms (median of rounds)")


if __name__ == "__main__":
    main()
