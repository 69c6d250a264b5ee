"""The day screen's scoring: local scores at once, or cached LLM scores now and the rest from a
worker thread whose typed messages (`paperterm.tui.messages`) are applied as they arrive.

`ScoringController` is held by the day screen, which hands it the worker messages. What they
do to the day is decided by `paperterm.day.scoring.DayScoring` (plain Python): whether a
message counts (only from the worker followed: cancelling or replacing a run, or a ranking,
forgets its worker, and its late messages are dropped), the score states, rescore-later.
The controller starts and cancels the workers, coalesces repaints, and says what to say.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import TYPE_CHECKING, Any

from paperterm.day.scoring import LOCAL_RANKING, DayScoring
from paperterm.models import Paper, Topic
from paperterm.services import ranking
from paperterm.services.scoring import (
    RunSummary,
    Score,
    ScoresArrived,
    ScoringFailed,
    ScoringFinished,
    ScoringProgress,
)
from paperterm.settings.reader_state import count_hint, hint_due
from paperterm.tui.messages import LocalScores, ServiceEvent
from paperterm.tui.scoring_worker import (
    check_ranking_in_thread,
    provisional_in_thread,
    rank_in_thread,
    score_in_thread,
)
from paperterm.tui.screens.day_view import DayController

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.timer import Timer
    from textual.worker import Worker

    from paperterm.tui.screens.day_view import DayView

# what matters first, the whole within 80 columns (issue 32, low: it was cut before the model)
ENABLE_LLM_HINT = 'For LLM scoring: --model openai/gpt-4o-mini (or model = "…" in the config).'


class ScoringController(DayController):
    """Starts, cancels and follows scoring runs and local rankings for the day screen."""

    SCORE_FLUSH_DELAY = 0.1  # coalesce score batches into one repaint per 100 ms
    INLINE_LOCAL_MAX = 400  # larger days are ranked by the local scorer on a worker thread

    def __init__(self, view: DayView) -> None:
        super().__init__(view)
        self.model = view.model
        self.day: DayScoring[Worker[Any]] = DayScoring(view.model)  # what the events do
        self._cancel: threading.Event | None = None  # polled by the engine
        self._flush_timer: Timer | None = None

    @property
    def _worker(self) -> Worker[Any] | None:
        """The LLM run whose messages count."""
        return self.day.run_job

    # -- starting and stopping runs ----------------------------------------------------------

    def start_on_launch(self) -> None:
        session = self.session
        stand_in = session.pending is not None and session.day.source == "sample"
        if session.settings.use_llm and not stand_in:
            self.score_with_llm([e.paper for e in self.model.entries], use_cache=True,
                                prefilter=True)
        else:  # the sample day while today's is fetched: no tokens on a stand-in
            self.score_locally(hint=not session.settings.use_llm)

    def stand_in_stays(self) -> None:
        """Today's fetch failed: the sample day shown meanwhile stays, scored as a day is."""
        if self.session.settings.use_llm:
            self.score_with_llm([e.paper for e in self.model.entries], use_cache=True,
                                prefilter=True)

    def score_locally(self, *, hint: bool) -> None:
        """Local scores: the day's newest cached blend, checked after the first paint (what
        the user taught the ranking is read on a worker thread); else keyword scores
        (cached, or computed now for a small day) and the blend from a worker thread."""
        reader, model = self.view.reader, self.model
        # on the first starts only; once per run (a loading or cached day's screen comes first)
        if hint and "llm" not in reader.hints_given and hint_due("llm"):
            reader.hints_given.add("llm")
            self.view.notices.append((ENABLE_LLM_HINT, "information"))
            self.view.run_worker(partial(count_hint, "llm"), name="hint", thread=True,
                                 exit_on_error=False)
        papers = [e.paper for e in model.entries]
        store, label, topic = reader.store, self.session.day.label, self.model.topic
        # issue 32, item 10: whether it is current is read after the first paint (what the
        # user taught it grows with a year of marks); ranked again if it is not
        scores = ranking.newest_blend(store, papers, topic, label)
        if scores is not None:
            self.day.show_local(scores)
            self.view.call_after_refresh(self.check_ranking)
            return
        small = len(papers) <= self.INLINE_LOCAL_MAX
        scores = ranking.keyword_scores(store, papers, topic, label, compute=small)
        if scores is not None:
            self.day.show_local(scores)
        else:
            model.set_run(scorer_label=LOCAL_RANKING)
        # after the first paint: loading the embedding model competes for the interpreter
        self.view.call_after_refresh(partial(self.relearn, keywords_first=scores is None))

    def relearn(self, *, keywords_first: bool = False) -> None:
        """Rank again from what the user taught it (a star, "not interested"), on a worker
        thread: the embeddings are cached, so it takes milliseconds after the first time.
        With `keywords_first` the keyword scores are shown as soon as they are ready."""
        if self.session.settings.use_llm or not self.model.entries or not self.view.alive:
            return
        papers = [e.paper for e in self.model.entries]
        self.day.rank_job = self.view.run_worker(
            partial(rank_in_thread, self.view, papers, self.model.topic, self._where(),
                    self.session.day.label, keywords_first),
            name="ranking", group="ranking", thread=True, exit_on_error=False)

    def check_ranking(self) -> None:
        """Whether the day's cached blend shown is taught what the user taught it now, read
        on a worker thread: its current blend shows, or it is ranked again (`relearn`)."""
        if not self.model.entries or not self.view.alive:
            return
        self.day.rank_job = self.view.run_worker(
            partial(check_ranking_in_thread, self.view, [e.paper for e in self.model.entries],
                    self.model.topic, self.session.open_store, self.session.day.label),
            name="ranking", group="ranking", thread=True, exit_on_error=False)

    def _where(self) -> ranking.LocalRanking:
        """The reader's ranking process (over this session's database), else this process."""
        return ranking.LocalRanking(self.view.reader.ranking, self.session.db_path,
                            self.session.open_store)

    def on_local_scores(self, message: LocalScores) -> None:
        if message.notice:
            self.view.reader.say(message.notice, "warning")
        if message.provisional:  # counted only from the stand-in ranking followed
            self.day.provisional(message.worker, message.topic, message.scores,
                                 to_top=self._to_top)
        elif message.stale:  # the cached blend shown was taught less than the user has now
            if self.day.stale(message.worker, message.topic):
                self.relearn()
        elif self.view.alive:  # counted only from the ranking followed (not a replaced one)
            self.day.ranked(message.worker, message.topic, message.scores)

    def rank_provisionally(self, why: str) -> None:
        """The papers the model did not score keep the day's local value, labelled
        provisional, so the list stays ranked as `score --json` ranks it."""
        if self.day.provisional_needed(why):
            self._stand_in_ranking(self._provisional)

    def rank_queued(self) -> None:
        """Papers waiting for the model show their local value meanwhile ("~7")."""
        self._stand_in_ranking(lambda _topic, scores: self.day.lay_under(scores))

    def _stand_in_ranking(self, now: Callable[[Topic, list[Score]], object]) -> None:
        """The day's local values (`day.scores.stand_in_ranking`: the blend) to `now` when
        cached; else the keyword ranking now when quick or cached, and the blend from a
        worker laid over it (`_provisional`)."""
        from paperterm.day.scores import stand_in_ranking

        papers = [e.paper for e in self.model.entries]
        topic, store, label = self.model.topic, self.view.reader.store, self.session.day.label
        scores = stand_in_ranking(store, papers, topic, label, compute=False)
        if scores is not None:
            now(topic, scores)
            return
        scores = ranking.keyword_scores(store, papers, topic, label,
                                        compute=len(papers) <= self.INLINE_LOCAL_MAX)
        if scores is not None:
            now(topic, scores)
        self.day.provisional_job = self.view.run_worker(
            partial(provisional_in_thread, self.view, papers, topic, self._where(), label,
                    keywords_first=scores is None),
            name="ranking", group="ranking", thread=True, exit_on_error=False)

    def _provisional(self, topic: Topic, scores: list[Score]) -> None:
        self.day.lay_provisional(topic, scores, to_top=self._to_top)

    def _to_top(self) -> bool:
        """Whether a new ranking shows its top: unless the user is reading further down."""
        return not self.view.table.moved_by_user

    def score_with_llm(self, papers: list[Paper], *, use_cache: bool,
                       prefilter: bool = False) -> None:
        """Show cached scores now, queue the rest and score them on a worker thread; with
        `prefilter` (the whole day) and `--prefilter` set, only the local top part."""
        todo = papers
        store = self.view.reader.store
        if use_cache:
            from paperterm.services.scoring import cached_scores

            try:
                cached = cached_scores(store.scores, todo, self.model.topic, self.session.settings)
            except Exception as exc:
                cached = {}
                self.view.notices.append((f"score cache unreadable: {exc}", "warning"))
            todo = self.day.show_cached(todo, cached)
        self.model.set_run(scorer_label=self.session.settings.model)
        if not todo or not self.view.autoscore:
            return
        from paperterm.services.scoring import missing_key

        stop = missing_key(self.session.settings)
        if stop is not None:  # said at once: litellm is never imported for nothing
            self.day.cannot_send(todo, stop)
            self._say(stop, "error", timeout=12)
            self.rank_provisionally("no API key")
            return
        self.day.queue(todo)
        self.rank_queued()  # ranked locally from the first paint, until the model's scores
        # after the list is on screen: the worker imports the engine (and litellm)
        self.model.set_run(scoring=True)
        self.view.call_after_refresh(partial(self.start_scoring, todo, prefilter=prefilter))

    def start_scoring(self, papers: list[Paper], *, prefilter: bool = False,
                      fresh: bool = False) -> None:
        """Score `papers` on a worker thread (replacing any run under way); with `prefilter`,
        only those `--prefilter` sends (see `scoring_worker`); `fresh`: ask the model again
        even where a cached score exists."""
        self.cancel()
        self._cancel = threading.Event()
        view = self.view
        s = self.session
        day = s.day.day.isoformat() if s.day.day else None
        whole = (s.day.label, [e.paper for e in self.model.entries]) if prefilter else None
        self.day.run_started(view.run_worker(
            partial(score_in_thread, view, papers, self.model.topic, s.settings, s.open_store,
                    self._cancel, day, whole, fresh),
            name="scoring", group="scoring", thread=True, exit_on_error=False,
        ))

    def rescore(self) -> None:
        """`r`: score the shown papers (cached scores first); locally without a model."""
        papers = [e.paper for e in self.model.shown]
        if not papers:
            return
        view = self.view
        if self.session.settings.use_llm and self.model.run.scoring:
            # never cancels paid requests: what is new is scored when the run ends
            self._say(self.day.rescore_later(papers))
            return
        if self.session.settings.use_llm:
            view.autoscore = True
            self.score_with_llm(papers, use_cache=True)
            if not self.model.run.scoring:
                self._say("Every shown paper already has a score for this topic and model.")
            self.model.scores_changed()
        else:
            self.score_locally(hint=False)
            self.model.scores_changed()
            self._say(ENABLE_LLM_HINT, timeout=6)

    def force_rescore(self) -> None:
        """Ask the model again for the shown papers, cached scores ignored (a forced
        rescore: new answers replace the cached ones; the budget still applies)."""
        from paperterm.services.scoring import missing_key

        settings = self.session.settings
        papers = [e.paper for e in self.model.shown]
        if not settings.use_llm:
            self._say(ENABLE_LLM_HINT, timeout=6)
            return
        if not papers:
            return
        if self.model.run.scoring:
            self._say("Scoring is running: force a rescore once it has finished.", "warning")
            return
        stop = missing_key(settings)
        if stop is not None:
            self._say(stop, "error", timeout=12)
            return
        self.view.autoscore = True
        self._say(f"Asking {settings.model} again for {len(papers)} papers "
                  "(cached scores ignored)", timeout=4)
        self.start_scoring(papers, fresh=True)

    def cancel(self) -> None:
        """Stop the run under way; whatever it still sends is ignored."""
        if self._cancel is not None:
            self._cancel.set()
            self._cancel = None
        if self.day.run_job is not None:
            self.day.run_job.cancel()
        self.day.run_cancelled()

    def switch_topic(self) -> None:
        """The view's topic changed: forget the old topic's runs and scores, score anew."""
        self.cancel()
        self.day.switch_topic()
        if self.session.settings.use_llm and (ask := self._costly([
                e.paper for e in self.model.entries])) is not None:
            self.score_locally(hint=False)  # ranked locally until `r` says go
            self._say(ask, timeout=15)
        elif self.session.settings.use_llm:
            self.view.autoscore = True
            self.score_with_llm([e.paper for e in self.model.entries], use_cache=True,
                                prefilter=True)
        else:
            self.score_locally(hint=False)

    def _costly(self, papers: list[Paper]) -> str | None:
        """What to ask before a model run over config `confirm_cost`, or None."""
        from paperterm.services.scoring import ask_first

        return ask_first(papers, self.model.topic, self.session.settings,
                         self.session.open_store, self.session.config.confirm_cost,
                         then="ranked locally; press r to score with the model",
                         load_prices=False)

    # -- the LLM worker's messages: the scoring service's own events ------------------------

    def on_service_event(self, message: ServiceEvent) -> None:
        """An event of the scoring service, counted only if from the run under way."""
        if not self.day.counts(message.worker):
            return
        match message.event:
            case ScoresArrived(scores=scores):
                # shown together at most every 100 ms
                self.day.scores_arrived(scores)
                if self._flush_timer is None:
                    self._flush_timer = self.view.set_timer(self.SCORE_FLUSH_DELAY,
                                                            self._flush_scores)
            case ScoringProgress(summary=summary):
                self.day.progress(summary)
            case ScoringFailed(error=error):
                self._flush_timer = None
                self.day.failed(error)
                self._say(error, "error", timeout=12)
                self.rank_provisionally("the model could not score")
            case ScoringFinished(summary=summary):
                self._finished(summary)

    def _finished(self, summary: RunSummary) -> None:
        self._flush_timer = None
        end = self.day.finished(summary)
        for text, severity, timeout in end.notes:
            self._say(text, severity, timeout=timeout)
        # the final ranking: its top shows, unless the user is reading further down
        self.model.scores_changed(to_top=self._to_top())
        self.rank_provisionally("not all scored by the model")
        if end.later:
            self.score_with_llm(end.later, use_cache=True)
            self.model.scores_changed(reorder=False)  # those queued say so

    def _flush_scores(self) -> None:
        self._flush_timer = None
        self.day.flush()
