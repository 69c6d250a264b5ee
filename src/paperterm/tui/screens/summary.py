"""`a`: a 3-5 sentence summary of the paper under the cursor, in a modal.

The summary is asked for on a worker thread (the engine and litellm load there, never
before the first paint), in the configured `language`, and cached like a score: asking
again, here or with `paperterm summarize`, costs nothing. `SummaryActions`, a controller of
the day screen, brings the action; the modal shows progress, then the summary (or why there
is none) and its cost, which its worker posts to it as a `SummaryReady` message.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from paperterm.day.session import Session
from paperterm.models import Paper
from paperterm.tui.messages import SummaryReady
from paperterm.tui.text import tex
from paperterm.tui.workers import current_job, post

if TYPE_CHECKING:
    from textual.worker import Worker

    from paperterm.tui.screens.day_view import DayView

NEEDS_MODEL = ("Summaries need a model: start with --model PROVIDER/MODEL "
               "(e.g. openai/gpt-4o-mini) or set `model` in the config")


class SummaryActions:
    """The day screen's summary key."""

    def __init__(self, view: DayView) -> None:
        self.view = view

    def summarize(self) -> None:
        e = self.view.current
        if e is None:
            return
        session = self.view.session
        if not session.settings.model:
            self.view.reader.say(NEEDS_MODEL, "warning", timeout=8)
            return
        self.view.app.push_screen(SummaryScreen(e.paper, session))


class SummaryScreen(ModalScreen[None]):
    """One paper's summary: asked for when the screen opens, shown when it arrives."""

    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    #summary-box { width: 90; max-width: 100%; height: auto; max-height: 80%;
                   border: round $primary; background: $surface; padding: 0 1; }
    #summary-title { text-style: bold; margin-bottom: 1; }
    #summary-foot { color: $pt-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,a", "close", "Close", id="summary_close"),
    ]

    def __init__(self, paper: Paper, session: Session) -> None:
        super().__init__()
        self.paper, self.session = paper, session
        self.language = session.config.language
        self.cancel = threading.Event()
        self.text: str | None = None  # the summary once it arrived (None: not yet, or none)
        self._worker: Worker[Any] | None = None  # the request whose answer counts

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary-box"):
            yield Static(Text(tex(self.paper.title)), id="summary-title")
            yield Static(Text(f"Summarizing with {self.session.settings.model} "
                              f"in {self.language}…"), id="summary-body")
            yield Static(Text("esc closes"), id="summary-foot")

    def on_mount(self) -> None:
        self._worker = self._ask()

    @work(thread=True, name="summary", group="summary", exit_on_error=False)
    def _ask(self) -> None:
        """Worker thread: never raises; the outcome goes to the screen."""
        from paperterm.services.summaries import summarize_paper

        got = summarize_paper(self.paper, self.session.settings, self.language,
                              open_store=self.session.open_store, cancel=self.cancel)
        if got.text is None:
            self._post(None, f"No summary: {got.error}", "")
            return
        cost = "unknown cost" if got.cost is None else f"${got.cost:.4f}"
        foot = "cached: no request" if got.cached else f"{got.tokens:,} tokens, {cost}"
        self._post(got.text, got.text, f"{self.language} · {foot} · esc closes")

    def _post(self, text: str | None, body: str, foot: str) -> None:
        if not self.cancel.is_set():
            post(self, SummaryReady(current_job(), text, body, foot))

    def on_summary_ready(self, message: SummaryReady) -> None:
        if message.worker is not self._worker or self.cancel.is_set():
            return
        self.text = message.text
        self.query_one("#summary-body", Static).update(Text(message.body))
        if message.foot:
            self.query_one("#summary-foot", Static).update(Text(message.foot))

    def action_close(self) -> None:
        self.cancel.set()
        self.dismiss(None)
