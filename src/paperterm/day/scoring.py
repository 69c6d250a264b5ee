"""The day's scoring policy, in plain Python: which job's events still count, cached scores
first and the rest queued, the queued -> scored / cached / failed / unsent transitions, the
local stand-ins of papers the model did not (or did not yet) score, a stale ranking taught
again, and `r` during a run scored when it ends (rescore-later).

`DayScoring` is fed the scoring service's events (scores, progress, the run's end or failure)
and the local rankings' scores, changes the day model (`DayModel`: the entries' scores, the
run's state through `set_run`, `scores_changed`) and returns what the caller must do next
(say something, rank provisionally, score papers later, rank again). The reader's
`ScoringController` keeps only the Textual side: starting and cancelling the worker threads
(its `Job`s: opaque here, compared by identity), the flush timer, notices, the cursor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from paperterm.day.listing import PROVISIONAL, SCORE_SORTS
from paperterm.day.score_states import (
    clear_scores,
    fail_queued,
    lay_local_under,
    mark_queued,
    mark_unsent,
    merge_scores,
    set_scores,
)

if TYPE_CHECKING:
    from paperterm.day.model import DayModel
    from paperterm.models import Paper, Topic
    from paperterm.scoring.types import RunSummary, Score

Job = TypeVar("Job")  # a worker whose events count while it is the one followed

LOCAL = "local scorer"
LOCAL_RANKING = "local scorer (ranking…)"

Note = tuple[str, str, float | None]  # what to say: text, severity, timeout


@dataclass
class RunEnd:
    """What follows a finished run: what to say (in order) and the papers `r` asked for
    during it, to score now (empty when the run was halted: budget, cancel, failures)."""

    notes: list[Note] = field(default_factory=list)
    later: list[Paper] = field(default_factory=list)


class DayScoring(Generic[Job]):
    """The scoring state of one day model: the jobs followed, the scores not yet shown,
    the papers to score when the run ends."""

    def __init__(self, model: DayModel) -> None:
        self.model = model
        self.run_job: Job | None = None  # the LLM run whose events count
        self.rank_job: Job | None = None  # the local ranking whose scores count
        self.provisional_job: Job | None = None  # the stand-in ranking whose scores count
        self.pending: list[Score] = []  # arrived, shown at the next flush
        self.rescore_next: list[Paper] = []  # `r` during a run: scored when it ends

    @property
    def _use_llm(self) -> bool:
        return bool(self.model.session.settings.use_llm)

    # -- local scores -----------------------------------------------------------------------

    def show_local(self, scores: Iterable[Score], *, label: str = LOCAL) -> None:
        """The local scorer's scores as the day's ranking (its label in the header)."""
        set_scores(self.model.by_id, scores, "local")
        self.model.set_run(scorer_label=label)

    def ranked(self, job: object, topic: Topic, scores: Sequence[Score] | None) -> bool:
        """A local ranking's scores: shown if from the ranking followed, for the topic shown,
        without a model and new; returns whether the rows changed."""
        if (job is not self.rank_job or topic is not self.model.topic or scores is None
                or self._use_llm):
            return False
        by_id = self.model.by_id
        if all((e := by_id.get(s.paper_id)) is None or (e.relevance, e.fine, e.reason) == (
                s.relevance, s.fine, s.reason) for s in scores):
            return False  # nothing new: the rows stay where they are
        self.show_local(scores)
        self.model.scores_changed()
        return True

    def stale(self, job: object, topic: Topic) -> bool:
        """The cached blend shown was taught less than the user has now: whether to rank
        again (the ranking followed, the topic shown, no model); the header says so."""
        if job is not self.rank_job or topic is not self.model.topic or self._use_llm:
            return False
        self.model.set_run(scorer_label=LOCAL_RANKING)
        return True

    def provisional_needed(self, why: str) -> bool:
        """Papers the model did not score keep the day's local value, labelled provisional:
        whether any needs it (the header then says why)."""
        if not any(e.status in PROVISIONAL for e in self.model.entries):
            return False
        self.model.set_run(scorer_label=f"local scorer, provisional ({why})")
        return True

    def lay_under(self, scores: Iterable[Score]) -> int:
        """Local values under the papers waiting for (or missed by) the model."""
        return lay_local_under(self.model.by_id, scores)

    def provisional(self, job: object, topic: Topic, scores: Sequence[Score] | None,
                    *, to_top: Callable[[], bool]) -> bool:
        """The stand-in ranking's scores, laid under the papers the model has not scored
        (if from the stand-in ranking followed, for the topic shown); whether rows changed."""
        if job is not self.provisional_job or scores is None:
            return False
        return self.lay_provisional(topic, scores, to_top=to_top)

    def lay_provisional(self, topic: Topic, scores: Iterable[Score], *,
                        to_top: Callable[[], bool]) -> bool:
        """Local values laid under the papers the model has not scored, for the topic
        shown; the list is re-sorted when any changed (returned), showing its top if
        `to_top()` (asked only then: the reader reads its cursor)."""
        if topic is not self.model.topic or not self.lay_under(scores):
            return False
        self.model.scores_changed(to_top=to_top())
        return True

    # -- a model run: cached first, the rest queued ------------------------------------------

    def show_cached(self, papers: Sequence[Paper], cached: Mapping[str, Score]) -> list[Paper]:
        """Cached scores shown now; returns the papers still to score."""
        set_scores(self.model.by_id, cached.values(), "cached")
        return [p for p in papers if p.id not in cached]

    def queue(self, papers: Iterable[Paper]) -> None:
        """Papers a run is about to score show "…" (a real score stays)."""
        mark_queued(self.model.by_id, papers)

    def cannot_send(self, papers: Iterable[Paper], why: str) -> None:
        """No run can start (no API key): the papers show failed, with the reason."""
        mark_queued(self.model.by_id, papers)
        fail_queued(self.model.entries, why)

    def run_started(self, job: Job) -> None:
        """A run (replacing any) is under way: only its events count from now on."""
        self.run_job = job
        self.model.set_run(scoring=True, summary=None)

    def run_cancelled(self) -> None:
        """The run under way is forgotten: whatever it still sends is ignored."""
        self.run_job = None
        self.model.set_run(scoring=False)

    def counts(self, job: object) -> bool:
        """Whether an event from `job` counts: it is the run under way."""
        return job is self.run_job

    def rescore_later(self, papers: Sequence[Paper]) -> str:
        """`r` while a run is in flight never cancels paid requests: the papers neither
        queued nor scored by the model are scored when the run ends. Returns what to say."""
        by_id = self.model.by_id
        queued = sum(1 for e in self.model.entries if e.status == "queued")
        new = [p for p in papers if by_id[p.id].status != "queued"
               and not (by_id[p.id].has_score
                        and by_id[p.id].status not in ("local", "prefilter"))]
        known = {p.id for p in self.rescore_next}
        self.rescore_next.extend(p for p in new if p.id not in known)
        if new:
            return (f"Scoring is running ({queued} papers queued): {len(new)} more will be "
                    "scored when it finishes.")
        return f"Scoring is running: {queued} papers queued."

    def switch_topic(self) -> None:
        """Another topic: the old topic's jobs, pending scores and rescore-later are
        forgotten, every score cleared (the run is cancelled by the caller first)."""
        self.rescore_next = []
        self.rank_job = self.provisional_job = None
        self.model.set_run(summary=None)
        self.pending.clear()
        clear_scores(self.model.entries)

    # -- the run's events ---------------------------------------------------------------------

    def scores_arrived(self, scores: Iterable[Score]) -> None:
        """Scores kept until the next `flush` (the caller coalesces repaints)."""
        self.pending.extend(scores)

    def flush(self) -> bool:
        """Show the scores arrived; the list is re-sorted only when the order can depend on
        them (a score sort, a minimum relevance). Returns whether any row changed."""
        pending, self.pending = self.pending, []
        model = self.model
        if not merge_scores(model.by_id, pending):
            return False
        model.scores_changed(reorder=model.sort_key in SCORE_SORTS
                             or model.filters.min_relevance is not None)
        return True

    def progress(self, summary: RunSummary) -> None:
        if self.model.run.scoring:
            self.model.set_run(summary=summary)

    def failed(self, error: str) -> None:
        """The run failed: what it scored shows, the papers still queued show the error.
        (The caller says it and ranks provisionally.)"""
        self.flush()
        self.run_job = None
        self.model.set_run(scoring=False)
        fail_queued(self.model.entries, error)
        self.model.scores_changed()

    def finished(self, summary: RunSummary) -> RunEnd:
        """The run ended: what it did not report shows failed, or unsent after a soft halt.
        The caller says the notes, repaints (`scores_changed`), ranks provisionally and
        scores `later`."""
        self.flush()
        self.run_job = None
        self.model.set_run(scoring=False, summary=summary)
        entries = self.model.entries
        fail_queued(entries, summary.stopped or "no score returned")
        end = RunEnd()
        if summary.prefiltered:
            end.notes.append((f"Prefilter: {summary.prefiltered} papers not sent (local score "
                              f"shown), about {summary.saved_tokens:,} tokens saved",
                              "information", 8))
        if summary.stopped:
            mark_unsent(entries, summary.stopped)
        end.notes.extend((note, "warning", None) for note in summary.notices)
        if summary.stopped:
            end.notes.append((f"Scoring {summary.stop_line}", "warning", 12))
        later, self.rescore_next = self.rescore_next, []
        if summary.halted is None:
            end.later = later
        return end
