"""The library at scale: build a cache of N synthetic papers (default 200,000, 500 per
announcement day, weekdays only; every day before the last read, one paper in a hundred
starred, as a year of use leaves it) and time, each against a small cache of one day:

1. start-up: the reader's first paint on the latest cached day (`paperterm --offline`, in a
   fresh process on a pseudo-terminal of its own, 140x45, stdin, stdout and stderr on it as
   in a terminal emulator; from before `Popen` to the first completed refresh, and the CPU
   seconds the process had used by then, which a busy machine moves less), and
   `paperterm --version`; best of 7 rounds, the two caches taking turns;
2. a headless `paperterm search --json` against `paperterm --version`;
3. the query the reader's search box runs in its worker once typing pauses
   (`store.library.search`, 200 results, with the topic's scores) for each prefix of a typed
   query, and similar papers (`bench_search_box.py` times the keys themselves).

Usage: python benchmarks/bench_library.py [N] [--home DIR]   (--home keeps / reuses the cache)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from paperterm.models import Paper
from paperterm.store import Store

ROOT = Path(__file__).resolve().parent.parent
FEED = "cs.AI+cs.LG"  # the default categories: `paperterm` opens this feed's latest day
PER_DAY = 500
WORDS = tuple(re.findall(r"\w+",
    "sparse mixture experts routing quantization transformer diffusion agent graph protein "
    "language model training scaling attention memory retrieval robust kernel compiler "
    "reinforcement policy vision token pruning distillation"))
QUERY = '"sparse mixture" routing'
TOPIC = "moe"  # the default topic: the one the reader opens on
BUILD = 2  # the cache as built now (a cache built by an earlier version is built again)

# The real start-up path through cli.main in a real terminal, with the day screen wrapped
# only to report the moment of its first paint (and how many papers it shows) to the file
# named by argv[1] (the terminal is the reader's), then exit.
CHILD = r"""
import json, sys, time
from paperterm.tui.screens.day import DayScreen

mount = DayScreen.on_mount

def on_mount(self):
    mount(self)
    self.call_after_refresh(report, self)

def report(day):
    with open(sys.argv[1], "w") as out:
        out.write(json.dumps({"paint": time.time(), "cpu": time.process_time(),
                              "rows": len(day.shown)}))
    day.cancel_scoring()
    day.app.exit(0)

DayScreen.on_mount = on_mount
from paperterm.cli import main
sys.exit(main(["--offline"]))
"""
COLS, ROWS = 140, 45


def synthetic(i: int, rng: random.Random) -> Paper:
    title = " ".join(rng.choice(WORDS) for _ in range(8)).capitalize()
    abstract = " ".join(rng.choice(WORDS) for _ in range(150))
    return Paper(f"{2000 + i // 100000}.{i % 100000:05d}", 1, title, ("A. Author", "B. Author"),
                 abstract, ("cs.LG",), "cs.LG")


def build(db: Path, n: int) -> date:
    """A cache of n papers, PER_DAY per weekday; returns the last day (fetched "today"). The
    days before it were read as a user reads (under the default topic, moe): every paper
    seen, one in a hundred starred, as the reader marks them, a day at a time."""
    rng = random.Random(11)
    store = Store.open(db)
    day = date(2020, 1, 6)
    t = time.perf_counter()
    for start in range(0, n, PER_DAY):
        last = start + PER_DAY >= n
        papers = [synthetic(i, rng) for i in range(start, min(n, start + PER_DAY))]
        store.papers.save_day(FEED, day, papers, source="rss", fetched_for=day if last else None)
        if not last:
            store.marks.mark_seen([p.id for p in papers], topic=TOPIC)
            with store.db.transaction():
                for p in papers[::100]:
                    store.marks.set_starred(p.id, True, topic=TOPIC)
            day += timedelta(days=1 if day.weekday() < 4 else 3)
    store.close()
    print(f"built {n:,} papers in {time.perf_counter() - t:.0f} s")
    return day


def home_with(n: int, home: Path) -> tuple[Path, date]:
    home.mkdir(parents=True, exist_ok=True)
    db, stamp = home / "paperterm.sqlite3", home / "built.json"
    if db.exists() and stamp.exists() and json.loads(stamp.read_text()).get("build") == BUILD \
            and json.loads(stamp.read_text())["n"] == n:
        return home, date.fromisoformat(json.loads(stamp.read_text())["today"])
    for old in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        old.unlink(missing_ok=True)
    today = build(db, n)
    stamp.write_text(json.dumps({"n": n, "today": today.isoformat(), "build": BUILD}))
    return home, today


def env_for(home: Path, today: date) -> dict[str, str]:
    return {**os.environ, "PAPERTERM_HOME": str(home), "PYTHONPATH": str(ROOT / "src"),
            "PAPERTERM_CONFIG": str(home / "none.toml"), "PAPERTERM_TODAY": today.isoformat()}


def run_once(cmd: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, env=env, capture_output=True, check=True, timeout=120)
    return time.perf_counter() - t


def on_terminal(argv: list[str], env: dict[str, str], timeout: float = 120.0) -> bytes:
    """Run `argv` on a fresh pseudo-terminal (COLS x ROWS) until it exits; what it drew."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                            env={**env, "TERM": "xterm-256color"}, start_new_session=True,
                            close_fds=True)
    os.close(slave)
    drawn, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:  # drain: a full terminal would stall the reader
            if select.select([master], [], [], 0.05)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                drawn = (drawn + chunk)[-20_000:]
            elif proc.poll() is not None:
                break
        proc.wait(timeout=max(deadline - time.monotonic(), 1))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return drawn


def paint_once(env: dict[str, str]) -> tuple[float, int, float]:
    """Seconds from before `Popen` to the first paint, the rows shown, and the CPU seconds
    the process had used by then (all its threads: what a busy machine's load moves least)."""
    with tempfile.TemporaryDirectory(prefix="paperterm-paint-") as tmp:
        report = Path(tmp) / "paint.json"
        t0 = time.time()
        drawn = on_terminal([sys.executable, "-c", CHILD, str(report)], env)
        if not report.exists():
            raise SystemExit(f"child failed:\n{drawn[-3000:].decode('utf-8', 'replace')}")
        data = json.loads(report.read_text())
    return data["paint"] - t0, data["rows"], data["cpu"]


def best(call, runs: int = 3) -> float:
    secs = []
    for _ in range(runs):
        t = time.perf_counter()
        call()
        secs.append(time.perf_counter() - t)
    return min(secs)


def in_store(home: Path) -> dict[str, float]:
    from paperterm.settings.config import Config
    from paperterm.topics import resolve_topic

    topic_fp = resolve_topic("moe", Config()).topic.fingerprint
    store = Store.open(home / "paperterm.sqlite3")
    try:
        library = store.library
        keystrokes = [best(lambda q=QUERY[:i]: library.search(q, limit=200, topic_fp=topic_fp))
                      for i in range(1, len(QUERY) + 1)]
        hits = store.library.search(QUERY, limit=20)
        similar = [best(lambda h=h: store.library.similar(h.paper.id, limit=200, topic_fp=topic_fp))
                   for h in hits[:5]]
    finally:
        store.close()
    return {"keystroke_median": statistics.median(keystrokes), "keystroke_max": max(keystrokes),
            "similar_median": statistics.median(similar)}


def measure(caches: list[tuple[int, Path | None]], rounds: int) -> list[dict[str, float]]:
    """Each figure for each cache, the caches taking turns in every round, so that both see
    the same load from other programs; the best of the rounds is kept."""
    homes = [home_with(n, home) for n, home in caches]
    envs = [env_for(home, today) for home, today in homes]
    runs: list[dict[str, list[float]]] = [{} for _ in caches]
    for _ in range(rounds):
        for env, got in zip(envs, runs, strict=True):
            got.setdefault("version_s", []).append(
                run_once([sys.executable, "-m", "paperterm", "--version"], env))
            got.setdefault("search_s", []).append(
                run_once([sys.executable, "-m", "paperterm", "search", QUERY, "--json"], env))
            paint, rows, cpu = paint_once(env)
            got.setdefault("paint_s", []).append(paint)
            got.setdefault("paint_cpu_s", []).append(cpu)
            got["rows"] = [rows]
    out = []
    for (n, _), (home, _), got in zip(caches, homes, runs, strict=True):
        row: dict[str, float] = {"papers": n, **{k: min(v) for k, v in got.items()}}
        row.update(in_store(home))
        out.append(row)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=200_000)
    ap.add_argument("--home", type=Path, help="keep the built cache here (reused next time)")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="paperterm-bench-") as tmp:
        small, large = measure([(PER_DAY, Path(tmp) / "small"),
                                (args.n, args.home or Path(tmp) / "large")], args.rounds)
    for r in (small, large):
        print(f"{r['papers']:>9,} papers: first paint {r['paint_s']:.3f} s (CPU "
              f"{r['paint_cpu_s']:.3f} s; {r['rows']} rows); "
              f"--version {r['version_s']:.3f} s; search {r['search_s']:.3f} s "
              f"(+{r['search_s'] - r['version_s']:.3f} s, target <= 0.25 s); "
              f"keystroke {r['keystroke_median'] * 1000:.0f} ms median, "
              f"{r['keystroke_max'] * 1000:.0f} ms max; similar "
              f"{r['similar_median'] * 1000:.0f} ms")
    print(f"start-up with {args.n:,} vs {PER_DAY} cached papers: "
          f"{large['paint_s']:.3f} s vs {small['paint_s']:.3f} s "
          f"({large['paint_s'] / small['paint_s']:.2f}x; CPU {large['paint_cpu_s']:.3f} s vs "
          f"{small['paint_cpu_s']:.3f} s, {large['paint_cpu_s'] / small['paint_cpu_s']:.2f}x); "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
