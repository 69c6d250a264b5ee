"""Fixtures of the reader's tests (TUI only): sessions on the example day, an app that
records its notices, a probe that reads what the screen shows, a fake scoring facade, and
waiting for a condition instead of sleeping."""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from support.waiting import ChildCpu

import paperterm.scoring.local.semantic as semantic
from paperterm.day.listing import Entry
from paperterm.day.session import Session
from paperterm.models import Day, Paper, Topic
from paperterm.scoring.types import RunSummary, Score
from paperterm.settings import ScoringSettings
from paperterm.settings.config import Config
from paperterm.sources.feeds import parse_feed
from paperterm.store import Store, StoreFactory, UserState
from paperterm.topics import resolve_topic
from paperterm.tui.app import PapertermApp
from paperterm.tui.header import TopBar
from paperterm.tui.paper_list import GAP, PaperTable
from paperterm.tui.preview import Preview
from paperterm.tui.screens.day import DayScreen

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "arxiv-2026-02-25.xml"
_REAL_LOAD_MODEL = semantic.load_model
HOSTILE_TITLE = "[bold red]x[/] [link=http://e]y \x1b[31mz"


@pytest.fixture(autouse=True)
def keyword_ranking_unless_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    """No embedding model: the local ranking is the keyword scorer's from the first paint,
    so no test's rows move when a worker's blend arrives (a test of the learned ranking asks
    for `embedding_model`). The ranking runs in the test's process, where the model is
    replaced (a ranking process would load the real one)."""
    monkeypatch.setattr(semantic, "load_model", lambda: None)
    monkeypatch.setenv("PAPERTERM_LOCAL_RANKING", "thread")


@pytest.fixture
def embedding_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real embedding model: the reader ranks by the learned blend, in its ranking
    process (as it does outside the tests)."""
    monkeypatch.setattr(semantic, "load_model", _REAL_LOAD_MODEL)
    monkeypatch.delenv("PAPERTERM_LOCAL_RANKING")


@pytest.fixture(autouse=True)
def plain_desktop(monkeypatch: pytest.MonkeyPatch) -> None:
    """No browser, display or terminal multiplexer from the test's own environment decides
    how links open and what copying does (a test that wants one sets it)."""
    for var in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY", "TMUX", "STY", "TERM_PROGRAM",
                "KITTY_WINDOW_ID", "WT_SESSION", "ALACRITTY_SOCKET", "ALACRITTY_WINDOW_ID"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def size() -> tuple[int, int]:
    return (120, 40)


@pytest.fixture(scope="session")
def _example_day() -> list[Paper]:
    return parse_feed(EXAMPLE.read_bytes()).papers


@pytest.fixture
def example_papers(_example_day: list[Paper]) -> list[Paper]:
    """The 244 papers of the example announcement (a fresh list each test)."""
    return list(_example_day)


@pytest.fixture
def hostile_papers(example_papers: list[Paper]) -> list[Paper]:
    """The example day whose first paper carries markup, escapes and control characters."""
    papers = list(example_papers)
    papers[0] = replace(
        papers[0],
        title=HOSTILE_TITLE,
        authors=("[i]Mallory\x1b]0;pwned\x07", "Eve [/]"),
        abstract="Text with \x1b[2J an erase, [blink]markup[/blink], \x07 a bell, "
        "\x9b31m a C1 CSI, unmatched [ bracket and $\\alpha$ and $\\mathcal{O}(n)$.",
    )
    return papers


@pytest.fixture
def make_session(tmp_path: Path, example_papers: list[Paper]) -> Callable[..., Session]:
    """`make_session(papers=None, config=..., settings=..., topic="moe", notices=...,
    day_notices=..., source="feed")`: a session on the example day in tmp_path."""

    def make(
        papers: list[Paper] | None = None,
        *,
        config: Config | None = None,
        settings: ScoringSettings | None = None,
        topic: str = "moe",
        notices: list[str] | None = None,
        day_notices: list[str] | None = None,
        source: str = "feed",
    ) -> Session:
        config = config or Config()
        day = Day(papers=example_papers if papers is None else papers, label="2026-02-25",
                  day=date(2026, 2, 25), source=source, notices=list(day_notices or []))
        return Session(config=config, day=day, topic=resolve_topic(topic, config).topic,
                       settings=settings or ScoringSettings(), db_path=tmp_path / "db.sqlite3",
                       bib_path=tmp_path / "papers.bib", notices=list(notices or []))

    return make


class RecordingApp(PapertermApp):
    """The reader, keeping a list of every notice it showed: (text, severity)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.said: list[tuple[str, str]] = []

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        self.said.append((message, severity))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)


@pytest.fixture
def make_app() -> Callable[..., RecordingApp]:
    """`make_app(session, autoscore=True)`: the reader, recording its notices."""
    return RecordingApp


class Probe:
    """Reads the reader as the user sees it: rows of the list, the header line, the preview,
    the notices; and what the store holds."""

    def __init__(self, app: RecordingApp) -> None:
        self.app = app

    @property
    def day(self) -> DayScreen:
        return next(s for s in self.app.screen_stack if isinstance(s, DayScreen))

    @property
    def table(self) -> PaperTable:
        return self.day.table

    @property
    def preview(self) -> Preview:
        return self.day.preview

    @property
    def shown(self) -> list[Entry]:
        return self.day.shown

    @property
    def current(self) -> Entry | None:
        return self.day.table.current

    def entry(self, paper_id: str) -> Entry:
        return self.day.by_id[paper_id]

    def row_of(self, paper_id: str) -> int:
        """The paper's index in the list."""
        return next(i for i, e in enumerate(self.table.entries) if e.paper.id == paper_id)

    def to_paper(self, paper_id: str) -> None:
        """Put the cursor on the paper, as moving the cursor would."""
        self.table.move_to(self.row_of(paper_id))

    def row(self, y: int) -> str:
        """The text of the y-th visible row of the list."""
        return self.table.render_line(y).text

    def first_cell(self, y: int) -> str:
        """The relevance column of the y-th visible row ("" when blank)."""
        text = self.row(y)
        return text.split()[0] if text.strip() else ""

    def marks(self, y: int) -> str:
        """The marks column of the y-th visible row: "+" marked, "•" unseen, "★" starred,
        "✓" saved (the last column, so counted from the right edge)."""
        col, _x, w = self.table.columns()[-1]
        assert col.key == "marks"
        return self.row(y)[-(w + GAP): -GAP]

    def rows(self) -> list[str]:
        return [self.row(y) for y in range(self.table.scrollable_content_region.height)]

    def header(self) -> str:
        """The header line as the terminal shows it once no notice is live (notices show in
        its place for a while): cut at the screen's width."""
        bar = self.day.query_one("#topbar", TopBar)
        return bar.normal().plain[: bar.size.width]

    def header_notice(self) -> str:
        """What the header line shows now (a live notice, else the header)."""
        bar = self.day.query_one("#topbar", TopBar)
        return bar.render().plain[: bar.size.width]

    def columns(self) -> str:
        return self.day.query_one("#columns").render().plain

    def meta(self) -> str:
        return self.preview.meta_text().plain

    def abstract(self) -> str:
        return self.preview.abstract_source()

    def search_value(self) -> str:
        return self.day.query_one("#search").value

    def cursor_visible(self) -> bool:
        t = self.table
        top = int(t.scroll_y)
        return top <= t.cursor < top + t.scrollable_content_region.height

    def notices(self, *severities: str) -> list[str]:
        return [m for m, s in self.app.said if not severities or s in severities]

    def said(self, text: str) -> bool:
        return any(text in m for m in self.notices())

    def states(self, ids: Iterable[str]) -> dict[str, UserState]:
        """What the store holds for these papers (seen, starred, saved, bib_key)."""
        store = Store(self.app.session.db_path)
        try:
            return store.marks.states(list(ids))
        finally:
            store.close()


@pytest.fixture
def probe() -> Callable[[RecordingApp], Probe]:
    return Probe


@pytest.fixture
def until() -> Callable[..., Awaitable[None]]:
    """`await until(pilot, condition, seconds=90, what=...)`: let the app run until
    `condition()`; the deadline is generous (a loaded machine runs the reader slowly), and a
    failure says what was awaited.

    `cpu=ChildCpu(...)` (`ranking_cpu(app)`): for work done in the ranking process, whose
    turns a loaded machine gives to busier processes (it runs at nice 10), `seconds` is the
    CPU time the child may spend before the condition must hold, and the wall-clock backstop
    is `wall` seconds."""

    async def wait(pilot: Any, condition: Callable[[], object], seconds: float = 90.0,
                   what: str = "", *, cpu: ChildCpu | None = None,
                   wall: float = WALL_BACKSTOP) -> None:
        start = time.monotonic()
        deadline = start + (wall if cpu is not None else seconds)
        shown = what or getattr(condition, "__doc__", None) or "the condition"
        while not condition():
            now = time.monotonic()
            if cpu is not None and cpu.spent() >= seconds:
                assert condition(), (f"{shown} not reached after the ranking process had "
                                     f"{cpu.spent():.1f} s of CPU ({now - start:.0f} s)")
                return
            if now >= deadline:
                spent = "" if cpu is None else (
                    f" (the ranking process had {cpu.spent():.1f} s of CPU in that time)")
                assert condition(), f"{shown} not reached in {now - start:.0f} s{spent}"
                return
            await pilot.pause(0.02)

    return wait


# A wait on the ranking process ends by its CPU budget; this bounds it in wall-clock time
# only against a parent that never asks (at nice 10 beside four busy processes on two cores,
# with other jobs at load ~12, the child's first ranking, 1.2 s of CPU, took ~120 s).
WALL_BACKSTOP = 480.0


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """An event that stand-in work waits on with no deadline (however long a loaded machine
    takes the test to look), set at teardown whatever happened."""
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture
def ranking_cpu() -> Callable[[PapertermApp], ChildCpu]:
    """`ranking_cpu(app)`: the CPU time of `app`'s ranking process (and of one started again
    after it), for `until(..., cpu=...)`."""
    return lambda app: ChildCpu(lambda: app.ranking.pid)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test with the real embedding model waits on the ranking process, which a loaded
    machine runs last (nice 10): its whole-test limit (pytest-timeout, 300 s) is 900 s."""
    for item in items:
        if "embedding_model" in getattr(item, "fixturenames", ()) and \
                item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(900))


# -- a fake scoring facade ----------------------------------------------------------------


@dataclass
class Run:
    """One call of the fake `run_scoring`."""

    ids: list[str]
    topic: Topic
    cancel: threading.Event | None
    returned: threading.Event = field(default_factory=threading.Event)
    fresh: bool = False  # a forced rescore


class FakeScoring:
    """Stands in for `paperterm.scoring.run_scoring`. `plan(papers, on_scores, on_progress,
    run)` does the work of each call (in the worker thread) and returns its RunSummary;
    the default scores every paper `scores_for(paper)` in batches of 10."""

    def __init__(self) -> None:
        self.runs: list[Run] = []
        self.plan: Callable[..., RunSummary] = self.in_batches
        self.scores_for: Callable[[Paper], tuple[int, int]] = lambda p: (4, 6)

    def __call__(self, papers: list[Paper], topic: Topic, settings: ScoringSettings, *,
                 open_store: StoreFactory, on_scores: Callable[[list[Score]], None],
                 on_progress: Callable[[RunSummary], None],
                 cancel: threading.Event | None = None, day: str | None = None,
                 fresh: bool = False) -> RunSummary:
        run = Run([p.id for p in papers], topic, cancel, fresh=fresh)
        self.runs.append(run)
        try:
            return self.plan(papers, on_scores, on_progress, run, settings.model)
        finally:
            run.returned.set()

    def in_batches(self, papers: list[Paper], on_scores: Callable[[list[Score]], None],
                   on_progress: Callable[[RunSummary], None], run: Run,
                   model: str) -> RunSummary:
        done = RunSummary(model=model, total=len(papers))
        for i in range(0, len(papers), 10):
            batch = papers[i: i + 10]
            on_scores([Score(p.id, p.version, *self.scores_for(p), "fake", "scored")
                       for p in batch])
            done.scored += len(batch)
            on_progress(done)
        return done

    @staticmethod
    def hold(gate: threading.Event, run: Run) -> bool:
        """Block the run until `gate` opens (True) or the run is cancelled (False)."""
        while not gate.wait(0.01):
            if run.cancel is not None and run.cancel.is_set():
                return False
        return True


@pytest.fixture
def fake_scoring(monkeypatch: pytest.MonkeyPatch) -> FakeScoring:
    """Replace the LLM engine behind the scoring facade by a scriptable fake."""
    import paperterm.scoring as scoring

    fake = FakeScoring()
    monkeypatch.setattr(scoring, "run_scoring", fake, raising=False)
    return fake


@pytest.fixture
def llm_settings(monkeypatch: pytest.MonkeyPatch) -> ScoringSettings:
    """A hosted model whose key is set (the runs themselves are faked or local)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    return ScoringSettings(model="openai/fake-model")
