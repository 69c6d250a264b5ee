"""What the day screen's controllers (scoring, triage, paper actions, ...) may use of the
screen: this Protocol, handed to each controller when it is made. The screen is the only
implementation; the controllers never reach past it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message
    from textual.timer import Timer
    from textual.widget import Widget
    from textual.widgets import Input
    from textual.worker import Worker

    from paperterm.day.listing import Entry
    from paperterm.day.model import DayModel
    from paperterm.day.session import Session
    from paperterm.tui.host import Reader
    from paperterm.tui.paper_list import PaperTable
    from paperterm.tui.preview import Preview


class DayView(Protocol):
    """The day screen, as its controllers see it."""

    model: DayModel  # the entries, what shows, marks; the session and the topic
    autoscore: bool  # LLM runs start without asking
    notices: list[tuple[str, str]]  # said once, when the screen is up

    @property
    def session(self) -> Session:
        """The model's session (read only: changed through the model)."""
    @property
    def reader(self) -> Reader: ...
    @property
    def app(self) -> App[Any]: ...
    @property
    def table(self) -> PaperTable: ...
    @property
    def preview(self) -> Preview: ...
    @property
    def current(self) -> Entry | None: ...
    @property
    def alive(self) -> bool: ...
    @property
    def focused(self) -> Widget | None: ...
    @property
    def search(self) -> Input: ...

    def refilter(self, *, to_top: bool = False) -> None:
        """Recompute what shows and repaint the list (`to_top`: show the ranking's top)."""

    def show_header(self) -> None: ...

    def marks_changed(self) -> None:
        """Flags changed in place: repaint the rows and the counts."""

    def flush_seen(self) -> None:
        """Hand the seen marks waiting for their batch to the marks service."""

    def load_dismissed(self) -> None:
        """Read which papers are "not interested" under the view's topic."""

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True) -> None: ...
    def post_message(self, message: Message) -> bool: ...
    def run_worker(self, work: Callable[[], Any], name: str | None = "",
                   group: str = "default", description: str = "",
                   exit_on_error: bool = True, start: bool = True,
                   exclusive: bool = False, thread: bool = False) -> Worker[Any]: ...
    def set_timer(self, delay: float, callback: Callable[[], Any] | None = None,
                  *, name: str | None = None, pause: bool = False) -> Timer: ...
    def call_after_refresh(self, callback: Callable[..., Any], *args: Any,
                           **kwargs: Any) -> bool: ...


class DayController:
    """A part of the day screen that owns some of its keys: it reaches the screen only
    through `view` (a `DayView`), reads the screen's session (a new one after a topic
    switch) and says things through the reader."""

    def __init__(self, view: DayView) -> None:
        self.view = view

    @property
    def session(self) -> Session:
        """The day's session, as its model holds it (a new one after a topic switch)."""
        return self.view.model.session

    def _say(self, message: str, severity: str = "information",
             timeout: float | None = None) -> None:
        self.view.reader.say(message, severity, timeout=timeout)
