"""The engine: runs one Task over many papers, cached results first, then batched requests.

It owns batching, bounded concurrency, rpm pacing, the budget, cancel, the failure streak,
splitting a batch that is too long, and asking again about papers a reply left out. It does
not know what a request says (`task`), how litellm is called (`provider`) or how long to
wait after an error (`policy`). Every distinct paper ends with exactly one result passed to
`on_results`: cached, newly done, or `task.unscored(paper, error)`.

The failure streak that stops a run counts only requests in which a fresh batch (never
asked about, nor refused, before) failed as a whole: the re-asks of a paper the model keeps
getting wrong, or a content filter refusing some abstracts, never stop the day. A reply
unusable as a whole (garbage, nested too deep, no score at all) is asked again once, in
halves; then its papers end unscored with the reason, and the batch counts as failed only if
no half scored (so replies that are unusable every other time never stop the day).
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any, Generic, TypeVar

from paperterm.models import Paper
from paperterm.scoring import slots
from paperterm.scoring.asking import Asker, Cancel, Outcome, drop, wait_cancel
from paperterm.scoring.batching import FAIL_STREAK, Batch, Flight, Streak, Unusable, batches
from paperterm.scoring.budget import Budget
from paperterm.scoring.cache import cached_results, earlier_totals, save_answer
from paperterm.scoring.claims import WAIT_POLL, Claims
from paperterm.scoring.estimate import CompletionEstimate, PromptRatio
from paperterm.scoring.halt import Halt, Stop, budget_stop, money, spent_by_then
from paperterm.scoring.pacing import Pacer
from paperterm.scoring.policy import Fatal, Split
from paperterm.scoring.pricing import how_to_price
from paperterm.scoring.provider import Provider, Reply
from paperterm.scoring.task import Parsed, Task, read_reply
from paperterm.scoring.types import RunSummary, ScoringError
from paperterm.settings import ScoringSettings
from paperterm.store import ScoreCache

MAX_ROUNDS = 3  # times a paper may be asked about before it is given up
CANCEL_GRACE = 5.0  # seconds a cancelled run still waits for the answers it paid for
SLOT_POLL = 0.05  # seconds between looks for a free slot held by another run

R = TypeVar("R")
ProgressCallback = Callable[[RunSummary], None]


class Engine(Generic[R]):
    """One run of `task` over distinct `papers`. Use once: `await Engine(...).run()`."""

    def __init__(self, task: Task[R], papers: Sequence[Paper], settings: ScoringSettings,
                 cache: ScoreCache, *, on_results: Callable[[list[R]], None] | None = None,
                 on_progress: ProgressCallback | None = None,
                 cancel: Cancel | None = None, day: str | None = None) -> None:
        self.task, self.papers, self.settings, self.cache = task, list(papers), settings, cache
        self.on_results, self.on_progress, self.cancel = on_results, on_progress, cancel
        self.summary = RunSummary(model=settings.model, total=len(self.papers))
        self.final: dict[str, str | None] = {}  # paper id -> error (None: has a result)
        self.options = settings.model_options
        self.provider = Provider(settings.model, settings.api_base, settings.timeout,
                                 self.options)
        self.day = day or date.today().isoformat()  # the announcement day paid for
        self.budget = Budget(settings.budget)
        if settings.budget_period == "day" and self.budget.limited:
            self.budget.spent = cache.spent_on(self.day)  # earlier runs of the day count
        self.slot_key = (settings.model, settings.api_base)
        self.claims = Claims(cache, task.key, settings.model, ttl=max(120.0, 6 * settings.timeout))
        self.waiting: list[Paper] = []  # another process is asking about these
        self.estimate = CompletionEstimate()
        self.prompt_ratio = PromptRatio()  # the provider's prompt tokens per litellm's
        self.asker = Asker(self.provider, Pacer(settings.rpm), self._count_request)
        self.pending: deque[Batch] = deque()
        self.in_flight: dict[asyncio.Task[Outcome], Flight] = {}
        self.stop: Stop | None = None  # why nothing more is sent (cancel, budget, failures)
        self.fatal: Stop | None = None  # why the run ends with ScoringError
        self.streak = Streak()  # fresh batches in a row that failed as a whole

    async def run(self) -> RunSummary:
        """Cached results, then requests for the rest. Raises ScoringError on a fatal halt
        (no model, unknown model, missing key, authentication, unreachable server...)."""
        if not self.settings.model:
            raise self._fail(Stop(Halt.NO_MODEL))
        self._emit_cached()
        self._progress()
        todo = self._unfinished()
        if not todo:
            return self.summary
        await self._setup()
        self.pending.extend(Batch(chunk) for chunk in self._batches(todo))
        try:
            await self._loop()
        finally:
            await drop(list(self.in_flight))
            self.claims.release()
        if self.fatal is not None:
            raise self._fail(self.fatal)
        self._close_summary()
        self._progress()
        return self.summary

    # -- results -------------------------------------------------------------------------

    def _emit(self, results: dict[str, R], status: str, error: str | None = None) -> None:
        if not results:
            return
        for pid in results:
            self.final[pid] = error
        s = self.summary
        if status == "scored":
            s.scored += len(results)
        elif status == "cached":
            s.cached += len(results)
        else:
            s.unscored += len(results)
        if self.on_results is not None:
            self.on_results(list(results.values()))

    def _give_up(self, papers: Sequence[Paper], error: str) -> None:
        self._emit({p.id: self.task.unscored(p, error) for p in papers if p.id not in self.final},
                   "unscored", error)

    def _unfinished(self) -> list[Paper]:
        return [p for p in self.papers if p.id not in self.final]

    def _progress(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.summary)

    def _emit_cached(self) -> None:
        model = self.settings.model
        cached = cached_results(self.cache, self.task, self.papers, model)
        if cached:
            earlier = [p for p in self.papers if p.id in cached]
            s = self.summary
            s.earlier_prompt_tokens, s.earlier_completion_tokens, s.earlier_cost = (
                earlier_totals(self.cache, self.task, earlier, model))
        self._emit({p.id: cached[p.id] for p in self.papers if p.id in cached}, "cached")

    # -- set-up and the end --------------------------------------------------------------

    async def _setup(self) -> None:
        stop = await self.provider.setup()
        if stop is None and self.budget.limited and not self.provider.priced:
            model = self.settings.model
            stop = Stop(Halt.UNPRICED_BUDGET, facts={"model": model, "how": how_to_price(model),
                                                      "budget": money(self.budget.limit)})
        if stop is not None:
            raise self._fail(stop)
        self.asker.response_format = self.provider.response_format(self.task.response_schema)

    def _batches(self, papers: list[Paper]) -> list[list[Paper]]:
        context = self.options.context
        base = self.provider.prompt_tokens(self.task.build_messages([])) if context else 0
        return batches(papers, self.settings.batch_size, context=context, base_tokens=base,
                       paper_tokens=lambda p: self.provider.prompt_tokens(
                           self.task.build_messages([p])) - base,
                       reply_tokens=self.estimate.max_tokens(1))

    def _max_tokens(self, n_papers: int) -> int | None:
        """The request's reply ceiling: the config's `max_tokens` (0: none), else the
        expected reply with headroom."""
        configured = self.options.max_tokens
        if configured is not None:
            return configured or None
        return self.estimate.max_tokens(n_papers)

    def _count_request(self) -> None:
        self.summary.requests += 1

    def _fail(self, stop: Stop) -> ScoringError:
        self._give_up(self._unfinished(), stop.paper_error)
        self.summary.stopped, self.summary.halted = stop.text, stop.halt
        self._progress()
        return ScoringError(stop.text, self.summary, stop.halt)

    def _close_summary(self) -> None:
        if self.stop is None:
            return
        error = self.stop.paper_error
        left = sum(1 for e in self.final.values() if e == error)
        spent_by_then(self.stop, self.budget.spent)
        self.summary.stopped, self.summary.halted = self.stop.stopped(left), self.stop.halt

    def _halt(self, stop: Stop | None = None) -> None:
        """Send nothing more: every paper still pending ends unscored with the halt's error
        (a cancel overrides an earlier reason; the first other reason stays). Without
        `stop`, applies the current halt to papers queued since."""
        if stop is not None and (self.stop is None or stop.halt is Halt.CANCELLED):
            self.stop = stop
        if self.stop is None:
            return
        papers = [p for b in self.pending for p in b.papers] + self.waiting
        self.pending.clear()
        self.waiting = []
        self._give_up(papers, self.stop.paper_error)

    # -- the loop ------------------------------------------------------------------------

    async def _loop(self) -> None:
        cancelled = asyncio.ensure_future(wait_cancel(self.cancel)) if self.cancel else None
        try:
            while (self.pending or self.in_flight or self.waiting) and self.fatal is None:
                if self.cancel is not None and self.cancel.is_set():
                    self._halt(Stop(Halt.CANCELLED))
                self._launch()
                if not self.in_flight:
                    if self.pending and self.stop is None:  # another run holds every slot
                        await asyncio.sleep(SLOT_POLL)
                        continue
                    if self.waiting and self.stop is None:
                        await self._await_others()
                        continue
                    break
                waiting: set[asyncio.Future[Any]] = set(self.in_flight)
                if cancelled is not None:
                    waiting.add(cancelled)
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                for request in [r for r in self.in_flight if r in done]:
                    self._settle(request)
                if cancelled is not None and cancelled in done and self.fatal is None:
                    cancelled = None
                    await self._cancel_in_flight()
                self._progress()
        finally:
            if cancelled is not None:
                cancelled.cancel()

    def _launch(self) -> None:
        """Start requests up to the concurrency limit (shared with any other run of this
        model in the process), while the budget allows."""
        limit = max(1, self.settings.concurrency)
        while self.pending and len(self.in_flight) < limit and self.stop is None:
            if not slots.take(self.slot_key, limit):
                return
            batch = self.pending.popleft()
            mine, others = self.claims.take(batch.papers)
            self.waiting.extend(others)
            mine = self._not_cached_meanwhile(mine)
            if not mine:
                slots.give_back(self.slot_key)
                continue
            batch = Batch(mine, batch.round, batch.asked, batch.part_of)
            n = self._fitting(batch.papers)
            if 0 < n < len(batch.papers):  # the rest waits, a batch of its own
                rest = batch.papers[n:]
                self.claims.release(rest)
                self.pending.appendleft(Batch(rest, batch.round, batch.asked, batch.part_of))
                batch = Batch(batch.papers[:n], batch.round, batch.asked, batch.part_of)
            messages, max_tokens, reserve, counted = self._request(batch.papers)
            if not self.budget.reserve(reserve):
                slots.give_back(self.slot_key)
                self.claims.release(batch.papers)
                self.pending.appendleft(batch)
                period = f" for {self.day}" if self.settings.budget_period == "day" else ""
                self._halt(budget_stop(self.budget.limit, self.budget.spent, period))
                return
            request = asyncio.ensure_future(self.asker.ask(messages, max_tokens))
            request.add_done_callback(lambda _: slots.give_back(self.slot_key))
            self.in_flight[request] = Flight(batch, reserve, max_tokens, counted)

    def _request(self, papers: list[Paper]) -> tuple[Any, int | None, float, int]:
        """A request about `papers`: its messages, reply ceiling, what the budget reserves
        for it (the most it can cost, see `estimate`; 0 without a budget) and its prompt
        tokens as litellm counts them."""
        messages = self.task.build_messages(papers)
        max_tokens = self._max_tokens(len(papers))
        if not self.budget.limited:
            return messages, max_tokens, 0.0, 0
        completion = max_tokens or 2 * self.estimate.expected(len(papers))
        counted = self.provider.prompt_tokens(messages)
        reserve = self.provider.estimate_cost(messages, completion,
                                              self.prompt_ratio.reserve(counted))
        return messages, max_tokens, reserve, counted

    def _fitting(self, papers: list[Paper]) -> int:
        """How many of `papers` (from the first) one request may ask about within what is
        left of the budget: all of them, else the most whose reservation fits (a budget
        that pays for a smaller batch scores it), 0 when not even one paper fits."""
        if not self.budget.limited or self.budget.fits(self._request(papers)[2]):
            return len(papers)
        lo, hi = 0, len(papers) - 1  # the most that fit lies in [lo, hi]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.budget.fits(self._request(papers[:mid])[2]):
                lo = mid
            else:
                hi = mid - 1
        return lo

    async def _cancel_in_flight(self) -> None:
        """Nothing more is sent; requests already in flight were paid for, so their
        answers are still awaited (for up to CANCEL_GRACE seconds) and cached. What has
        not arrived by then is dropped."""
        self._halt(Stop(Halt.CANCELLED))
        deadline = asyncio.get_running_loop().time() + CANCEL_GRACE
        while self.in_flight:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                break
            done, _ = await asyncio.wait(set(self.in_flight), timeout=left,
                                         return_when=asyncio.FIRST_COMPLETED)
            for request in done:
                self._settle(request)
        await drop(list(self.in_flight))
        assert self.stop is not None
        self._give_up([p for f in self.in_flight.values() for p in f.batch.papers],
                      self.stop.paper_error)
        self.in_flight.clear()

    def _settle(self, request: asyncio.Task[Outcome]) -> None:
        flight = self.in_flight.pop(request)
        batch, estimate = flight.batch, flight.reserved
        outcome = request.result()
        if isinstance(outcome, Reply):
            self.budget.settle(estimate, outcome.cost if outcome.cost is not None else estimate)
            self.estimate.observe(outcome.completion_tokens, len(batch.papers))
            self.prompt_ratio.observe(outcome.prompt_tokens, flight.counted)
            self._record(batch, outcome)
        else:
            self.budget.settle(estimate)
            if isinstance(outcome, Split) and len(batch.papers) > 1:
                half = math.ceil(len(batch.papers) / 2)
                # (halves of a refused or too long batch are not fresh: the server answered)
                asked = batch.asked + 1
                self.pending.extendleft([Batch(batch.papers[half:], batch.round, asked),
                                         Batch(batch.papers[:half], batch.round, asked)])
            elif isinstance(outcome, Fatal):
                self.fatal = outcome.stop
            else:  # GiveUp, or a Split of a single paper
                self._failed(batch, outcome.reason)
        self._halt()  # papers re-queued just now, when the run is halted
        self.claims.release([p for p in batch.papers if p.id in self.final])

    async def _await_others(self) -> None:
        """Papers another process is asking about: take its results from the cache when
        they arrive; ask ourselves about those it gave up on (its claim ended)."""
        await asyncio.sleep(WAIT_POLL)
        papers, self.waiting = self.waiting, []
        cached = cached_results(self.cache, self.task, papers, self.settings.model)
        self._emit({p.id: cached[p.id] for p in papers if p.id in cached}, "cached")
        mine, others = self.claims.take([p for p in papers if p.id not in cached])
        self.waiting = others
        self.pending.extend(Batch(chunk) for chunk in self._batches(mine))

    def _not_cached_meanwhile(self, papers: list[Paper]) -> list[Paper]:
        """`papers` less those another process scored (and released) since they were queued:
        those are emitted from the cache, never paid for twice."""
        if not papers:
            return papers
        cached = cached_results(self.cache, self.task, papers, self.settings.model)
        if not cached:
            return papers
        self._emit(dict(cached), "cached")
        self.claims.release([p for p in papers if p.id in cached])
        return [p for p in papers if p.id not in cached]

    def _failed(self, batch: Batch, reason: str) -> None:
        self._give_up(batch.papers, reason)
        self._count_failure(batch, reason)

    def _count_failure(self, batch: Batch, reason: str) -> None:
        """A request that gave nothing for its whole batch: enough fresh ones in a row stop
        the run (`batching.Streak` says which count)."""
        if self.streak.failure(batch):
            self._halt(Stop(Halt.FAILURE_STREAK, reason, {"streak": str(FAIL_STREAK)}))

    def _record(self, batch: Batch, reply: Reply) -> None:
        """Account, store and emit one answered request; re-queue what it left out."""
        s = self.summary
        s.prompt_tokens += reply.prompt_tokens
        s.completion_tokens += reply.completion_tokens
        s.cost = None if reply.cost is None or s.cost is None else s.cost + reply.cost
        parsed = read_reply(self.task, reply.text, reply.reasoning, batch.papers)
        s.unknown_ids += parsed.unknown_ids
        by_id = {p.id: p for p in batch.papers}
        rows = [self.task.to_row(by_id[pid], r) for pid, r in parsed.results.items()]
        save_answer(self.cache, self.task, model=self.settings.model,
                    n_papers=len(batch.papers), prompt_tokens=reply.prompt_tokens,
                    completion_tokens=reply.completion_tokens, cost=reply.cost, rows=rows,
                    day=self.day)
        self._emit(parsed.results, "scored")
        why = f"a paid reply held no valid {self.task.noun}: {parsed.why}"
        if parsed.results:
            self.streak.scored(batch)
        elif not (batch.fresh and self.stop is None):  # paid for, scored nothing: a failure
            self._count_failure(batch, why)  # (a fresh one counts once its re-asks are back)
        missing = [p for p in batch.papers if p.id not in parsed.results]
        if not missing:
            return
        if self.stop is not None and self.stop.halt is Halt.FAILURE_STREAK:  # it stopped
            # the run (being the last of the streak): its papers say what was wrong with it
            self._give_up(missing, f"no valid {self.task.noun} in the reply ({parsed.why})")
        elif not parsed.results and batch.fresh:  # unusable as a whole: once more, in halves
            self._ask_again(batch, missing, parsed, last=True, why=why)
        elif parsed.broken:  # a re-ask unusable as a whole: the batch fails with the reason
            self._give_up(missing, f"unusable reply: {parsed.error}")
        else:
            self._ask_again(batch, missing, parsed)

    def _ask_again(self, batch: Batch, missing: list[Paper], parsed: Parsed[R],
                   last: bool = False, why: str = "") -> None:
        """Ask again about `missing`, in batches half the size (`last`: this is the last
        time; `why`: a fresh batch's reply was unusable as a whole, and its parts say whether
        it failed as a whole), or give them up with the reason once their rounds are used."""
        if batch.round + 1 < MAX_ROUNDS:
            size = max(1, math.ceil(len(batch.papers) / 2))
            chunks = [missing[i : i + size] for i in range(0, len(missing), size)]
            again = MAX_ROUNDS - 1 if last else batch.round + 1
            whole = Unusable(len(chunks), why) if why else batch.part_of
            self.pending.extendleft(Batch(c, again, batch.asked + 1, whole)
                                    for c in reversed(chunks))
            return
        if why:  # no round left to ask again: the fresh batch failed as a whole now
            self._count_failure(batch, why)
        for p in missing:
            why = parsed.rejected.get(p.id) or parsed.error or "missing from the reply"
            self._give_up([p], f"no valid {self.task.noun} after {batch.asked + 1} "
                               f"requests ({why})")

