"""Money (issue 9, items 8 and 9): unknown prices are unknown, never $0; prices from the
config or from the reply; budget reservations that follow what replies really cost.
Real HTTP through litellm to the local fake server."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.fakellm import Behaviour
from support.scoring_runs import UNKNOWN, Collector, make, run

from paperterm.cli.scoring_run import format_summary
from paperterm.scoring import ScoringError
from paperterm.scoring.estimate import START_PER_PAPER, CompletionEstimate, PromptRatio
from paperterm.scoring.halt import Halt
from paperterm.scoring.pricing import model_price
from paperterm.scoring.provider import import_litellm
from paperterm.settings import ModelOptions

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
ZERO = "openai/claude-sonnet-4-20250514"  # litellm's map says 0 per token: not free


pytestmark = pytest.mark.usefixtures("litellm_loaded")


# -- item 8: price unknown, never $0 ----------------------------------------------------


def test_litellm_prices_of_zero_or_partial_are_unknown():
    litellm = import_litellm()
    assert model_price(litellm, "anthropic/claude-sonnet-4-20250514", ModelOptions()) is None
    assert model_price(litellm, ZERO, ModelOptions()) is None
    assert model_price(litellm, UNKNOWN, ModelOptions()) is None
    known = model_price(litellm, "openai/gpt-4o-mini", ModelOptions())
    assert known is not None and known.input > 0 and known.output > 0
    given = model_price(litellm, ZERO, ModelOptions(input_price=3.0, output_price=15.0))
    assert given is not None and (given.input, given.output) == (3e-6, 15e-6)


async def test_a_model_priced_at_zero_costs_unknown_not_nothing(llm, day, topic, db):
    c = Collector()
    summary = await run(day[:3], topic, make(llm, model=ZERO), db, c)
    assert summary.scored == 3
    assert summary.cost is None
    assert "cost unknown" in format_summary(summary, list(c.by_id.values()))
    assert "$0.0000" not in format_summary(summary, list(c.by_id.values()))
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT cost FROM score_requests").fetchall() == [(None,)]


async def test_a_budget_with_an_unknown_price_says_how_to_give_one(llm, day, topic, db):
    with pytest.raises(ScoringError) as info:
        await run(day[:3], topic, make(llm, model=ZERO, budget=0.5), db)
    assert info.value.halt is Halt.UNPRICED_BUDGET
    text = str(info.value)
    assert f'[models."{ZERO}"] input_price = ..., output_price = ...' in text
    assert "dollars per million tokens" in text
    assert llm.count == 0  # nothing was paid for


async def test_the_configs_price_is_used_and_makes_a_budget_possible(llm, day, topic, db):
    prices = {ZERO: ModelOptions(input_price=3.0, output_price=15.0)}
    summary = await run(day[:5], topic, make(llm, model=ZERO, models=prices, budget=1.0), db)
    assert summary.scored == 5
    expected = summary.prompt_tokens * 3e-6 + summary.completion_tokens * 15e-6
    assert summary.cost == pytest.approx(expected)


async def test_the_cost_the_provider_reports_in_the_reply_is_used(llm, day, topic, db):
    llm.default = Behaviour(cost=0.0125)
    summary = await run(day[:10], topic, make(llm, model=UNKNOWN), db)  # unknown to litellm
    assert summary.scored == 10 and summary.requests == 2
    assert summary.cost == pytest.approx(0.025)
    llm.default = Behaviour(cost="free")  # not a number: falls back to the price
    summary = await run(day[10:15], topic, make(llm), db)
    assert summary.cost is not None and 0 < summary.cost < 0.01


# -- item 9: estimates that follow reality; a run never ends above its budget -------------


def test_completion_estimate_starts_conservative_and_follows_replies():
    est = CompletionEstimate()
    assert est.expected(10) == 10 * START_PER_PAPER
    est.observe(400, 10)  # 40 per paper: below the floor of one plain entry
    assert est.expected(10) == 450
    est.observe(4000, 10)  # a reasoning model: 400 per paper
    assert est.expected(10) == 4000
    est.observe(100, 10)  # later replies only raise it
    assert est.expected(10) == 4000
    assert est.max_tokens(10) > est.expected(10)


async def test_a_reasoning_model_never_takes_a_run_above_its_budget(llm, day, topic, db):
    # 400 completion tokens per paper (reasoning billed as completion): the old estimate of
    # 45 a paper let four batches fly and spend about twice the budget
    llm.default = Behaviour(completion_tokens=2000)
    budget = 0.003
    summary = await run(day[:40], topic, make(llm, concurrency=4, budget=budget), db)
    assert summary.halted is Halt.BUDGET
    assert summary.cost is not None and 0 < summary.cost <= budget
    assert summary.scored > 0 and summary.unscored > 0
    sent = [r["max_tokens"] for r in llm.requests]
    assert all(isinstance(m, int) and m > 0 for m in sent)  # every request is capped


async def test_every_request_caps_its_reply_and_the_cap_follows_replies(llm, day, topic, db):
    llm.default = Behaviour(completion_tokens=3000)  # runaway replies (capped by max_tokens)
    await run(day[:20], topic, make(llm, concurrency=1), db)
    caps = [r["max_tokens"] for r in llm.requests]
    assert caps[0] == CompletionEstimate().max_tokens(5)
    assert caps[1] > caps[0]  # the first reply used all it could: expect more next time
    assert all(c < 3000 * 2 for c in caps)


# -- item 12: budget_period = "day" ----------------------------------------------------------


async def test_budget_period_day_counts_every_run_of_the_announcement_day(llm, day, topic, db):
    first = await run(day[:10], topic, make(llm, concurrency=1), db, day="2026-02-25")
    spent = first.cost
    assert spent is not None and spent > 0
    budget = spent + 0.0005  # the first run used most of it: no batch of five fits the rest
    per_day = make(llm, concurrency=1, budget=budget, budget_period="day")
    second = await run(day[10:30], topic, per_day, db, day="2026-02-25")
    # what is left pays for a few smaller requests, then for none: the day stays within it
    assert second.halted is Halt.BUDGET and 0 < second.scored < 20
    assert second.cost is not None and spent + second.cost <= budget
    assert second.stopped.startswith(
        f"stopped before a request that could exceed the budget of ${budget:.4g} for 2026-02-25; "
        "spent $")
    # the same budget per run, or on another day, is not used up
    per_run = make(llm, concurrency=1, budget=budget)
    again = await run(day[10:15], topic, per_run, db, day="2026-02-25")
    assert (again.scored + again.cached, again.unscored) == (5, 0)
    other = await run(day[15:20], topic, per_day, db, day="2026-02-26")
    assert other.scored == 5


# -- issue 21: a provider counting more prompt tokens than litellm's tokenizer ------------


@pytest.mark.parametrize("concurrency", [1, 4])
async def test_a_provider_counting_more_prompt_tokens_never_overspends(llm, day, topic, db,
                                                                       concurrency):
    # bills 30% more prompt tokens than counted, and replies as long as max_tokens allows
    llm.default = Behaviour(prompt_factor=1.3, completion_tokens=10_000)
    budget = 0.001
    summary = await run(day[:60], topic,
                        make(llm, concurrency=concurrency, batch_size=2, budget=budget), db)
    assert summary.halted is Halt.BUDGET and summary.scored > 0
    assert summary.cost is not None and summary.cost <= budget, summary.cost


def test_the_prompt_ratio_starts_with_a_margin_and_learns_the_providers():
    ratio = PromptRatio()
    assert ratio.reserve(1000) >= 1300  # a margin before any reply
    ratio.observe(1100, 1000)  # the provider counts 10% more
    assert 1100 <= ratio.reserve(1000) < 1300
    ratio.observe(0, 1000)  # a reply without usage teaches nothing
    ratio.observe(700, 1000)  # fewer: the largest ratio seen stays
    assert 1100 <= ratio.reserve(1000) < 1300


# -- a budget that pays for a smaller batch scores it (the walk's --budget 0.004) -----------


async def test_a_budget_below_a_whole_batchs_reservation_still_scores_what_it_covers(
        llm, day, topic, db):
    # a batch of 25 reserves more than $0.004 at the first guess (150 completion tokens a
    # paper, with headroom) though a request costs about half that: it scored nothing
    budget = 0.004
    summary = await run(day[:50], topic, make(llm, concurrency=1, batch_size=25,
                                              budget=budget), db)
    assert summary.scored > 0, summary.stopped
    assert summary.cost is not None and summary.cost <= budget, summary.cost
