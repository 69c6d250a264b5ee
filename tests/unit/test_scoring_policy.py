"""Retry decisions, halting texts and the budget: pure, tested without a server or litellm."""

from __future__ import annotations

import ast
import email.utils
from pathlib import Path

import pytest

from paperterm.scoring.budget import Budget
from paperterm.scoring.halt import Halt, Stop, budget_stop, money, spent_by_then
from paperterm.scoring.policy import (
    BACKOFF_CAP,
    MAX_CONNECT_ATTEMPTS,
    MAX_HEADER_WAIT,
    MAX_RETRIES,
    MAX_RETRY_AFTER,
    MAX_TIMEOUT_RETRIES,
    ErrorKind,
    Failure,
    Fatal,
    GiveUp,
    RequestFacts,
    Retry,
    Split,
    Tries,
    backoff_delay,
    decide,
    parse_retry_after,
    server_problem,
)

FACTS = RequestFacts(model="openai/gpt-4o-mini", api_base="http://127.0.0.1:9/v1",
                     provider="openai", timeout=0.4, key_hint="check OPENAI_API_KEY")


def until_final(failure: Failure, facts: RequestFacts = FACTS, jitter: float = 0.5):
    """Decide again and again, as the engine does, until the request is settled."""
    tries, waits = Tries(), []
    while True:
        decision, tries = decide(failure, tries, facts, jitter)
        if not isinstance(decision, Retry):
            return decision, waits
        waits.append(decision)


def test_policy_imports_no_io_clock_or_litellm():
    import paperterm.scoring.policy as policy

    tree = ast.parse(Path(policy.__file__).read_text(encoding="utf-8"))
    imported = {n.module if isinstance(n, ast.ImportFrom) else a.name
                for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                for a in n.names}
    assert imported <= {"__future__", "email.utils", "collections.abc", "dataclasses", "enum",
                        "paperterm.scoring.halt"}, imported


# -- backoff and Retry-After -------------------------------------------------------------


def test_backoff_is_half_fixed_half_jitter_and_capped():
    assert backoff_delay(0, 0.0) == 0.25 and backoff_delay(0, 1.0) == 0.5
    assert backoff_delay(3, 0.0) == 2.0 and backoff_delay(3, 1.0) == 4.0
    assert backoff_delay(30, 1.0) == BACKOFF_CAP and backoff_delay(30, 0.0) == BACKOFF_CAP / 2
    assert [backoff_delay(n, 0.5) for n in range(4)] == sorted(
        backoff_delay(n, 0.5) for n in range(4))


def test_retry_after_seconds_ms_and_http_date():
    now = 1_700_000_000.0
    assert parse_retry_after(None, "3", now) == 3.0
    assert parse_retry_after("1500", "30", now) == 1.5  # retry-after-ms wins
    assert parse_retry_after("soon", "2", now) == 2.0  # a broken ms header falls back
    assert parse_retry_after(None, "-5", now) == 0.0
    date = email.utils.formatdate(now + 12, usegmt=True)
    assert parse_retry_after(None, date, now) == pytest.approx(12.0)
    assert parse_retry_after(None, email.utils.formatdate(now - 60, usegmt=True), now) == 0.0
    assert parse_retry_after(None, "whenever", now) is None
    assert parse_retry_after(None, None, now) is None


# -- decisions ---------------------------------------------------------------------------


def test_rate_limit_holds_everyone_for_what_the_server_asked():
    failure = Failure(ErrorKind.RATE_LIMIT, "slow down", 429, retry_after=3.0)
    decision, tries = decide(failure, Tries(), FACTS)
    assert decision == Retry(3.0, hold_all=True) and tries == Tries(retries=1)
    no_header = Failure(ErrorKind.RATE_LIMIT, "slow down", 429)
    decision, _ = decide(no_header, Tries(), FACTS, jitter=1.0)
    assert decision == Retry(backoff_delay(0, 1.0), hold_all=True)


def test_rate_limit_gives_up_after_max_retries_or_a_too_long_wait():
    final, waits = until_final(Failure(ErrorKind.RATE_LIMIT, "slow down", 429, retry_after=0))
    assert len(waits) == MAX_RETRIES
    assert final == GiveUp(f"rate limited ({MAX_RETRIES + 1} attempts)")
    too_long = Failure(ErrorKind.RATE_LIMIT, "x", 429, retry_after=MAX_RETRY_AFTER + 1)
    decision, tries = decide(too_long, Tries(), FACTS)
    asked = MAX_RETRY_AFTER + 1
    assert decision == GiveUp(f"rate limited: the provider asked to wait {asked:.0f} s")
    assert tries == Tries()


def test_server_errors_back_off_then_give_up_with_the_status():
    final, waits = until_final(Failure(ErrorKind.SERVER, "boom", 503), jitter=0.0)
    assert [w.wait for w in waits] == [backoff_delay(n, 0.0) for n in range(MAX_RETRIES)]
    assert not any(w.hold_all for w in waits)
    assert final == GiveUp(f"overloaded (HTTP 503: boom) after {MAX_RETRIES + 1} attempts")
    final, _ = until_final(Failure(ErrorKind.SERVER, "Internal error", 500), jitter=0.0)
    assert final == GiveUp(f"server error (HTTP 500: Internal error) after {MAX_RETRIES + 1} "
                           "attempts")
    final, _ = until_final(Failure(ErrorKind.SERVER, "odd reply"))
    assert final == GiveUp(f"server error (odd reply) after {MAX_RETRIES + 1} attempts")
    # a usable Retry-After is honoured, an absurd one replaced by backoff
    decision, _ = decide(Failure(ErrorKind.SERVER, "x", 503, retry_after=2.0), Tries(), FACTS)
    assert decision == Retry(2.0)
    huge = Failure(ErrorKind.SERVER, "x", 503, retry_after=MAX_RETRY_AFTER * 2)
    decision, _ = decide(huge, Tries(), FACTS, jitter=0.0)
    assert decision == Retry(backoff_delay(0, 0.0))


def test_timeouts_are_retried_a_bounded_number_of_times():
    final, waits = until_final(Failure(ErrorKind.TIMEOUT, "timed out"))
    assert len(waits) == MAX_TIMEOUT_RETRIES
    assert final == GiveUp(f"timed out after 0.4 s ({MAX_TIMEOUT_RETRIES + 1} attempts)")


def test_an_unreachable_server_is_fatal_after_a_few_attempts():
    final, waits = until_final(Failure(ErrorKind.UNREACHABLE, "Connection error."))
    assert len(waits) == MAX_CONNECT_ATTEMPTS - 1
    assert isinstance(final, Fatal) and final.stop.halt is Halt.UNREACHABLE
    assert final.stop.text == "cannot connect to http://127.0.0.1:9/v1: Connection error."
    no_base = RequestFacts(model="openai/gpt-4o-mini", provider="openai")
    final, _ = until_final(Failure(ErrorKind.UNREACHABLE, "refused"), no_base)
    assert final.stop.text == "cannot connect to the openai API: refused"


def test_auth_not_found_quota_and_rejections_are_fatal_at_once():
    cases = {
        ErrorKind.AUTH: (Halt.AUTH, "authentication failed for openai/gpt-4o-mini (HTTP 403): "
                                    "check OPENAI_API_KEY (no)"),
        ErrorKind.NOT_FOUND: (Halt.MODEL_NOT_FOUND, "model openai/gpt-4o-mini not found at "
                              "http://127.0.0.1:9/v1 (check --model and --api-base): no"),
        ErrorKind.QUOTA: (Halt.QUOTA, "quota exceeded for openai/gpt-4o-mini: no"),
        ErrorKind.BAD_REQUEST: (Halt.REJECTED,
                                "the provider rejected the request for openai/gpt-4o-mini: no"),
    }
    for kind, (halt, text) in cases.items():
        decision, tries = decide(Failure(kind, "no", 403), Tries(), FACTS)
        assert isinstance(decision, Fatal) and decision.stop.halt is halt, kind
        assert decision.stop.text == text and tries == Tries()
    decision, _ = decide(Failure(ErrorKind.NOT_FOUND, "no", 404), Tries(),
                         RequestFacts(model="m"))
    assert decision.stop.text == "model m not found: no"


def test_a_refused_response_format_is_downgraded_only_when_one_was_sent():
    failure = Failure(ErrorKind.FORMAT_REJECTED, "response_format not supported", 400)
    decision, tries = decide(failure, Tries(), RequestFacts(model="m", format_sent=True))
    assert decision == Retry(0.0, downgrade_format=True) and tries == Tries(fallbacks=1)
    decision, _ = decide(failure, Tries(), RequestFacts(model="m", format_sent=False))
    assert isinstance(decision, Fatal) and decision.stop.halt is Halt.REJECTED


def test_too_long_or_filtered_batches_are_split():
    decision, _ = decide(Failure(ErrorKind.CONTEXT_OVERFLOW, "too long", 400), Tries(), FACTS)
    assert decision == Split("too long for the model's context window")
    decision, _ = decide(Failure(ErrorKind.CONTENT_FILTER, "no", 400), Tries(), FACTS)
    assert decision == Split("refused by the provider's content filter")


def test_every_kind_has_a_decision_and_tries_are_never_mutated():
    start = Tries(retries=1, timeouts=1, connects=1)
    for kind in ErrorKind:
        decision, after = decide(Failure(kind, "x", 500), start, FACTS, 0.3)
        assert isinstance(decision, (Retry, Split, GiveUp, Fatal)), kind
        assert start == Tries(retries=1, timeouts=1, connects=1)
        assert decide(Failure(kind, "x", 500), start, FACTS, 0.3) == (decision, after)


# -- halting texts -----------------------------------------------------------------------


def test_halts_are_fatal_or_soft_and_their_texts_come_from_the_enum():
    soft = {Halt.BUDGET, Halt.CANCELLED, Halt.FAILURE_STREAK}
    assert {h for h in Halt if not h.fatal} == soft
    # issue 22: "reached" only when nothing is left; else it says the next request could
    # cross it, and what was spent; "1 paper", never "1 papers"
    reached = budget_stop(0.0008, 0.0008)
    assert reached.text == reached.paper_error == "budget of $0.0008 reached"
    before = budget_stop(0.005, 0.0019)
    assert before.paper_error == "stopped before a request that could exceed the budget of $0.005"
    spent_by_then(before, 0.0019)
    assert before.stopped(15) == ("stopped before a request that could exceed the budget of "
                                  "$0.005; spent $0.0019; 15 papers not scored")
    assert budget_stop(0.5, 0.1, " for 2026-03-02").text.endswith("$0.50 for 2026-03-02")
    assert Stop(Halt.CANCELLED).stopped(3) == "cancelled: 3 papers not scored"
    assert Stop(Halt.CANCELLED).stopped(1) == "cancelled: 1 paper not scored"
    streak = Stop(Halt.FAILURE_STREAK, "server error (HTTP 503) after 5 attempts",
                  {"streak": "3"})
    assert streak.paper_error == (
        "not sent: 3 batches in a row failed (server error (HTTP 503) after 5 attempts)")
    assert streak.stopped(25).endswith("after 5 attempts): 25 papers not sent")
    auth = Stop(Halt.AUTH, "bad key", {"model": "m", "status": "401", "hint": "check K"})
    assert auth.stopped(40) == auth.text == (
        "authentication failed for m (HTTP 401): check K (bad key)")
    assert money(1.5) == "$1.50" and money(0.0008) == "$0.0008"
    dirty = Stop(Halt.REJECTED, "bad\x1b[2J thing", {"model": "m\u202e"})
    assert dirty.text == "the provider rejected the request for m: bad thing"


def test_budget_reserves_estimates_and_counts_what_was_spent():
    budget = Budget(1.0)
    assert budget.reserve(0.6) and not budget.reserve(0.5)  # 0.6 is held in flight
    budget.settle(0.6, spent=0.3)  # answered: cheaper than estimated
    assert budget.reserve(0.7) and not budget.reserve(0.01)
    budget.settle(0.7)  # not answered: nothing spent
    assert (budget.spent, budget.reserved) == (0.3, 0.0) and budget.reserve(0.7)
    unlimited = Budget(0)
    assert not unlimited.limited and unlimited.reserve(1e9)


# -- issue 9 item 19: Retry-After of every shape; 503/529 read "overloaded" ---------------


@pytest.mark.parametrize("header, expected", [
    ("-5", 0.0), ("nan", None), ("NaN", None), ("inf", MAX_HEADER_WAIT),
    ("1e400", MAX_HEADER_WAIT), ("9" * 400, MAX_HEADER_WAIT), ("2.5", 2.5), ("soon", None),
    ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),  # a date in the past: now
])
def test_retry_after_values_are_clamped_or_ignored(header, expected):
    assert parse_retry_after(None, header, now=1_700_000_000.0) == expected
    assert parse_retry_after("nan", header, now=1_700_000_000.0) == expected


def test_retry_after_http_date_in_the_future_counts_from_now():
    now = email.utils.mktime_tz(email.utils.parsedate_tz("Wed, 21 Oct 2015 07:28:00 GMT"))
    assert parse_retry_after(None, "Wed, 21 Oct 2015 07:28:30 GMT", now) == 30.0
    assert parse_retry_after(None, "Sat, 21 Oct 9999 07:28:30 GMT", now) == MAX_HEADER_WAIT


@pytest.mark.parametrize("kind", [ErrorKind.SERVER, ErrorKind.RATE_LIMIT])
def test_a_zero_retry_after_still_backs_off(kind):
    waits = []
    tries = Tries()
    for _ in range(3):
        decision, tries = decide(Failure(kind, "x", 503, retry_after=0.0), tries, FACTS, 0.0)
        waits.append(decision.wait)
    assert waits == [backoff_delay(n, 0.0) for n in range(3)] and all(w > 0 for w in waits)


def test_overloaded_servers_are_named_with_their_text():
    for status in (503, 529):
        f = Failure(ErrorKind.SERVER, "Overloaded: try again later", status)
        assert server_problem(f) == f"overloaded (HTTP {status}: Overloaded: try again later)"
    assert "HTTP 500" not in server_problem(Failure(ErrorKind.SERVER, "busy", 529))


def test_a_400_rejecting_the_system_role_falls_back_once():
    f = Failure(ErrorKind.SYSTEM_REJECTED, "system role not supported", 400)
    decision, tries = decide(f, Tries(), RequestFacts(model="m", system_sent=True))
    assert decision == Retry(fold_system=True) and tries.fallbacks == 1
    decision, _ = decide(f, Tries(), RequestFacts(model="m", system_sent=False))
    assert isinstance(decision, Fatal)


def test_any_400_on_the_first_request_with_a_format_retries_once_without_it():
    f = Failure(ErrorKind.BAD_REQUEST, "invalid parameter", 400)
    first = RequestFacts(model="m", format_sent=True, format_unproven=True)
    decision, tries = decide(f, Tries(), first)
    assert decision == Retry(drop_format=True)
    decision, _ = decide(f, tries, first)  # only once
    assert isinstance(decision, Fatal)
    proven = RequestFacts(model="m", format_sent=True, format_unproven=False)
    assert isinstance(decide(f, Tries(), proven)[0], Fatal)
