"""What to do after a failed request: retry (after how long), split, give up or halt.

Pure functions only: no I/O, no sleeping, no clock, no litellm. The provider classifies an
exception into a `Failure`; `decide` turns it and the request's tries so far into a decision.
Randomness (backoff jitter) and the current time (HTTP-date Retry-After) come in as arguments.
"""

from __future__ import annotations

import email.utils
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum

from paperterm.scoring.halt import Halt, Stop

MAX_RETRIES = 4  # per request, for 429 and 5xx
MAX_TIMEOUT_RETRIES = 2  # per request, for timeouts
MAX_CONNECT_ATTEMPTS = 3  # connection refused this many times in a row: the run stops
BACKOFF_BASE = 0.5  # seconds before the first retry
BACKOFF_CAP = 20.0
MAX_RETRY_AFTER = 90.0  # a server asking for longer than this is treated as a failure
MAX_HEADER_WAIT = 86_400.0  # a Retry-After beyond a day is read as a day
OVERLOADED = (503, 529)  # "overloaded" (529: Anthropic), with the server's own text


class ErrorKind(Enum):
    """What went wrong with one request, as far as retrying is concerned."""

    CONTEXT_OVERFLOW = "context_overflow"
    CONTENT_FILTER = "content_filter"
    AUTH = "auth"
    NOT_FOUND = "not_found"
    QUOTA = "quota"
    RATE_LIMIT = "rate_limit"
    TIMEOUT = "timeout"
    UNREACHABLE = "unreachable"
    SYSTEM_REJECTED = "system_rejected"  # a 400 that refuses the system role
    FORMAT_REJECTED = "format_rejected"  # a 400 that names response_format or JSON
    BAD_REQUEST = "bad_request"
    BAD_REPLY = "bad_reply"  # answered (and paid), but litellm could not read the reply
    SERVER = "server"  # 5xx and anything unexpected


@dataclass(frozen=True)
class Failure:
    """One classified provider error. `detail` is the provider's message, clean and short."""

    kind: ErrorKind
    detail: str
    status: int | None = None
    retry_after: float | None = None  # seconds the server asked us to wait


@dataclass(frozen=True)
class RequestFacts:
    """What the messages of a decision may name."""

    model: str
    api_base: str = ""
    provider: str | None = None
    timeout: float = 60.0
    key_hint: str = "check the provider's API key environment variable"
    format_sent: bool = False  # the request carried a response_format
    system_sent: bool = False  # the request carried a system message
    format_unproven: bool = False  # no request with this response_format succeeded yet


@dataclass(frozen=True)
class Tries:
    """How often one request was retried so far, per cause."""

    retries: int = 0  # 429 and 5xx
    timeouts: int = 0
    connects: int = 0
    fallbacks: int = 0  # resent in a simpler form (response_format, system role)


@dataclass(frozen=True)
class Retry:
    wait: float = 0.0
    hold_all: bool = False  # a 429 holds back every request, not just this one
    downgrade_format: bool = False  # resend with a simpler response_format
    fold_system: bool = False  # resend with the instructions in the user message
    drop_format: bool = False  # resend with no response_format at all


@dataclass(frozen=True)
class Split:
    """The batch is too much in one piece: ask about its halves (a single paper gives up)."""

    reason: str


@dataclass(frozen=True)
class GiveUp:
    """This batch's papers end unscored with `reason`; the run goes on."""

    reason: str


@dataclass(frozen=True)
class Fatal:
    """The whole run stops."""

    stop: Stop


Decision = Retry | Split | GiveUp | Fatal


def backoff_delay(attempt: int, jitter: float, base: float | None = None,
                  cap: float = BACKOFF_CAP) -> float:
    """Exponential backoff for retry number `attempt` (0-based): half fixed, half scaled by
    `jitter` (0..1, random in practice), so concurrent retries spread out. `base`: the first
    retry's ceiling, BACKOFF_BASE unless given (read at call time)."""
    ceiling = min(cap, (BACKOFF_BASE if base is None else base) * (2**attempt))
    return ceiling / 2 + jitter * ceiling / 2


def _seconds(text: str, scale: float = 1.0) -> float | None:
    """A finite number of seconds from a header value, clamped at 0 (nan: None)."""
    try:
        value = float(text.strip()) * scale
    except (ValueError, OverflowError):
        return None
    if value != value:  # nan
        return None
    return min(max(0.0, value), MAX_HEADER_WAIT)


def parse_retry_after(retry_after_ms: str | None, retry_after: str | None,
                      now: float) -> float | None:
    """Seconds asked for by `retry-after-ms` or `Retry-After` (seconds or an HTTP date,
    relative to `now`, a Unix time), clamped to 0..MAX_HEADER_WAIT; None when neither
    says anything usable (nan, garbage)."""
    if retry_after_ms is not None:
        asked = _seconds(retry_after_ms, 0.001)
        if asked is not None:
            return asked
    if retry_after is None:
        return None
    asked = _seconds(retry_after)
    if asked is not None:
        return asked
    try:
        parsed = email.utils.parsedate_tz(retry_after)
        if parsed is None:
            return None
        return min(max(0.0, email.utils.mktime_tz(parsed) - now), MAX_HEADER_WAIT)
    except (ValueError, OverflowError, TypeError):
        return None


# -- decisions, one function per kind of failure -----------------------------------------

Rule = Callable[[Failure, Tries, RequestFacts, float], tuple[Decision, Tries]]


def _split(reason: str) -> Rule:
    return lambda f, tries, facts, jitter: (Split(reason), tries)


def _auth(f: Failure, tries: Tries, facts: RequestFacts, jitter: float) -> tuple[Decision, Tries]:
    facts_ = {"model": facts.model, "status": str(f.status or 401), "hint": facts.key_hint}
    return Fatal(Stop(Halt.AUTH, f.detail, facts_)), tries


def _not_found(f: Failure, tries: Tries, facts: RequestFacts,
               jitter: float) -> tuple[Decision, Tries]:
    where = f" at {facts.api_base} (check --model and --api-base)" if facts.api_base else ""
    stop = Stop(Halt.MODEL_NOT_FOUND, f.detail, {"model": facts.model, "where": where})
    return Fatal(stop), tries


def _quota(f: Failure, tries: Tries, facts: RequestFacts, jitter: float) -> tuple[Decision, Tries]:
    return Fatal(Stop(Halt.QUOTA, f.detail, {"model": facts.model})), tries


def _rate_limit(f: Failure, tries: Tries, facts: RequestFacts,
                jitter: float) -> tuple[Decision, Tries]:
    asked = f.retry_after
    if asked is not None and asked > MAX_RETRY_AFTER:
        return GiveUp(f"rate limited: the provider asked to wait {asked:.0f} s"), tries
    if tries.retries >= MAX_RETRIES:
        return GiveUp(f"rate limited ({tries.retries + 1} attempts)"), tries
    wait = max(asked or 0.0, backoff_delay(tries.retries, jitter))  # backoff still applies
    return Retry(wait, hold_all=True), replace(tries, retries=tries.retries + 1)


def _timeout(f: Failure, tries: Tries, facts: RequestFacts,
             jitter: float) -> tuple[Decision, Tries]:
    if tries.timeouts >= MAX_TIMEOUT_RETRIES:
        return GiveUp(f"timed out after {facts.timeout:g} s ({tries.timeouts + 1} attempts)"), tries
    return Retry(backoff_delay(tries.timeouts, jitter)), replace(tries, timeouts=tries.timeouts + 1)


def _unreachable(f: Failure, tries: Tries, facts: RequestFacts,
                 jitter: float) -> tuple[Decision, Tries]:
    tries = replace(tries, connects=tries.connects + 1)
    if tries.connects >= MAX_CONNECT_ATTEMPTS:
        where = facts.api_base or f"the {facts.provider or 'provider'} API"
        return Fatal(Stop(Halt.UNREACHABLE, f.detail, {"where": where})), tries
    return Retry(backoff_delay(tries.connects - 1, jitter)), tries


def _rejected(f: Failure, tries: Tries, facts: RequestFacts,
              jitter: float) -> tuple[Decision, Tries]:
    return Fatal(Stop(Halt.REJECTED, f.detail, {"model": facts.model})), tries


def _format_rejected(f: Failure, tries: Tries, facts: RequestFacts,
                     jitter: float) -> tuple[Decision, Tries]:
    if facts.format_sent and tries.fallbacks < 2:  # not taken: resend in a simpler form
        return Retry(downgrade_format=True), replace(tries, fallbacks=tries.fallbacks + 1)
    return _rejected(f, tries, facts, jitter)


def _system_rejected(f: Failure, tries: Tries, facts: RequestFacts,
                     jitter: float) -> tuple[Decision, Tries]:
    if facts.system_sent and tries.fallbacks < 2:  # resend with no system message
        return Retry(fold_system=True), replace(tries, fallbacks=tries.fallbacks + 1)
    return _bad_request(f, tries, facts, jitter)


def _bad_request(f: Failure, tries: Tries, facts: RequestFacts,
                 jitter: float) -> tuple[Decision, Tries]:
    """Any other 400: on the first request that carried a response_format, the format is
    the likely culprit (retried once without it); otherwise the run stops."""
    if facts.format_sent and facts.format_unproven and tries.fallbacks == 0:
        return Retry(drop_format=True), replace(tries, fallbacks=1)
    return _rejected(f, tries, facts, jitter)


def _server(f: Failure, tries: Tries, facts: RequestFacts,
            jitter: float) -> tuple[Decision, Tries]:
    if tries.retries >= MAX_RETRIES:
        return GiveUp(f"{server_problem(f)} after {tries.retries + 1} attempts"), tries
    asked = f.retry_after or 0.0
    if asked > MAX_RETRY_AFTER:  # absurd: ignored; backoff applies either way
        asked = 0.0
    return Retry(max(asked, backoff_delay(tries.retries, jitter))), replace(
        tries, retries=tries.retries + 1)


def _bad_reply(f: Failure, tries: Tries, facts: RequestFacts,
               jitter: float) -> tuple[Decision, Tries]:
    """An answer of the wrong shape (a usage block of wrong types, ...): it was paid for,
    so it is not resent; the batch fails with what was wrong, never as "HTTP 500"."""
    return GiveUp(f"the provider's reply could not be read ({f.detail})"), tries


def server_problem(f: Failure) -> str:
    """A 5xx in words: 503/529 read "overloaded", with the server's own text."""
    what = "overloaded" if f.status in OVERLOADED else "server error"
    if f.status:
        return f"{what} (HTTP {f.status}: {f.detail})" if f.detail else f"{what} (HTTP {f.status})"
    return f"{what} ({f.detail})"


_RULES: dict[ErrorKind, Rule] = {
    ErrorKind.CONTEXT_OVERFLOW: _split("too long for the model's context window"),
    ErrorKind.CONTENT_FILTER: _split("refused by the provider's content filter"),
    ErrorKind.AUTH: _auth,
    ErrorKind.NOT_FOUND: _not_found,
    ErrorKind.QUOTA: _quota,
    ErrorKind.RATE_LIMIT: _rate_limit,
    ErrorKind.TIMEOUT: _timeout,
    ErrorKind.UNREACHABLE: _unreachable,
    ErrorKind.SYSTEM_REJECTED: _system_rejected,
    ErrorKind.FORMAT_REJECTED: _format_rejected,
    ErrorKind.BAD_REQUEST: _bad_request,
    ErrorKind.BAD_REPLY: _bad_reply,
    ErrorKind.SERVER: _server,
}


def decide(failure: Failure, tries: Tries, facts: RequestFacts,
           jitter: float = 0.5) -> tuple[Decision, Tries]:
    """The next step after `failure`, and the tries counted so far including this one."""
    return _RULES[failure.kind](failure, tries, facts, jitter)
