"""The day screen's scoring: local scores at once, or cached LLM scores now and the rest from
a worker thread whose typed messages (`paperterm.tui.messages`) are applied as they arrive.

A mixin of `DayScreen`, kept apart so that the screen module stays about the list. A message
counts only if it comes from the worker the screen is waiting for (`_worker`): cancelling or
replacing a run forgets its worker, and its late messages are dropped.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.timer import Timer
from textual.worker import Worker

from paperterm.listing import PROVISIONAL, SCORE_SORTS, Entry, FilterState
from paperterm.models import Paper, Topic
from paperterm.reader_state import count_hint, hint_due
from paperterm.scoring.types import RunSummary, Score
from paperterm.session import Session
from paperterm.tui.entry_scores import (
    fail_queued,
    lay_local_under,
    mark_queued,
    mark_unsent,
    merge_scores,
    set_scores,
)
from paperterm.tui.messages import ScoresArrived, ScoringFailed, ScoringFinished, ScoringProgress
from paperterm.tui.scoring_worker import score_in_thread

if TYPE_CHECKING:
    from paperterm.tui.host import Reader
    from paperterm.tui.paper_list import PaperTable
    from paperterm.tui.preview import Preview

ENABLE_LLM_HINT = (
    "Ranked by the local keyword scorer. For LLM scoring pass --model openai/gpt-4o-mini "
    "(or set model = \"...\" in the config file); r rescores."
)


class LiveScoring:
    """Starts, cancels and follows scoring runs for the day screen."""

    SCORE_FLUSH_DELAY = 0.1  # coalesce score batches into one repaint per 100 ms
    INLINE_LOCAL_MAX = 400  # larger days are ranked by the local scorer on a worker thread

    # provided by DayScreen
    session: Session
    topic: Topic
    autoscore: bool
    entries: list[Entry]
    by_id: dict[str, Entry]
    sort_key: str
    filters: FilterState
    scoring: bool
    summary: RunSummary | None
    scorer_label: str
    shown: list[Entry]
    reader: Reader
    table: PaperTable
    preview: Preview
    _notices: list[tuple[str, str]]
    _refilter: Callable[..., None]
    _show_header: Callable[[], None]
    set_timer: Callable[..., Timer]
    call_after_refresh: Callable[..., bool]
    run_worker: Callable[..., Worker[Any]]

    _worker: Worker[Any] | None = None  # the run whose messages count
    _cancel: threading.Event | None = None  # polled by the engine
    _pending_scores: list[Score]
    _flush_timer: Timer | None = None
    _rescore_next: list[Paper]  # `r` during a run: scored when it ends
    _rank_generation: int = 0  # the local ranking whose result counts (a newer one wins)
    alive: bool  # composed, attached and the app not quitting (DayScreen's property)

    # -- starting and stopping runs ----------------------------------------------------------

    def _start_scoring_on_launch(self) -> None:
        if self.session.settings.use_llm:
            self._score_with_llm([e.paper for e in self.entries], use_cache=True,
                                 prefilter=True)
        else:
            self._score_locally(hint=True)

    def _score_locally(self, *, hint: bool) -> None:
        """Local scores: the learned blend from the cache for this day, topic and what the
        user taught it; else keyword scores (cached, or computed at once for a small day)
        now and the blend from a worker thread (which loads the embedding model)."""
        from paperterm.scoring import cached_local_scores
        from paperterm.scoring.blend_cache import cached_blend, training_examples

        # on the first starts only, then it is known; once per run (a loading screen, or a
        # cached day, is followed by the fetched day's screen)
        if hint and "llm" not in self.reader.hints_given and hint_due("llm"):
            self.reader.hints_given.add("llm")
            self._notices.append((ENABLE_LLM_HINT, "information"))
            self.run_worker(partial(count_hint, "llm"), name="hint", thread=True,
                            exit_on_error=False)
        papers = [e.paper for e in self.entries]
        store, label = self.reader.store, self.session.day.label
        scores = cached_blend(store, label, papers, self.topic,
                              training_examples(store, self.topic))
        if scores is not None:
            set_scores(self.by_id, scores, "local")
            self.scorer_label = "local scorer"
            return
        small = len(papers) <= self.INLINE_LOCAL_MAX
        scores = cached_local_scores(store, label, papers, self.topic, compute=small)
        if scores is not None:
            set_scores(self.by_id, scores, "local")
            self.scorer_label = "local scorer"
        else:
            self.scorer_label = "local scorer (ranking…)"
        # after the first paint: loading the embedding model competes for the interpreter
        self.call_after_refresh(partial(self.relearn, keywords_first=scores is None))

    def relearn(self, *, keywords_first: bool = False) -> None:
        """Rank again from what the user taught it (a star, "not interested"), on a worker
        thread: the embeddings are cached, so it takes milliseconds after the first time.
        With `keywords_first` the keyword scores are shown as soon as they are ready."""
        if self.session.settings.use_llm or not self.entries or not self.alive:
            return
        self._rank_generation += 1
        papers = [e.paper for e in self.entries]
        self.run_worker(partial(self._rank_in_thread, papers, self.topic,
                                self._rank_generation, keywords_first),
                        name="ranking", group="ranking", thread=True, exit_on_error=False)

    def _rank_in_thread(self, papers: list[Paper], topic: Topic, generation: int,
                        keywords_first: bool) -> None:
        from paperterm.scoring import cached_local_scores
        from paperterm.scoring.blend import learned_local_scores
        from paperterm.store import Store

        try:
            store: Store | None = Store.open(self.session.db_path)
        except Exception:  # no cache this time; the scores still come
            store = None
        label = self.session.day.label
        try:
            if keywords_first:
                keywords = cached_local_scores(store, label, papers, topic)
                with contextlib.suppress(Exception):  # the app may have quit meanwhile
                    self.reader.call_from_thread(self._ranked, topic, keywords, generation)
            scores = learned_local_scores(store, label, papers, topic)
        finally:
            if store is not None:
                store.close()
        with contextlib.suppress(Exception):
            self.reader.call_from_thread(self._ranked, topic, scores, generation)

    def _ranked(self, topic: Topic, scores: list[Score] | None, generation: int) -> None:
        if (not self.alive or topic is not self.topic or scores is None
                or self.session.settings.use_llm or generation != self._rank_generation):
            return
        if all((e := self.by_id.get(s.paper_id)) is None or (e.relevance, e.fine, e.reason) == (
                s.relevance, s.fine, s.reason) for s in scores):
            return  # nothing new: the rows stay where they are
        set_scores(self.by_id, scores, "local")
        self.scorer_label = "local scorer"
        self._refilter()
        self.preview.render_entry()

    def _rank_provisionally(self, why: str) -> None:
        """The papers the model did not score keep a local score, labelled provisional, so
        the list stays ranked (now for a small day, else from a worker thread)."""
        from paperterm.scoring import cached_local_scores

        if not any(e.status in PROVISIONAL and e.relevance is None for e in self.entries):
            return
        self.scorer_label = f"local scorer, provisional ({why})"
        papers = [e.paper for e in self.entries]
        scores = cached_local_scores(self.reader.store, self.session.day.label, papers,
                                     self.topic, compute=len(papers) <= self.INLINE_LOCAL_MAX)
        if scores is not None:
            self._provisional(self.topic, scores)
            return
        self.run_worker(partial(self._provisional_in_thread, papers, self.topic),
                        name="ranking", group="ranking", thread=True, exit_on_error=False)

    def _provisional_in_thread(self, papers: list[Paper], topic: Topic) -> None:
        from paperterm.scoring import cached_local_scores
        from paperterm.store import Store

        try:
            store: Store | None = Store.open(self.session.db_path)
        except Exception:  # no cache this time; the scores still come
            store = None
        try:
            scores = cached_local_scores(store, self.session.day.label, papers, topic)
        finally:
            if store is not None:
                store.close()
        with contextlib.suppress(Exception):  # the app may have quit meanwhile
            self.reader.call_from_thread(self._provisional, topic, scores)

    def _provisional(self, topic: Topic, scores: list[Score] | None) -> None:
        if topic is not self.topic or scores is None or self.scoring:
            return
        if lay_local_under(self.by_id, scores):
            self._refilter(to_top=not self.table.moved_by_user)
            self.preview.render_entry()

    def _score_with_llm(self, papers: list[Paper], *, use_cache: bool,
                        prefilter: bool = False) -> None:
        """Show cached scores now, queue the rest and score them on a worker thread; with
        `prefilter` (the whole day) and `--prefilter` set, only the local top part."""
        todo = papers
        store = self.reader.store
        if use_cache and store is not None:
            from paperterm.scoring import cached_scores

            try:
                cached = cached_scores(store, todo, self.topic, self.session.settings)
            except Exception as exc:
                cached = {}
                self._notices.append((f"score cache unreadable: {exc}", "warning"))
            set_scores(self.by_id, cached.values(), "cached")
            todo = [p for p in todo if p.id not in cached]
        self.scorer_label = self.session.settings.model
        if not todo or not self.autoscore:
            return
        from paperterm.scoring.keys import key_stop

        settings = self.session.settings
        stop = key_stop(settings.model, settings.api_base,
                        extra=settings.model_options.extra)
        if stop is not None:  # said at once: litellm is never imported for nothing
            mark_queued(self.by_id, todo)
            fail_queued(self.entries, stop.text)
            self.reader.say(stop.text, "error", timeout=12)
            self._rank_provisionally("no API key")
            return
        mark_queued(self.by_id, todo)
        # after the list is on screen: the worker imports the engine (and litellm)
        self.scoring = True
        self.call_after_refresh(partial(self.start_scoring, todo, prefilter=prefilter))

    def start_scoring(self, papers: list[Paper], *, prefilter: bool = False,
                      fresh: bool = False) -> None:
        """Score `papers` on a worker thread (replacing any run under way); with `prefilter`,
        only those `--prefilter` sends (see `scoring_worker`); `fresh`: ask the model again
        even where a cached score exists."""
        self.cancel_scoring()
        self._cancel = threading.Event()
        self.scoring = True
        self.summary = None
        s = self.session
        day = s.day.day.isoformat() if s.day.day else None
        whole = (s.day.label, [e.paper for e in self.entries]) if prefilter else None
        self._worker = self.run_worker(
            partial(score_in_thread, self, papers, self.topic, s.settings, s.db_path,
                    self._cancel, day, whole, fresh),
            name="scoring", group="scoring", thread=True, exit_on_error=False,
        )

    def action_force_rescore(self) -> None:
        """Ask the model again for the shown papers, cached scores ignored (a forced
        rescore: new answers replace the cached ones; the budget still applies)."""
        from paperterm.scoring.keys import key_stop

        settings = self.session.settings
        papers = [e.paper for e in self.shown]
        if not settings.use_llm:
            self.reader.say(ENABLE_LLM_HINT, timeout=6)
            return
        if not papers:
            return
        if self.scoring:
            self.reader.say("Scoring is running: force a rescore once it has finished.",
                            "warning")
            return
        stop = key_stop(settings.model, settings.api_base,
                        extra=settings.model_options.extra)
        if stop is not None:
            self.reader.say(stop.text, "error", timeout=12)
            return
        self.autoscore = True
        self.reader.say(f"Asking {settings.model} again for {len(papers)} papers "
                        "(cached scores ignored)", timeout=4)
        self.start_scoring(papers, fresh=True)

    def rescore_later(self, papers: list[Paper]) -> None:
        """`r` while a run is in flight never cancels paid requests: the shown papers that
        are neither queued nor scored by the model are scored when the run ends."""
        queued = sum(1 for e in self.entries if e.status == "queued")
        new = [p for p in papers if self.by_id[p.id].status != "queued"
               and not (self.by_id[p.id].has_score
                        and self.by_id[p.id].status not in ("local", "prefilter"))]
        known = {p.id for p in self._rescore_next}
        self._rescore_next.extend(p for p in new if p.id not in known)
        if new:
            self.reader.say(f"Scoring is running ({queued} papers queued): {len(new)} more "
                            "will be scored when it finishes.")
        else:
            self.reader.say(f"Scoring is running: {queued} papers queued.")

    def cancel_scoring(self) -> None:
        """Stop the run under way; whatever it still sends is ignored."""
        if self._cancel is not None:
            self._cancel.set()
            self._cancel = None
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None
        self.scoring = False

    # -- the worker's messages -----------------------------------------------------------

    def on_scores_arrived(self, message: ScoresArrived) -> None:
        """Queue scores for display; they are applied together at most every 100 ms."""
        if message.worker is not self._worker:
            return
        self._pending_scores.extend(message.scores)
        if self._flush_timer is None:
            self._flush_timer = self.set_timer(self.SCORE_FLUSH_DELAY, self._flush_scores)

    def on_scoring_progress(self, message: ScoringProgress) -> None:
        if message.worker is self._worker and self.scoring:
            self.summary = message.summary

    def on_scoring_failed(self, message: ScoringFailed) -> None:
        if message.worker is not self._worker:
            return
        self._flush_scores()
        self._worker = None
        self.scoring = False
        fail_queued(self.entries, message.error)
        self.reader.say(message.error, "error", timeout=12)
        self._refilter()
        self._rank_provisionally("the model could not score")
        self.preview.render_entry()

    def on_scoring_finished(self, message: ScoringFinished) -> None:
        if message.worker is not self._worker:
            return
        self._flush_scores()
        self._worker = None
        summary = message.summary
        self.scoring = False
        self.summary = summary
        fail_queued(self.entries, summary.stopped or "no score returned")
        if summary.prefiltered:
            self.reader.say(f"Prefilter: {summary.prefiltered} papers not sent (local score "
                            f"shown), about {summary.saved_tokens:,} tokens saved", timeout=8)
        if summary.stopped:
            mark_unsent(self.entries, summary.stopped)
        for note in summary.notices:
            self.reader.say(note, "warning")
        if summary.stopped:
            self.reader.say(f"Scoring stopped: {summary.stopped}", "warning", timeout=12)
        # the final ranking: its top shows, unless the user is reading further down
        self._refilter(to_top=not self.table.moved_by_user)
        self._rank_provisionally("not all scored by the model")
        later, self._rescore_next = self._rescore_next, []
        if later and summary.halted is None:
            self._score_with_llm(later, use_cache=True)
        self.preview.render_entry()

    def _flush_scores(self) -> None:
        self._flush_timer = None
        pending, self._pending_scores = self._pending_scores, []
        if not merge_scores(self.by_id, pending):
            return
        if self.sort_key in SCORE_SORTS or self.filters.min_relevance is not None:
            self._refilter()
        else:
            self.table.refresh_entries()
            self._show_header()
        self.preview.render_entry()
