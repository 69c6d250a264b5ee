"""Keypress to repaint in a real terminal, 5,000 papers, while scores stream in: paperterm
against a bare Textual DataTable doing the same work.

    python benchmarks/bench_keys.py                 # 150 cursor moves each
    python benchmarks/bench_keys.py --presses 60
    python benchmarks/bench_keys.py --hog 2 --rounds 3   # 2 busy processes beside, 3 rounds

Each program runs on its own pseudo-terminal (140x45, stdin, stdout and stderr on it, as in
a terminal emulator). The benchmark types `j` into the terminal; the program under test
notes (on a pipe of its own) the moment it has written to the terminal the first frame showing
the cursor on the next row. Latency is that moment minus the moment the key was written
(both on the system's monotonic clock). One key at a time, with a short random pause.

- paperterm: `paperterm --topic moe --model ...` on a cached day of 5,000 papers, none
  scored yet; the scoring engine is replaced by a stand-in that streams 20 scores every
  100 ms (so they go through the real worker, its messages and the screen's coalescing and
  re-sorting by relevance).
- paperterm_idle: the same day ranked by the local scorer, nothing streaming; its data dir
  is fresh for every run, so the local ranking (embedding 5,000 papers, seconds of CPU) is
  under way while the keys are typed.
- bare: a Textual app with the same titles in a DataTable, three ways: "stream" (every
  100 ms it sets 20 scores: the same work as paperterm's), "sort" (and re-sorts the table
  by them, as paperterm does; DataTable.sort is slow) and "idle" (nothing else happens).

Target (issue 10, item 17): while scores stream, paperterm's p50 and p95 within 3x of the
bare DataTable's ("stream"). Idle against idle is printed too: paperterm repaints a
preview and a header besides the list, so a key costs it more than a lone DataTable.

`--hog N` runs N busy processes beside the programs (a loaded machine); `--rounds R` runs
the programs R times, taking turns (bare, paperterm, bare, ...), and prints each round's
ratios as well as those over all rounds. Target with a hog (issue 21, item 4): streaming p95
within 1.5x the bare app's. `--thread-too` adds the local scorer ranking in its own process's
threads (as before issue 21); `--idle-only` runs only the idle programs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_start import COLS, DAY, ROWS, prepare

MODEL = "openai/bench-model"

PROBE = r"""
import os, sys, time
REPORT = os.fdopen(int(os.environ["BENCH_REPORT_FD"]), "w", buffering=1)

def report(*words):
    REPORT.write(" ".join(str(w) for w in words) + "\n")

def spy_frames(app, cursor_of):
    # every frame goes through App._display, which writes it to the terminal: note the
    # first one written after the cursor reached a new row
    original = app._display
    last = [cursor_of(app)]

    def display(screen, renderable):
        original(screen, renderable)
        if renderable is not None:
            c = cursor_of(app)
            if c is not None and c != last[0]:
                last[0] = c
                report("frame", time.monotonic(), c)

    app._display = display
"""

PAPERTERM = PROBE + r"""
from paperterm.scoring.types import RunSummary, Score
import paperterm.scoring as scoring

def run_scoring(papers, topic, settings, *, open_store, on_scores, on_progress, cancel, **kw):
    i, n = 0, len(papers)
    while not cancel.is_set():
        batch = papers[i % n: i % n + 20]
        on_scores([Score(p.id, p.version, (i + k) % 10 + 1, (i * k) % 10 + 1, "r", "scored")
                   for k, p in enumerate(batch)])
        if i == 0:
            report("ready")
        i += 20
        cancel.wait(0.1)
    return RunSummary(model=settings.model)

scoring.run_scoring = run_scoring

import paperterm.tui.app as tui_app
from paperterm.tui.screens.day import DayScreen

def cursor(app):
    screen = app.screen
    return screen.table.cursor if isinstance(screen, DayScreen) and screen.children else None

class Probed(tui_app.PapertermApp):
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(spy_frames, self, cursor)
        if sys.argv[1] == "idle":
            self.set_timer(1.0, lambda: report("ready"))

tui_app.PapertermApp = Probed
from paperterm.cli import main
model = [] if sys.argv[1] == "idle" else ["--model", sys.argv[1], "--api-base", "http://127.0.0.1:9"]
sys.exit(main(["--topic", "moe", *model]))
"""

BARE = PROBE + r"""
import json
MODE = sys.argv[2]  # idle | stream | sort
from textual.app import App
from textual.widgets import DataTable

class Bare(App):
    BINDINGS = [("q", "quit", "Quit"), ("j", "down", "Down")]

    def compose(self):
        yield DataTable(cursor_type="row")

    def on_mount(self):
        table = self.query_one(DataTable)
        self.rel = table.add_column("Rel", key="rel")
        table.add_columns("Title", "First author", "Category")
        with open(sys.argv[1], encoding="utf-8") as f:
            rows = json.load(f)
        self.keys = table.add_rows(rows)
        self.i = 0
        if MODE == "idle":
            self.call_after_refresh(report, "ready")
        else:
            self.set_interval(0.1, self.stream)
        self.call_after_refresh(spy_frames, self, lambda app: table.cursor_row)

    def stream(self):
        table = self.query_one(DataTable)
        n = len(self.keys)
        for k in range(20):  # 20 scores (then, with "sort", the table re-sorted by them)
            table.update_cell(self.keys[(self.i + k) % n], self.rel, str((self.i + k) % 10 + 1))
        if MODE == "sort":
            table.sort(self.rel, key=lambda v: -int(v or 0))
        if self.i == 0:
            report("ready")
        self.i += 20

    def action_down(self):
        self.query_one(DataTable).action_cursor_down()

Bare().run()
"""


def run(argv: list[str], env: dict[str, str], presses: int, timeout: float = 120) -> list[float]:
    """Latencies (seconds) of `presses` cursor moves in `argv` running on a fresh pty."""
    import fcntl
    import pty
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    rfd, wfd = os.pipe()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                            env={**env, "BENCH_REPORT_FD": str(wfd)},
                            start_new_session=True, pass_fds=(wfd,))
    os.close(slave)
    os.close(wfd)
    lines: list[str] = []
    pending = b""
    deadline = time.monotonic() + timeout

    def pump(wait: float) -> None:
        """Drain the terminal; collect the probe's lines."""
        nonlocal pending
        ready, _, _ = select.select([master, rfd], [], [], wait)
        if master in ready:
            with contextlib.suppress(OSError):
                os.read(master, 1 << 16)
        if rfd in ready:
            pending += os.read(rfd, 1 << 16)
            *done, pending = pending.split(b"\n")
            lines.extend(d.decode() for d in done)

    def wait_for(pred) -> str:
        while time.monotonic() < deadline:
            for line in lines:
                if pred(line):
                    lines.remove(line)
                    return line
            if proc.poll() is not None:
                raise SystemExit(f"{argv[2][:40]!r}... exited early ({proc.returncode})")
            pump(0.01)
        raise SystemExit("timed out")

    latencies: list[float] = []
    rng = random.Random(1)
    try:
        wait_for(lambda ln: ln == "ready")
        end = time.monotonic() + 0.5  # scores are streaming: let it settle a little
        while time.monotonic() < end:
            pump(0.01)
        lines.clear()
        for _ in range(presses):
            sent = time.monotonic()
            os.write(master, b"j")
            frame = wait_for(lambda ln: ln.startswith("frame "))
            latencies.append(float(frame.split()[1]) - sent)
            end = time.monotonic() + rng.uniform(0.02, 0.08)
            while time.monotonic() < end:
                pump(0.005)
        os.write(master, b"q")
        end = time.monotonic() + 10
        while proc.poll() is None and time.monotonic() < end:
            pump(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
        os.close(rfd)
    return latencies


def ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {"p50_ms": round(statistics.median(values) * 1000, 1),
            "p95_ms": round(values[int(0.95 * (len(values) - 1))] * 1000, 1),
            "max_ms": round(values[-1] * 1000, 1)}


PAIRS = (("paperterm", "bare_stream", "streaming"), ("paperterm_idle", "bare_idle", "idle"),
         ("paperterm_idle_thread", "bare_idle", "idle, ranking in a thread"))


def start_hogs(n: int) -> list[subprocess.Popen[bytes]]:
    """`n` processes spinning on a core each until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
            for _ in range(n)]


def ratios(out: dict) -> None:
    for a, b, name in PAIRS:
        if a not in out or b not in out:
            continue
        out[f"ratio_{name}"] = {q: round(out[a][q] / out[b][q], 2)
                                for q in ("p50_ms", "p95_ms")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=150)
    parser.add_argument("--papers", type=int, default=5000)
    parser.add_argument("--hog", type=int, default=0, metavar="N",
                        help="busy processes running beside the programs")
    parser.add_argument("--rounds", type=int, default=1, help="runs of every program, in turns")
    parser.add_argument("--idle-only", action="store_true",
                        help="only the local scorer and the idle bare app")
    parser.add_argument("--thread-too", action="store_true",
                        help="also paperterm_idle ranking in its own process's threads "
                             "(PAPERTERM_LOCAL_RANKING=thread, as before issue 21)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    programs = {
        "bare_stream": lambda home: [BARE, str(home / "titles.json"), "stream"],
        "paperterm": lambda home: [PAPERTERM, MODEL],
        "bare_idle": lambda home: [BARE, str(home / "titles.json"), "idle"],
        "paperterm_idle": lambda home: [PAPERTERM, "idle"],
        "bare_sort": lambda home: [BARE, str(home / "titles.json"), "sort"],
    }
    if args.thread_too:
        programs["paperterm_idle_thread"] = programs["paperterm_idle"]
    if args.idle_only:
        programs = {k: v for k, v in programs.items() if "idle" in k}
    runs: dict[str, list[list[float]]] = {name: [] for name in programs}
    hogs = start_hogs(args.hog)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(args.rounds):
                for name, argv in programs.items():
                    run_dir = Path(tmp) / f"{r}-{name}"  # a fresh cache: nothing ranked yet
                    run_dir.mkdir()
                    home = prepare(run_dir, args.papers)
                    env = {**os.environ, "PAPERTERM_HOME": str(home),
                           "PAPERTERM_CONFIG": str(home / "none"),
                           "PAPERTERM_TODAY": DAY.isoformat(), "TERM": "xterm-256color",
                           "COLUMNS": str(COLS), "LINES": str(ROWS)}
                    env.pop("PYTHONDONTWRITEBYTECODE", None)
                    if name.endswith("_thread"):
                        env["PAPERTERM_LOCAL_RANKING"] = "thread"
                    runs[name].append(run([sys.executable, "-c", *argv(home)], env,
                                          args.presses))
                    print(f"round {r + 1}, {name}: p95 {ms(runs[name][-1])['p95_ms']} ms",
                          file=sys.stderr, flush=True)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    out: dict = {"papers": args.papers, "presses": args.presses, "hog": args.hog,
                 "rounds": args.rounds,
                 **{name: ms([x for one in v for x in one]) for name, v in runs.items()}}
    ratios(out)
    out["each_round"] = []
    for r in range(args.rounds):
        one: dict = {name: ms(v[r]) for name, v in runs.items()}
        ratios(one)
        out["each_round"].append(one)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{args.papers} papers, {args.presses} presses, {args.hog} busy process(es) "
              f"beside, {args.rounds} round(s) taken in turns")
        for name in programs:
            r = out[name]
            print(f"{name:>14}: p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms, max {r['max_ms']} ms")
        for a, b, name in PAIRS:
            if a not in programs or b not in programs:
                continue
            r = out[f"ratio_{name}"]
            each = ", ".join(f"{one[f'ratio_{name}']['p95_ms']}x" for one in out["each_round"])
            print(f"paperterm / bare DataTable, {name}: p50 {r['p50_ms']}x, "
                  f"p95 {r['p95_ms']}x (p95 by round: {each})")
    limit = 1.5 if args.hog else 3
    judged = out.get("ratio_streaming") or out["ratio_idle"]  # --idle-only: the idle ratio
    # the targets are on p95 (issue 21: "p95 stays within 1.5x"; issue 10 names p50 too)
    ok = judged["p95_ms"] <= limit and (args.hog or judged["p50_ms"] <= limit)
    print("target met" if ok else f"TARGET MISSED (more than {limit}x the bare DataTable)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
