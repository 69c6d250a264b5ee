"""Score a day, once for the CLI and the reader: the prefilter's split, the LLM run (cached
scores first), the estimate of what the prefilter saved; or, without a model, the local
ranking. Progress is reported as events; the CLI draws them as its progress line, the
reader's worker posts them as its typed messages.

Never raises for a failed run: a `ScoringFailed` event carries the error (and the
exception, for a caller that maps it to an exit code).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperterm.models import Paper, Topic

# the reader and the command line name them from here (issue 29: one door); what a run's
# end and its counts mean (`Halt`, `status_counts`), the error that stops a whole run
from paperterm.scoring.halt import Halt as Halt
from paperterm.scoring.halt import count as count
from paperterm.scoring.types import RunSummary, Score
from paperterm.scoring.types import ScoringError as ScoringError
from paperterm.scoring.types import status_counts as status_counts
from paperterm.settings import ScoringSettings

if TYPE_CHECKING:
    from paperterm.store import StoreFactory
    from paperterm.store.repositories import ScoreCache


@dataclass(frozen=True)
class ScoresArrived:
    """A batch of scores: new, cached, failed, or local ones the prefilter held back."""

    scores: list[Score]


@dataclass(frozen=True)
class ScoringProgress:
    """The run's running totals (a copy: the engine keeps counting on)."""

    summary: RunSummary


@dataclass(frozen=True)
class ScoringFinished:
    """The run ended (possibly early: `summary.stopped` says why)."""

    summary: RunSummary


@dataclass(frozen=True)
class ScoringFailed:
    """The run failed as a whole; `error` is the one line to show."""

    error: str
    exception: BaseException


ScoringEvent = ScoresArrived | ScoringProgress | ScoringFinished | ScoringFailed
OnEvent = Callable[[ScoringEvent], None]


def score_day(papers: Sequence[Paper], topic: Topic, settings: ScoringSettings, *,
              open_store: StoreFactory, on_event: OnEvent, day: str | None = None,
              whole_day: tuple[str, Sequence[Paper]] | None = None,
              cancel: threading.Event | None = None, fresh: bool = False,
              ) -> RunSummary | None:
    """Score `papers` for `topic`, reporting every outcome to `on_event`; the summary, or
    None when the run failed (a `ScoringFailed` event said why).

    `whole_day` (the day's key and all its papers): with `settings.prefilter`, only the
    papers `--prefilter` sends of that day are scored (judged against the whole day); the
    others arrive at once with their local scores, and what not sending them saved is
    estimated. Without a model (`settings.use_llm` false) the day's key names the cache of
    the local ranking. `day` is the announcement day the spend counts towards; `cancel`
    stops the run at its next step; `fresh` asks the model again for every paper."""
    try:
        if not settings.use_llm:
            summary = _rank_locally(papers, topic, open_store, whole_day, on_event)
        else:
            summary = _run(papers, topic, settings, open_store, on_event, day, whole_day,
                           cancel, fresh)
    except Exception as exc:  # never a traceback in the reader; the CLI decides
        from paperterm.scoring.types import ScoringError

        error = str(exc) if isinstance(exc, ScoringError) else (
            f"scoring failed: {type(exc).__name__}: {exc}")
        on_event(ScoringFailed(error, exc))
        return None
    on_event(ScoringFinished(summary))
    return summary


def cached_scores(scores: ScoreCache, papers: Sequence[Paper], topic: Topic,
                  settings: ScoringSettings) -> dict[str, Score]:
    """Paper id -> the configured model's cached score for `topic` (status "cached"), for
    the papers it already scored: shown at once, never asked again (unless forced)."""
    import paperterm.scoring as engine  # looked up when called (the engine loads lazily)

    return engine.cached_scores(scores, papers, topic, settings)


def missing_key(settings: ScoringSettings) -> str | None:
    """What stops a run before it starts when the model's hosted provider has no API key
    set (said at once: litellm is never imported for nothing); None: the run may go."""
    from paperterm.scoring.apikeys import key_stop

    stop = key_stop(settings.model, settings.api_base, extra=settings.model_options.extra)
    return None if stop is None else stop.text


def one_per_paper(papers: Sequence[Paper], scores: dict[str, Score]) -> list[Score]:
    """One score per paper (same order): a paper the run did not report is unscored."""
    return [scores.get(p.id) or Score(p.id, p.version, None, None, "", "unscored",
                                      "no result from the scoring run") for p in papers]


def _rank_locally(papers: Sequence[Paper], topic: Topic, open_store: StoreFactory,
                  whole_day: tuple[str, Sequence[Paper]] | None,
                  on_event: OnEvent) -> RunSummary:
    """Keywords, closeness to the topic and what the user taught it (the local ranking)."""
    from paperterm.scoring.local import rank_locally
    from paperterm.store import open_or_unavailable

    # no cache: ranked without stars and cached scores
    store = open_or_unavailable(open_store)
    try:
        key = whole_day[0] if whole_day is not None else ""
        scores = rank_locally(store, papers, topic, day=key) or []
    finally:
        store.close()
    if scores:
        on_event(ScoresArrived(list(scores)))
    return RunSummary(model="local", total=len(papers), scored=len(scores))


def _run(papers: Sequence[Paper], topic: Topic, settings: ScoringSettings,
         open_store: StoreFactory,
         on_event: OnEvent, day: str | None, whole_day: tuple[str, Sequence[Paper]] | None,
         cancel: threading.Event | None, fresh: bool) -> RunSummary:
    from paperterm.scoring import run_scoring

    todo, extras, auto = list(papers), None, None
    held: list[Score] = []
    if whole_day is not None and settings.prefilter:
        todo, held, extras, auto = _prefilter(papers, topic, settings, open_store, *whole_day)
        if held:
            on_event(ScoresArrived(held))
    summary = run_scoring(
        todo, topic, settings, open_store=open_store,
        on_scores=lambda scores: on_event(ScoresArrived(list(scores))),
        on_progress=lambda s: on_event(ScoringProgress(copy.copy(s))),
        cancel=cancel, day=day, fresh=fresh)
    if held:
        from paperterm.scoring.prefilter import estimate_saved

        estimate_saved(summary, held, whole_day[1] if whole_day else papers)
    if auto:
        summary.notices.append(auto)
    if extras:
        summary.notices.append(extras)
    return summary


def _prefilter(papers: Sequence[Paper], topic: Topic, settings: ScoringSettings,
               open_store: StoreFactory, day_key: str, day: Sequence[Paper],
               ) -> tuple[list[Paper], list[Score], str | None, str | None]:
    """Which of `papers` `--prefilter` sends, judged against the whole day, the local
    scores of those it holds back, what it sent beyond the top part, and how much it sent
    and is expected to hold."""
    from paperterm.scoring.prefilter import extras_notice, prefilter_day
    from paperterm.store import open_or_unavailable

    # no cache: split without stars and cached scores
    store = open_or_unavailable(open_store)
    try:
        split = prefilter_day(store, day_key, day, topic, settings.prefilter, settings.model)
    finally:
        store.close()
    todo = {p.id for p in papers}
    return ([p for p in split.send if p.id in todo],
            [s for s in split.held if s.paper_id in todo], extras_notice(split),
            split.recall_line)


# -- what a run would cost, before it starts (the reader's `t`, `score` on a terminal) --------

PROMPT_PER_BATCH = 600  # tokens of instructions and topic each request carries (estimate)


@dataclass(frozen=True)
class RunEstimate:
    """What scoring would ask the model about: papers without a cached score, tokens and
    dollars (None: the model's price is unknown)."""

    papers: int
    tokens: int
    cost: float | None

    def line(self, model: str) -> str:
        cost = "cost unknown" if self.cost is None else f"about ${self.cost:.2f}"
        return (f"{model} would score {self.papers} papers: about {self.tokens:,} tokens, "
                f"{cost}")

    def over(self, limit: float) -> bool:
        """Worth asking first: more than `limit` dollars; `limit` 0 never asks, nor does an
        unknown price (a local server such as ollama; `--budget` refuses one anyway)."""
        if limit <= 0 or not self.papers or self.cost is None:
            return False
        return self.cost > limit


def estimate_run(papers: Sequence[Paper], topic: Topic, settings: ScoringSettings,
                 open_store: StoreFactory, *, load_prices: bool = True) -> RunEstimate:
    """The estimate of scoring `papers` with the configured model: cached scores cost
    nothing; a paper's prompt from its text, its reply at the engine's first guess.
    Without `load_prices`, litellm's price map is used only if litellm is loaded already
    (the reader's UI thread never waits seconds for its import; else the config's price)."""
    from paperterm.scoring.cache import cached_results
    from paperterm.scoring.estimate import START_PER_PAPER
    from paperterm.scoring.prefilter import CHARS_PER_TOKEN, PAPER_OVERHEAD
    from paperterm.scoring.task import ScoringTask
    from paperterm.store import open_or_unavailable

    store = open_or_unavailable(open_store)
    try:
        cached = cached_results(store.scores, ScoringTask(topic), papers, settings.model)
    except Exception:  # an unreadable cache: every paper counts
        cached = {}
    finally:
        store.close()
    todo = [p for p in papers if p.id not in cached]
    batches = -(-len(todo) // max(settings.batch_size, 1))
    prompt = (sum(len(p.title) + len(p.abstract) for p in todo) // CHARS_PER_TOKEN
              + len(todo) * PAPER_OVERHEAD + batches * PROMPT_PER_BATCH)
    completion = len(todo) * START_PER_PAPER
    return RunEstimate(len(todo), prompt + completion,
                       _price(settings, prompt, completion, load_prices) if todo else 0.0)


def _price(settings: ScoringSettings, prompt: int, completion: int,
           load_prices: bool) -> float | None:
    import sys

    from paperterm.scoring.pricing import model_price

    options = settings.model_options
    litellm = None
    if options.input_price is None or options.output_price is None:
        if not load_prices and "litellm" not in sys.modules:
            return None
        from paperterm.scoring.provider import import_litellm

        litellm = import_litellm()
    price = model_price(litellm, settings.model, options)
    return None if price is None else price.cost(prompt, completion)


def ask_first(papers: Sequence[Paper], topic: Topic, settings: ScoringSettings,
              open_store: StoreFactory, limit: float, *, then: str,
              load_prices: bool = True) -> str | None:
    """The line to show before a model run expected to cost more than `limit` dollars
    (config `confirm_cost`; its estimate, and `then`: what happens meanwhile), or None to
    go ahead (0 never asks; no estimate: the budget still applies)."""
    if limit <= 0 or not settings.use_llm:
        return None
    try:
        estimate = estimate_run(papers, topic, settings, open_store, load_prices=load_prices)
    except Exception:
        return None
    if not estimate.over(limit):
        return None
    return f"{estimate.line(settings.model)} (over confirm_cost ${limit:.2f}): {then}"
