"""The day model: one loaded announcement as the reader's screens see it, in plain Python.

`DayModel` owns what the day list shows: the entries (one per paper, with its score and the
user's marks), which of them show and in which order (filters, sort key and direction); and
the day's state: its session, the topic the day is scored against (`session.topic`, the one
copy: `set_topic`) and the scoring run's state (`run`: whether a run is under way, its
progress or outcome, the scorer that ranked the list: `set_run`). Screens and widgets
observe it: `subscribe(fn)` calls `fn(change)` after every change with a `DayChange` saying
which papers changed, whether the shown list did, and which of the day's state did
(`state`). No Textual here: the model is tested on its own.

Marks arrive as `MarkChange`s, the marks service's record of one change (`apply_marks`), so
a star given anywhere (the day list, search, a CLI run in another process) shows everywhere.
A mark never reorders or re-filters the list by itself: a row starred or seen stays where it
is until the filters or the sort change (the cursor must not jump under the reader's eyes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as replaced
from typing import TYPE_CHECKING, Any, Literal

from paperterm.day.listing import Entry, FilterState, make_entries, view
from paperterm.day.marks import MarkChange

if TYPE_CHECKING:
    from paperterm.day.session import Session
    from paperterm.models import Paper, Topic
    from paperterm.scoring.types import RunSummary

MarkField = Literal["starred", "saved", "seen", "dismissed", "note", "tags"]
FLAGS = ("starred", "saved", "seen", "dismissed")  # the marks kept as booleans on each entry


@dataclass(frozen=True)
class DayChange:
    """What changed in the model: the papers touched (`ids`, empty when all may have), the
    marks among them (`fields`), whether the shown list changed (`reordered`), whether
    that was a new sort, after which the list shows its top (`resorted`), and which of the
    day's state changed (`state`: "topic", "session", "run")."""

    ids: frozenset[str] = frozenset()
    fields: frozenset[str] = frozenset()
    reordered: bool = False
    resorted: bool = False
    state: frozenset[str] = frozenset()


Observer = Callable[[DayChange], None]


@dataclass(frozen=True)
class RunState:
    """The day's scoring, as the header says it: an LLM run under way (`scoring`), its
    progress or the last run's outcome (`summary`), what ranked the list (`scorer_label`)."""

    scoring: bool = False
    summary: RunSummary | None = None
    scorer_label: str = ""


@dataclass
class DayModel:
    """The entries of one day, what shows of them, in which order, and the user's marks."""

    entries: list[Entry]
    filters: FilterState = field(default_factory=FilterState)
    sort_key: str = "relevance"
    reverse: bool = False
    run: RunState = field(default_factory=RunState)  # changed through `set_run`
    shown: list[Entry] = field(init=False)
    by_id: dict[str, Entry] = field(init=False)
    _observers: list[Observer] = field(default_factory=list, init=False, repr=False)
    _session: Session | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.by_id = {e.id: e for e in self.entries}
        self.shown = list(self.entries)

    @classmethod
    def of_papers(cls, papers: Sequence[Paper], days: Mapping[str, str] | None = None,
                  ) -> DayModel:
        """A model on `papers` (announcement order); `days` fills a multi-day view's day."""
        return cls(make_entries(papers, days))

    @classmethod
    def of_session(cls, session: Session) -> DayModel:
        """A model on the session's day, scored against the session's topic."""
        model = cls(make_entries(session.day.papers, session.day.paper_days))
        model._session = session
        return model

    # -- the day's session and topic (one copy each: every change notifies) -----------------

    @property
    def session(self) -> Session:
        """The day's session: what it was loaded from, its settings, its topic."""
        if self._session is None:
            raise LookupError("this day model was made without a session (of_papers)")
        return self._session

    @property
    def topic(self) -> Topic:
        """The topic the day is scored against (the session's: there is no other copy)."""
        return self.session.topic

    def set_topic(self, topic: Topic) -> None:
        """Score the day against `topic` from now on (its followed authors included)."""
        self.update_session(topic=topic)

    def update_session(self, **changes: Any) -> Session:
        """The day's session with `changes` (`dataclasses.replace`); observers are told
        once (`state`: "session", and "topic" when the topic is another object)."""
        old = self.session
        self._session = new = replaced(old, **changes)
        state = {"session"} | ({"topic"} if new.topic is not old.topic else set())
        self.notify(DayChange(state=frozenset(state)))
        return new

    @property
    def dismissed(self) -> set[str]:
        """The papers marked "not interested" under the screen's topic."""
        return {e.id for e in self.entries if e.dismissed}

    @property
    def categories(self) -> list[str]:
        """Every category of the day's papers, sorted (what the filter dialog offers)."""
        return sorted({c for e in self.entries for c in e.paper.categories})

    # -- observers --------------------------------------------------------------------------

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call `observer(change)` after each change; returns the function that stops it."""
        self._observers.append(observer)

        def unsubscribe() -> None:
            if observer in self._observers:
                self._observers.remove(observer)

        return unsubscribe

    def notify(self, change: DayChange) -> None:
        """Tell every observer about `change` (also for changes made to entries in place,
        e.g. scores merged by the scoring code)."""
        for observer in list(self._observers):
            observer(change)

    # -- the scoring run ----------------------------------------------------------------------

    @property
    def scorer_label(self) -> str:
        """What ranked the list when no run has reported (the header's last words)."""
        return self.run.scorer_label

    def set_run(self, **changes: Any) -> None:
        """Change the run's state (`RunState`'s fields); observers are told once, when
        something changed (a summary passed is always news: a run's progress)."""
        new = replaced(self.run, **changes)
        if new == self.run and "summary" not in changes:
            return
        self.run = new
        self.notify(DayChange(state=frozenset({"run"})))

    # -- what shows, in which order ---------------------------------------------------------

    def refilter(self, *, resorted: bool = False) -> None:
        """Recompute which entries show, in which order, and tell the observers."""
        self.shown = view(self.entries, self.filters, self.sort_key, self.reverse)
        self.notify(DayChange(reordered=True, resorted=resorted))

    def scores_changed(self, *, reorder: bool = True, to_top: bool = False) -> None:
        """Scores (or the followed authors that lift them) were laid on the entries in
        place (`day/score_states.py`): the shown list is recomputed unless `reorder` is
        False (the order cannot have changed), and the observers are told once
        (`fields` {"score"}; `to_top`: the list shows the ranking's top)."""
        if reorder:
            self.shown = view(self.entries, self.filters, self.sort_key, self.reverse)
        self.notify(DayChange(fields=frozenset({"score"}), reordered=reorder,
                              resorted=reorder and to_top))

    def set_filters(self, filters: FilterState) -> None:
        if filters != self.filters:
            self.filters = filters
            self.refilter()

    def set_sort(self, key: str, reverse: bool = False) -> None:
        """Sort by `key` in the given direction (one recomputation when both change)."""
        if (key, reverse) != (self.sort_key, self.reverse):
            self.sort_key, self.reverse = key, reverse
            self.refilter(resorted=True)

    # -- marks ------------------------------------------------------------------------------

    def apply_marks(self, changes: Iterable[MarkChange]) -> DayChange | None:
        """Set the marks the changes carry on the entries of this day (papers of other days
        are ignored) and tell the observers once; the change, or None if nothing changed."""
        ids: set[str] = set()
        fields: set[str] = set()
        for change in changes:
            for pid in change.ids:
                if self._apply(pid, change.field, change.value):
                    ids.add(pid)
                    fields.add(change.field)
        if not ids:
            return None
        day_change = DayChange(ids=frozenset(ids), fields=frozenset(fields))
        self.notify(day_change)
        return day_change

    def _apply(self, pid: str, name: str, value: bool | str | tuple[str, ...]) -> bool:
        e = self.by_id.get(pid)
        if e is None:
            return False
        if name in FLAGS:
            old: object = getattr(e, name)
            new: object = bool(value)
        elif name == "note":
            old, new = e.note, str(value)
        elif name == "tags":
            old = e.tags
            new = (value,) if isinstance(value, str) else tuple(value)  # type: ignore[arg-type]
        else:
            raise ValueError(f"unknown mark {name!r}")
        if old == new:
            return False
        setattr(e, name, new)
        return True

    def triage_counts(self) -> dict[str, int]:
        """Unseen (new to me: not seen, not announced on an earlier day), starred and marked
        papers of the whole day (whatever the filters)."""
        return {"unseen": sum(e.new_to_me for e in self.entries),  # repeats are not new
                "starred": sum(e.starred for e in self.entries),
                "marked": sum(e.marked for e in self.entries)}
