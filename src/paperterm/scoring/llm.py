"""The LLM scoring engine: batches, bounded concurrency, retries, cache, budget.

litellm is imported lazily (in a thread, the first time a request is really needed), never
when paperterm is imported. Keys come only from the provider's usual environment variables;
they are never logged, stored or put into an error message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperterm.models import Paper, Topic
from paperterm.scoring import pacing, prompt
from paperterm.scoring.cache import NewScore, cached_scores, earlier_cost, save_request
from paperterm.scoring.parse import parse_reply
from paperterm.scoring.types import RunSummary, Score, ScoringSettings
from paperterm.store import Store

MAX_ROUNDS = 3  # times a paper may be asked about before it is given up as unscored
MAX_RETRIES = 4  # per request, for 429 and 5xx
MAX_TIMEOUT_RETRIES = 2  # per request, for timeouts
MAX_CONNECT_ATTEMPTS = 3  # connection refused this many times in a row: the run stops
FAIL_STREAK = 3  # batches failing in a row (no success between): the rest is not sent
DEADLINE_GRACE = 0.5  # seconds past `timeout` before a whole request is abandoned

ScoresCallback = Callable[[list[Score]], None]
ProgressCallback = Callable[[RunSummary], None]

_KEY_VARS = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
    "azure": "AZURE_API_KEY",
    "cohere": "COHERE_API_KEY",
}


class ScoringError(Exception):
    """A configuration or authentication failure that stops the run. The message is one
    line and never contains a key. `summary` (when set) is the run so far: scores already
    obtained were emitted and cached before this was raised."""

    def __init__(self, message: str, summary: RunSummary | None = None) -> None:
        super().__init__(message)
        self.summary = summary


# -- litellm, lazily ---------------------------------------------------------------------

_import_lock = threading.Lock()


def _import_litellm() -> Any:
    with _import_lock:
        # always the bundled price map: otherwise litellm fetches one over the network at import
        os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
        import litellm

        litellm.suppress_debug_info = True
        litellm.set_verbose = False
        for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm", "httpx"):
            logging.getLogger(name).setLevel(logging.ERROR)
        with contextlib.suppress(Exception):
            # The OpenAI SDK imports its resources on the first request (~0.4 s); do it
            # here, off the event loop, rather than stall the first request.
            import openai.resources  # noqa: F401
        return litellm


async def aclose_llm_clients() -> None:
    """Close litellm's cached async HTTP clients (call before the event loop ends) and
    forget them, so that a later event loop never picks up a closed client."""
    litellm = sys.modules.get("litellm")
    if litellm is None:
        return
    try:
        from litellm.llms.custom_httpx.async_client_cleanup import close_litellm_async_clients

        await close_litellm_async_clients()
    except Exception:
        pass
    cache = getattr(litellm, "in_memory_llm_clients_cache", None)
    if cache is not None:
        with contextlib.suppress(Exception):
            cache.flush_cache()


# -- error messages ----------------------------------------------------------------------

_SECRET = re.compile(r"\b(?:sk|pk|rk|key)-[A-Za-z0-9_\-]{4,}|(?i:api[_-]?key)\s*[=:]\s*\S+")
_PREFIX = re.compile(r"^(?:litellm\.\w+:\s*)?(?:\w+Error:\s*)?(?:\w+Exception\s*-\s*)?")


def _redact(text: str) -> str:
    text = _SECRET.sub("***", text)
    for name, value in os.environ.items():
        if len(value) >= 8 and re.search(r"KEY|TOKEN|SECRET", name) and value in text:
            text = text.replace(value, "***")
    return text


def _describe(exc: BaseException) -> str:
    """The provider's message for an exception, on one short line, without secrets."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    text = _PREFIX.sub("", text).strip() or type(exc).__name__
    text = _redact(text)
    return text if len(text) <= 160 else text[:159] + "…"


def _key_hint(provider: str | None) -> str:
    var = _KEY_VARS.get(provider or "")
    return f"check {var}" if var else "check the provider's API key environment variable"


def _is_connection_error(exc: BaseException) -> bool:
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 10:
        name = type(current).__name__
        if "Timeout" in name:
            return False
        if name in ("APIConnectionError", "ConnectError", "ClientConnectorError") or isinstance(
            current, ConnectionError
        ):
            return True
        current = current.__cause__ or current.__context__
        seen += 1
    return "connection error" in str(exc).lower()


# -- the run -----------------------------------------------------------------------------


@dataclass
class _Batch:
    papers: list[Paper]
    round: int = 0  # how many replies about these papers came back unusable


@dataclass
class _Tries:
    retries: int = 0  # 429 and 5xx
    timeouts: int = 0
    connects: int = 0


@dataclass
class _Outcome:
    kind: str  # ok | split | failed | fatal
    text: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    reason: str = ""


@dataclass
class _Run:
    papers: list[Paper]
    topic: Topic
    settings: ScoringSettings
    db_path: Path | str
    on_scores: ScoresCallback | None
    on_progress: ProgressCallback | None
    cancel: Any
    summary: RunSummary = field(init=False)
    final: dict[str, Score] = field(default_factory=dict)
    litellm: Any = None
    provider: str | None = None
    response_format: dict[str, Any] | None = None
    spent: float = 0.0
    reserved: float = 0.0
    priced: bool = False
    halted: str | None = None  # why nothing more is sent (cancel, budget, failures)
    fail_streak: int = 0  # batches in a row that failed after all their retries
    streak_reason: str = ""

    def __post_init__(self) -> None:
        self.summary = RunSummary(model=self.settings.model, total=len(self.papers))

    # -- emitting ------------------------------------------------------------------------

    def emit(self, scores: list[Score]) -> None:
        if not scores:
            return
        for s in scores:
            self.final[s.paper_id] = s
            if s.status == "scored":
                self.summary.scored += 1
            elif s.status == "cached":
                self.summary.cached += 1
            else:
                self.summary.unscored += 1
        if self.on_scores is not None:
            self.on_scores(scores)

    def progress(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.summary)

    def give_up(self, papers: Sequence[Paper], reason: str) -> None:
        self.emit(
            [
                Score(p.id, p.version, None, None, "", "unscored", error=reason)
                for p in papers
                if p.id not in self.final
            ]
        )

    def unfinished(self) -> list[Paper]:
        return [p for p in self.papers if p.id not in self.final]

    def fail(self, message: str) -> ScoringError:
        self.give_up(self.unfinished(), message)
        self.summary.stopped = message
        self.progress()
        return ScoringError(message, self.summary)

    # -- set-up --------------------------------------------------------------------------

    async def prepare(self) -> None:
        settings = self.settings
        self.litellm = litellm = await asyncio.to_thread(_import_litellm)
        model = settings.model
        try:
            _, self.provider, _, _ = litellm.get_llm_provider(
                model=model, api_base=settings.api_base or None
            )
        except Exception as exc:
            raise self.fail(f"unknown model or provider '{model}': {_describe(exc)}") from None
        try:
            env = litellm.validate_environment(model=model, api_base=settings.api_base or None)
        except Exception:
            env = {}
        missing = [k for k in env.get("missing_keys", []) if k]
        if missing:
            raise self.fail(
                f"{' or '.join(missing)} is not set: the API key for {model} is read from "
                "the environment"
            )
        try:
            litellm.cost_per_token(model=model, prompt_tokens=1000, completion_tokens=100)
            self.priced = True
        except Exception:
            self.priced = False
        if settings.budget > 0 and not self.priced:
            raise self.fail(
                f"the price of {model} is unknown, so the budget of {_money(settings.budget)} "
                "cannot be enforced: set budget = 0 to score without a budget"
            )
        self.response_format = _response_format(litellm, model)

    # -- one request (with its retries) ---------------------------------------------------

    async def send(self, messages: list[dict[str, str]], pacer: pacing.Pacer) -> _Outcome:
        """One request, retried as its errors allow; never raises for provider errors."""
        settings = self.settings
        tries = _Tries()
        while True:
            kwargs: dict[str, Any] = {
                "model": settings.model,
                "messages": messages,
                "timeout": settings.timeout,
                "num_retries": 0,
                "max_retries": 0,
                "drop_params": True,
            }
            if settings.api_base:
                kwargs["api_base"] = settings.api_base
            if self.response_format is not None:
                kwargs["response_format"] = self.response_format
            await pacer.wait_turn()
            self.summary.requests += 1
            try:
                # httpx's timeout bounds each read, not the request: a server that trickles
                # bytes would never time out. The deadline is for the whole request.
                response = await asyncio.wait_for(
                    self.litellm.acompletion(**kwargs), settings.timeout + DEADLINE_GRACE
                )
            except Exception as exc:
                outcome, wait, hold = self._after_error(exc, kwargs, tries)
                if outcome is not None:
                    return outcome
                if hold:
                    pacer.hold(wait)  # a 429 holds back every request, not just this one
                elif wait > 0:
                    await asyncio.sleep(wait)
                continue
            return self._outcome(response)

    def _after_error(
        self, exc: Exception, kwargs: dict[str, Any], tries: _Tries
    ) -> tuple[_Outcome | None, float, bool]:
        """(final outcome, 0, False), or (None, seconds to wait, whether to hold everyone)."""
        litellm = self.litellm
        model = self.settings.model
        status = getattr(exc, "status_code", None)
        if isinstance(exc, litellm.ContextWindowExceededError):
            return _Outcome("split", reason="too long for the model's context window"), 0, False
        if isinstance(exc, litellm.ContentPolicyViolationError):
            return _Outcome("split", reason="refused by the provider's content filter"), 0, False
        auth_errors = (litellm.AuthenticationError, litellm.PermissionDeniedError)
        if isinstance(exc, auth_errors) or status in (401, 403):
            reason = (
                f"authentication failed for {model} (HTTP {status or 401}): "
                f"{_key_hint(self.provider)} ({_describe(exc)})"
            )
            return _Outcome("fatal", reason=reason), 0, False
        if isinstance(exc, litellm.NotFoundError) or status == 404:
            where = self.settings.api_base
            hint = f" at {where} (check --model and --api-base)" if where else ""
            reason = f"model {model} not found{hint}: {_describe(exc)}"
            return _Outcome("fatal", reason=reason), 0, False
        if isinstance(exc, litellm.RateLimitError) or status == 429:
            text = str(exc).lower()
            if "quota" in text and ("exceeded" in text or "insufficient" in text):
                reason = f"quota exceeded for {model}: {_describe(exc)}"
                return _Outcome("fatal", reason=reason), 0, False
            asked = pacing.retry_after_seconds(exc)
            if asked is not None and asked > pacing.MAX_RETRY_AFTER:
                reason = f"rate limited: the provider asked to wait {asked:.0f} s"
                return _Outcome("failed", reason=reason), 0, False
            if tries.retries >= MAX_RETRIES:
                reason = f"rate limited ({tries.retries + 1} attempts)"
                return _Outcome("failed", reason=reason), 0, False
            wait = asked if asked is not None else pacing.backoff_delay(tries.retries)
            tries.retries += 1
            return None, wait, True
        if isinstance(exc, (litellm.Timeout, asyncio.TimeoutError)):  # 3.10: not TimeoutError
            if tries.timeouts >= MAX_TIMEOUT_RETRIES:
                reason = (
                    f"timed out after {self.settings.timeout:g} s ({tries.timeouts + 1} attempts)"
                )
                return _Outcome("failed", reason=reason), 0, False
            tries.timeouts += 1
            return None, pacing.backoff_delay(tries.timeouts - 1), False
        if _is_connection_error(exc):
            tries.connects += 1
            if tries.connects >= MAX_CONNECT_ATTEMPTS:
                where = self.settings.api_base or f"the {self.provider or 'provider'} API"
                reason = f"cannot connect to {where}: {_describe(exc)}"
                return _Outcome("fatal", reason=reason), 0, False
            return None, pacing.backoff_delay(tries.connects - 1), False
        if isinstance(exc, litellm.BadRequestError) or status in (400, 422):
            text = str(exc).lower()
            if "response_format" in kwargs and ("response_format" in text or "json" in text):
                # The provider does not take our response_format: ask in the prompt only.
                self.response_format = _downgrade(self.response_format)
                return None, 0, False
            reason = f"the provider rejected the request for {model}: {_describe(exc)}"
            return _Outcome("fatal", reason=reason), 0, False
        # 5xx and anything else unexpected: bounded retries.
        if tries.retries >= MAX_RETRIES:
            what = f"HTTP {status}" if status else _describe(exc)
            reason = f"server error ({what}) after {tries.retries + 1} attempts"
            return _Outcome("failed", reason=reason), 0, False
        asked = pacing.retry_after_seconds(exc)
        if asked is None or asked > pacing.MAX_RETRY_AFTER:
            asked = pacing.backoff_delay(tries.retries)
        tries.retries += 1
        return None, asked, False

    def _outcome(self, response: Any) -> _Outcome:
        try:
            text = response.choices[0].message.content
        except (AttributeError, IndexError, KeyError):
            text = None
        usage = getattr(response, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        cost: float | None
        try:
            cost = float(self.litellm.completion_cost(completion_response=response))
        except Exception:
            cost = None
        return _Outcome("ok", text, prompt_tokens, completion_tokens, cost)

    # -- budget --------------------------------------------------------------------------

    def estimate(self, messages: list[dict[str, str]], n_papers: int) -> float:
        litellm = self.litellm
        tokens = litellm.token_counter(model=self.settings.model, messages=messages)
        p, c = litellm.cost_per_token(
            model=self.settings.model,
            prompt_tokens=tokens,
            completion_tokens=prompt.expected_completion_tokens(n_papers),
        )
        return float(p) + float(c)

    # -- the loop ------------------------------------------------------------------------

    def record(
        self, batch: _Batch, outcome: _Outcome, store: Store, pending: deque[_Batch]
    ) -> None:
        s = self.summary
        s.prompt_tokens += outcome.prompt_tokens
        s.completion_tokens += outcome.completion_tokens
        if outcome.cost is None or s.cost is None:
            s.cost = None
        else:
            s.cost += outcome.cost
        ids = [p.id for p in batch.papers]
        parsed = parse_reply(outcome.text, ids)
        s.unknown_ids += parsed.unknown_ids
        by_id = {p.id: p for p in batch.papers}
        new = [
            NewScore(by_id[pid], v.relevance, v.novelty, v.reason)
            for pid, v in parsed.scores.items()
        ]
        save_request(
            store,
            model=self.settings.model,
            topic=self.topic,
            n_papers=len(batch.papers),
            prompt_tokens=outcome.prompt_tokens,
            completion_tokens=outcome.completion_tokens,
            cost=outcome.cost,
            scores=new,
        )
        self.emit(
            [
                Score(n.paper.id, n.paper.version, n.relevance, n.novelty, n.reason, "scored")
                for n in new
            ]
        )
        missing = [p for p in batch.papers if p.id not in parsed.scores]
        if not missing:
            return
        if batch.round + 1 < MAX_ROUNDS:  # ask again, in batches half the size
            size = max(1, math.ceil(len(batch.papers) / 2))
            chunks = [missing[i : i + size] for i in range(0, len(missing), size)]
            for chunk in reversed(chunks):
                pending.appendleft(_Batch(chunk, batch.round + 1))
            return
        for p in missing:
            why = parsed.rejected.get(p.id) or parsed.error or "missing from the reply"
            self.give_up([p], f"no valid score after {MAX_ROUNDS} requests ({why})")

    async def execute(self) -> RunSummary:
        store = Store(self.db_path)
        try:
            return await self._execute(store)
        finally:
            store.close()

    async def _execute(self, store: Store) -> RunSummary:
        settings = self.settings
        if not settings.model:
            raise self.fail("no model is set: set `model` (e.g. openai/gpt-4o-mini)")
        cached = cached_scores(store, self.papers, self.topic, settings)
        if cached:
            earlier = [p for p in self.papers if p.id in cached]
            s = self.summary
            s.earlier_prompt_tokens, s.earlier_completion_tokens, s.earlier_cost = earlier_cost(
                store, earlier, self.topic, settings)
        self.emit([cached[p.id] for p in self.papers if p.id in cached])
        self.progress()
        todo = self.unfinished()
        if not todo:
            return self.summary
        await self.prepare()

        size = max(1, settings.batch_size)
        pending: deque[_Batch] = deque(
            _Batch(todo[i : i + size]) for i in range(0, len(todo), size)
        )
        pacer = pacing.Pacer(settings.rpm)
        limit = max(1, settings.concurrency)
        in_flight: dict[asyncio.Task[_Outcome], tuple[_Batch, float]] = {}
        cancel_task = asyncio.ensure_future(_wait_cancel(self.cancel)) if self.cancel else None
        fatal: str | None = None
        try:
            while pending or in_flight:
                if self.cancel is not None and self.cancel.is_set():
                    self.halt("cancelled", pending)
                while pending and len(in_flight) < limit and self.halted is None:
                    batch = pending.popleft()
                    messages = prompt.build_messages(
                        batch.papers, self.topic, settings.include_authors
                    )
                    estimate = 0.0
                    if settings.budget > 0:
                        estimate = self.estimate(messages, len(batch.papers))
                        if self.spent + self.reserved + estimate > settings.budget + 1e-12:
                            pending.appendleft(batch)
                            self.halt(f"budget of {_money(settings.budget)} reached", pending)
                            break
                        self.reserved += estimate
                    task = asyncio.ensure_future(self.send(messages, pacer))
                    in_flight[task] = (batch, estimate)
                if not in_flight:
                    break
                waiting: set[asyncio.Future[Any]] = set(in_flight)
                if cancel_task is not None:
                    waiting.add(cancel_task)
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    if task not in in_flight:
                        continue
                    batch, estimate = in_flight.pop(task)  # type: ignore[arg-type]
                    self.reserved -= estimate
                    outcome = task.result()
                    if outcome.kind == "ok":
                        self.fail_streak = 0
                        self.spent += outcome.cost if outcome.cost is not None else estimate
                        self.record(batch, outcome, store, pending)
                    elif outcome.kind == "split" and len(batch.papers) > 1:
                        half = math.ceil(len(batch.papers) / 2)
                        pending.appendleft(_Batch(batch.papers[half:], batch.round))
                        pending.appendleft(_Batch(batch.papers[:half], batch.round))
                    elif outcome.kind == "fatal":
                        fatal = outcome.reason
                    else:
                        self.give_up(batch.papers, outcome.reason)
                        self.fail_streak += 1
                        if self.fail_streak >= FAIL_STREAK:  # the server is down: stop asking
                            self.streak_reason = outcome.reason
                            self.halt(f"not sent: {self._streak_text()}", pending)
                    if self.halted is not None:
                        self.halt(self.halted, pending)  # papers re-queued just now
                if cancel_task is not None and cancel_task in done and fatal is None:
                    # Answers that already arrived were kept above; the rest is dropped.
                    cancel_task = None
                    for task in in_flight:
                        task.cancel()
                    await asyncio.gather(*in_flight, return_exceptions=True)
                    self.halt("cancelled", pending)
                    self.give_up([p for b, _ in in_flight.values() for p in b.papers], "cancelled")
                    in_flight.clear()
                self.progress()
                if fatal is not None:
                    break
        finally:
            if cancel_task is not None:
                cancel_task.cancel()
            for task in in_flight:
                task.cancel()
            if in_flight:
                await asyncio.gather(*in_flight, return_exceptions=True)
        if fatal is not None:
            raise self.fail(fatal)
        self.summary.stopped = self._stopped_text()
        self.progress()
        return self.summary

    def halt(self, reason: str, pending: deque[_Batch]) -> None:
        """Send nothing more: every paper still pending ends unscored with `reason` (a
        cancel overrides an earlier reason; the first other reason stays)."""
        if self.halted is None or reason == "cancelled":
            self.halted = reason
        papers = [p for b in pending for p in b.papers]
        pending.clear()
        self.give_up(papers, self.halted)

    def _streak_text(self) -> str:
        return f"{FAIL_STREAK} batches in a row failed ({self.streak_reason})"

    def _stopped_text(self) -> str | None:
        if self.halted is None:
            return None
        n = sum(1 for s in self.final.values() if s.status == "unscored" and s.error == self.halted)
        if self.halted.startswith("not sent: "):
            return f"{self._streak_text()}: {n} papers not sent"
        return f"{self.halted}: {n} papers not scored"


def _money(dollars: float) -> str:
    return f"${dollars:.2f}" if dollars >= 0.1 else f"${dollars:.4g}"


def _response_format(litellm: Any, model: str) -> dict[str, Any] | None:
    try:
        if litellm.supports_response_schema(model=model):
            return prompt.RESPONSE_SCHEMA
    except Exception:
        pass
    try:
        params = litellm.get_supported_openai_params(model=model) or []
    except Exception:
        params = []
    return prompt.JSON_OBJECT if "response_format" in params else None


def _downgrade(current: dict[str, Any] | None) -> dict[str, Any] | None:
    if current is not None and current.get("type") == "json_schema":
        return prompt.JSON_OBJECT
    return None


async def _wait_cancel(cancel: Any) -> None:
    if isinstance(cancel, asyncio.Event):
        await cancel.wait()
        return
    while not cancel.is_set():  # a threading.Event, set from another thread
        await asyncio.sleep(0.05)


def _unique(papers: Sequence[Paper]) -> list[Paper]:
    seen: dict[str, Paper] = {}
    for p in papers:
        seen.setdefault(p.id, p)
    return list(seen.values())


async def score_papers(
    papers: Sequence[Paper],
    topic: Topic,
    settings: ScoringSettings,
    *,
    db_path: Path | str,
    on_scores: ScoresCallback | None = None,
    on_progress: ProgressCallback | None = None,
    cancel: asyncio.Event | threading.Event | None = None,
) -> RunSummary:
    """Score papers with the configured model: cached scores first, then the rest.

    Every (distinct) paper ends with exactly one Score passed to `on_scores`: "cached",
    "scored" or "unscored" (with `error`). Raises ScoringError for failures that stop the
    run (authentication, unknown model, unreachable api_base, unknown price with a budget).
    """
    run = _Run(_unique(papers), topic, settings, db_path, on_scores, on_progress, cancel)
    return await run.execute()


def run_scoring(
    papers: Sequence[Paper],
    topic: Topic,
    settings: ScoringSettings,
    *,
    db_path: Path | str,
    on_scores: ScoresCallback | None = None,
    on_progress: ProgressCallback | None = None,
    cancel: asyncio.Event | threading.Event | None = None,
) -> RunSummary:
    """Synchronous wrapper (for a worker thread or the headless CLI). Pass a
    threading.Event as `cancel` to stop it from another thread."""

    async def main() -> RunSummary:
        try:
            return await score_papers(
                papers,
                topic,
                settings,
                db_path=db_path,
                on_scores=on_scores,
                on_progress=on_progress,
                cancel=cancel,
            )
        finally:
            await aclose_llm_clients()

    return asyncio.run(main())
