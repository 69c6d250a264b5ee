"""What the reader's worker threads tell the screen (or app) that started them, as typed
messages: the one way a thread reports (`workers.post`).

Every message carries the worker that sent it: a Textual `Worker`, or the `threading.Thread`
of a day load (a daemon thread: `q` must not wait for a hanging network). The receiver acts
only on messages from the job it is waiting for, so a cancelled or replaced job (a topic
switch, a rescore, a newer ranking) can never paint its late results over the current ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

from paperterm.services import days, scoring

if TYPE_CHECKING:
    import threading
    from collections.abc import Mapping

    from textual.worker import Worker

    from paperterm.day.listing import Entry
    from paperterm.day.marks import PaperMarks
    from paperterm.day.scores import ShownScore
    from paperterm.models import Topic
    from paperterm.services.library import SearchHit
    from paperterm.services.scoring import Score
    from paperterm.tui.zotero_actions import ZoteroOutcome

    Job = Worker[Any] | threading.Thread


class WorkerMessage(Message, bubble=False):
    """Base of every worker's messages: `worker` is the job that sent it. They go to the
    screen (or app) that started the job and no further."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        kwargs.setdefault("bubble", False)
        super().__init_subclass__(**kwargs)

    def __init__(self, worker: Job) -> None:
        super().__init__()
        self.worker = worker


# -- a service's own events -----------------------------------------------------------------


LATEST_WINS: tuple[type, ...] = (scoring.ScoringProgress,)  # only the newest counts


class ServiceEvent(WorkerMessage):
    """A service's event as the service made it (`services.scoring.ScoringEvent` from the
    LLM run, `services.days.DayEvent` from a day's fetch), from the job that ran the
    service: the handler dispatches on its type (`match message.event:`). No message class
    mirrors an event. Progress (`LATEST_WINS`) collapses: a burst of a run's totals queued
    behind one another is handled once, with the newest (`can_replace`)."""

    def __init__(self, worker: Job, event: scoring.ScoringEvent | days.DayEvent) -> None:
        super().__init__(worker)
        self.event = event

    def can_replace(self, message: Message) -> bool:
        """Textual's queue drops this one when the next waiting is a newer event of the
        same kind from the same job, and the kind is one where only the newest counts."""
        return (isinstance(message, ServiceEvent) and message.worker is self.worker
                and isinstance(self.event, LATEST_WINS)
                and type(message.event) is type(self.event))


# -- local ranking, enrichment, Zotero, summaries -------------------------------------------


class LocalScores(WorkerMessage):
    """Local scores for `topic` (None: none could be made). `provisional`: laid under the
    papers the model did not score, else the day's ranking. `notice`: what to tell the user
    ("" nothing; the ranking process failed and the ranking ran in the reader instead).
    `stale`: the day's cached ranking was checked and is not taught what the user taught
    it now (rank it again)."""

    def __init__(self, worker: Job, topic: Topic, scores: list[Score] | None, *,
                 provisional: bool = False, notice: str = "", stale: bool = False) -> None:
        super().__init__(worker)
        self.topic, self.scores, self.provisional = topic, scores, provisional
        self.notice, self.stale = notice, stale


class UnsureFound(WorkerMessage):
    """The unsure queue of the day for `topic`: paper `ids`, least sure first; `how`:
    "learned" (the learned model's uncertainty) or "borderline" (the ranking's band, no
    learned model yet); `notice`: the ranking process failed (found in the reader)."""

    def __init__(self, worker: Job, topic: Topic, ids: list[str], how: str,
                 notice: str = "") -> None:
        super().__init__(worker)
        self.topic, self.ids, self.how, self.notice = topic, ids, how, notice


class StoreChanged(WorkerMessage):
    """Another connection (a `paperterm star` in another shell, another reader) committed
    to the database: the marks shown may be stale. Several queued make one reload."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, StoreChanged) and message.worker is self.worker


class MarksRead(WorkerMessage):
    """The open days' marks read again off the UI thread after another connection wrote
    (`StoreChanged`): `fresh` per paper id, "dismissed" for `topic`; `changed`: how many
    changes the reader had published when the read began."""

    def __init__(self, worker: Job, topic: str, fresh: Mapping[str, PaperMarks],
                 changed: int) -> None:
        super().__init__(worker)
        self.topic, self.fresh, self.changed = topic, fresh, changed


class EnrichmentDone(WorkerMessage):
    """The day's enrichment is cached; `problem` is what went wrong ("" if nothing)."""

    def __init__(self, worker: Job, problem: str) -> None:
        super().__init__(worker)
        self.problem = problem


class ZoteroDone(WorkerMessage):
    """`targets` were sent to Zotero (or not: `outcome.error`)."""

    def __init__(self, worker: Job, targets: list[Entry], outcome: ZoteroOutcome) -> None:
        super().__init__(worker)
        self.targets, self.outcome = targets, outcome


class SummaryReady(WorkerMessage):
    """A paper's summary (`text`, None if there is none), the body and foot to show."""

    def __init__(self, worker: Job, text: str | None, body: str, foot: str) -> None:
        super().__init__(worker)
        self.text, self.body, self.foot = text, body, foot


class LibraryFound(WorkerMessage):
    """The hits of the library search for `query`, with their shown scores."""

    def __init__(self, worker: Job, query: str, hits: list[SearchHit],
                 shown: dict[str, ShownScore], error: str = "") -> None:
        super().__init__(worker)
        self.query, self.hits, self.shown = query, hits, shown
        self.error = error  # the index refused the query: said, never shown as "no results"


# -- the evaluation screen --------------------------------------------------------------------


class EvaluationReady(WorkerMessage):
    """How each scorer ranks the user's picks, as the lines to show (or why there are none)."""

    def __init__(self, worker: Job, lines: list[str]) -> None:
        super().__init__(worker)
        self.lines = lines
