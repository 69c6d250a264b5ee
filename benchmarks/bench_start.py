"""Start-up in a real terminal: the second start of a cached day against a bare Textual app.

    python benchmarks/bench_start.py             # 1,000 and 5,000 papers, 5 runs each
    python benchmarks/bench_start.py --runs 3 --sizes 1000

Each program runs on its own pseudo-terminal (140x45, TERM=xterm-256color; stdin, stdout
and stderr all on the terminal, as in a terminal emulator; nothing is headless). The clock
runs from just before the process is started to the moment the terminal has received ten
different paper titles of the list (each title starts with a unique "P01234" tag, so a
title is only counted once it is really drawn), then `q` is typed and the process must
exit by itself.

- paperterm: `paperterm --topic moe` (local scorer, no model) on a day already in the
  SQLite cache, started once before the timed runs, and the day ranked by `paperterm score
  --offline` (so its local scores are cached too: the first start quits before its ranking
  is done): the second start of the morning.
- bare: a minimal Textual app reading the same titles from a JSON file and showing them in
  a DataTable: the floor any Textual program pays (interpreter, imports, first frame).

Target (issue 10, item 4): paperterm no slower than the bare app.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "arxiv-2026-02-25.xml"
FEED = "cs.AI+cs.LG"
DAY = date(2026, 2, 25)
COLS, ROWS = 140, 45
TITLES_SEEN = 10
TAG = re.compile(rb"P(\d{5}) ")
ANSI = re.compile(rb"\x1b\[[0-9;?<>=$]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07")

BARE = r"""
import json, sys
from textual.app import App
from textual.widgets import DataTable

class Bare(App):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self):
        yield DataTable(cursor_type="row")

    def on_mount(self):
        table = self.query_one(DataTable)
        table.add_columns("Rel", "Title", "First author", "Category")
        with open(sys.argv[1], encoding="utf-8") as f:
            rows = json.load(f)
        table.add_rows(rows)

Bare().run()
"""


def synthetic_papers(n: int):
    from paperterm.sources.feeds import parse_feed

    base = parse_feed(EXAMPLE.read_bytes()).papers
    return [replace(base[i % len(base)], id=f"2602.{i:05d}",
                    title=f"P{i:05d} {base[i % len(base)].title}") for i in range(n)]


def prepare(tmp: Path, n: int) -> Path:
    """A data dir whose cache holds today's announcement of `n` papers; the titles file for
    the bare app."""
    from paperterm.store import Store

    papers = synthetic_papers(n)
    home = tmp / f"home-{n}"
    home.mkdir()
    store = Store(home / "paperterm.sqlite3")
    store.papers.save_day(FEED, DAY, papers, source="rss", fetched_for=DAY)
    store.close()
    rows = [["", p.title, p.authors[0] if p.authors else "", p.primary_category]
            for p in papers]
    (home / "titles.json").write_text(json.dumps(rows), encoding="utf-8")
    return home


def timed_start(argv: list[str], env: dict[str, str], timeout: float = 60.0) -> float:
    """Seconds from starting `argv` on a fresh pty to TITLES_SEEN titles drawn on it."""
    import fcntl
    import pty
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                            start_new_session=True, close_fds=True)
    os.close(slave)
    buf = b""
    seen: set[bytes] = set()
    elapsed = None
    deadline = t0 + timeout
    try:
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
            seen.update(TAG.findall(ANSI.sub(b"", buf[-200_000:])))
            if len(seen) >= TITLES_SEEN:
                elapsed = time.perf_counter() - t0
                break
        if elapsed is None:
            tail = ANSI.sub(b"", buf)[-1500:].decode("utf-8", "replace")
            raise SystemExit(f"{argv[-1]}: no list drawn within {timeout:.0f} s:\n{tail}")
        os.write(master, b"q")
        end = time.perf_counter() + 10
        while proc.poll() is None and time.perf_counter() < end:  # drain while it exits
            if select.select([master], [], [], 0.05)[0]:
                try:
                    buf += os.read(master, 65536)
                except OSError:
                    time.sleep(0.01)
        if proc.poll() is None:
            raise SystemExit(f"{argv} did not quit on q")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    return elapsed


def measure(n: int, runs: int, tmp: Path) -> dict:
    home = prepare(tmp, n)
    env = {**os.environ, "PAPERTERM_HOME": str(home), "PAPERTERM_CONFIG": str(home / "none"),
           "PAPERTERM_TODAY": DAY.isoformat(), "TERM": "xterm-256color",
           "COLUMNS": str(COLS), "LINES": str(ROWS)}
    env.pop("TEXTUAL", None)
    # as installed by pip: modules compiled once (the warm-up start writes the bytecode)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    paperterm = [sys.executable, "-m", "paperterm", "--topic", "moe"]
    bare = [sys.executable, "-c", BARE, str(home / "titles.json")]
    timed_start(paperterm, env)  # the first start (it quits before its ranking is done)
    # the day ranked and its scores cached, as after a morning's use of the reader
    subprocess.run([sys.executable, "-m", "paperterm", "score", "--offline", "--topic", "moe"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    times: dict[str, list[float]] = {"paperterm": [], "bare": []}
    for _ in range(runs):  # interleaved, so that a busy moment hurts both alike
        times["paperterm"].append(timed_start(paperterm, env))
        times["bare"].append(timed_start(bare, env))
    out: dict = {"papers": n}
    for name, values in times.items():
        out[name] = {"median_s": round(statistics.median(values), 3),
                     "min_s": round(min(values), 3), "max_s": round(max(values), 3)}
    out["ratio"] = round(out["paperterm"]["median_s"] / out["bare"]["median_s"], 2)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="1000,5000")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            results.append(measure(n, args.runs, Path(tmp)))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for r in results:
            print(f"{r['papers']:>5} papers: paperterm {r['paperterm']['median_s']:.2f} s, "
                  f"bare DataTable {r['bare']['median_s']:.2f} s (median of {args.runs}), "
                  f"ratio {r['ratio']:.2f}")
    ok = all(r["ratio"] <= 1.0 for r in results)
    print("target met" if ok else "TARGET MISSED (paperterm slower than the bare app)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
