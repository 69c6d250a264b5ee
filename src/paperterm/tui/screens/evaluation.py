"""The command palette's "Evaluate ranking": the table of `paperterm eval` for the current
topic (`services.evaluation`), computed on a worker thread (it may load the embedding model
and rank every labelled day), which posts it to the screen as an `EvaluationReady` message.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from paperterm.day.session import Session
from paperterm.tui.messages import EvaluationReady
from paperterm.tui.workers import current_job, post

if TYPE_CHECKING:
    from textual.worker import Worker

    from paperterm.services.days import LoadRequest

TITLE = "Evaluate ranking: how each scorer ranks your picks"


NO_LABELS = ("No labels to evaluate against yet for topic {topic!r}: star the papers you want "
             "with * (in the day list, the search screen F or quick triage v), then open "
             "Evaluate ranking again (ctrl+p). From a shell, `paperterm learn --topic {arg}` "
             "brings in the papers you keep.")


class EvaluationScreen(ModalScreen[None]):
    """The evaluation of the session's topic: "working" first, then the table."""

    DEFAULT_CSS = """
    EvaluationScreen { align: center middle; }
    #evaluation-box { width: 100; max-width: 100%; height: auto; max-height: 90%;
                      border: round $primary; background: $surface; padding: 0 1; }
    #evaluation-title { text-style: bold; margin-bottom: 1; }
    #evaluation-foot { color: $pt-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="evaluation_close"),
        Binding("j", "scroll(1)", "Down", show=False),
        Binding("k", "scroll(-1)", "Up", show=False),
        Binding("G,end", "scroll_to(1)", "End", show=False),
        Binding("g,home", "scroll_to(0)", "Start", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.lines: list[str] = []  # the table once it arrived
        self._worker: Worker[Any] | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="evaluation-box"):
            yield Static(Text(TITLE), id="evaluation-title")
            yield Static(Text(f"Ranking your labelled days for {self.session.topic.name}…"),
                         id="evaluation-body")
            yield Static(Text("j/k scroll, g/G start/end, esc closes"), id="evaluation-foot")

    def on_mount(self) -> None:
        self._worker = self._evaluate()

    def _request(self) -> LoadRequest:
        from paperterm.services.days import session_request

        return session_request(self.session, topic_categories=True)

    @work(thread=True, name="evaluation", group="evaluation", exit_on_error=False)
    def _evaluate(self) -> None:
        """Worker thread: never raises; the lines go to the screen."""
        from paperterm.services import evaluation, evaluation_report

        try:
            store = self.session.open_store()
            try:
                result = evaluation.evaluate(store, self._request(), self.session.topic)
            finally:
                store.close()
            lines = (evaluation_report.table(result) if result.labelled
                     else [result.no_labels()] if result.skipped or result.dayless
                     else [NO_LABELS.format(topic=self.session.topic.name,
                                            arg=shlex.quote(self.session.topic.name))])
        except Exception as exc:  # never a traceback in the reader
            lines = [f"No evaluation: {type(exc).__name__}: {exc}"]
        post(self, EvaluationReady(current_job(), lines))

    def on_evaluation_ready(self, message: EvaluationReady) -> None:
        if message.worker is not self._worker:
            return
        self.lines = message.lines
        self.query_one("#evaluation-body", Static).update(Text("\n".join(message.lines)))

    def action_scroll(self, lines: int) -> None:
        """j/k scroll the table, as in the help screen."""
        self.query_one("#evaluation-box", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_scroll_to(self, end: int) -> None:
        """g/G: to the start / the end of the table."""
        box = self.query_one("#evaluation-box", VerticalScroll)
        if end:
            box.scroll_end(animate=False)
        else:
            box.scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
