"""Request shaping per model, config `[models."<model>"]` (issue 13, item 3): max_tokens,
response_format, system_role, context, extra parameters, and the automatic fallbacks.
Real HTTP through litellm to the local fake server."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM
from support.scoring_runs import KNOWN, Collector, assert_default_scores, make, run

from paperterm.scoring.estimate import CompletionEstimate
from paperterm.scoring.prompt import prompt_criteria
from paperterm.settings import ModelOptions
from paperterm.settings.config import ConfigError, parse_config

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"


pytestmark = pytest.mark.usefixtures("litellm_loaded")


def shaped(llm: FakeLLM, **options) -> dict:
    return {"models": {KNOWN: ModelOptions(**options)}}


# -- the config table ----------------------------------------------------------------------


def test_models_table_is_parsed_and_validated():
    cfg = parse_config({"models": {KNOWN: {
        "max_tokens": 4000, "response_format": "json_object", "system_role": False,
        "context": 8192, "input_price": 0.15, "output_price": 0.6,
        "extra": {"temperature": 0, "num_ctx": 8192}}}}, "c.toml")
    options = cfg.scoring.models[KNOWN]
    assert options == ModelOptions(4000, "json_object", False, 8192, 0.15, 0.6,
                                   {"temperature": 0, "num_ctx": 8192})
    for bad, words in [({"response_format": "xml"}, "response_format"),
                       ({"max_tokens": -1}, "max_tokens"), ({"input_price": 1.0}, "both"),
                       ({"input_price": float("nan"), "output_price": 1.0}, "input_price"),
                       ({"output_price": float("inf"), "input_price": 1.0}, "output_price"),
                       ({"colour": "red"}, "unknown key 'colour'"), ({"extra": 3}, "extra")]:
        with pytest.raises(ConfigError, match=words):
            parse_config({"models": {KNOWN: bad}}, "c.toml")
    with pytest.raises(ConfigError, match=r'\[models'):
        parse_config({"models": {KNOWN: 3}}, "c.toml")


def test_budget_period_is_a_declared_setting():
    assert parse_config({"budget_period": "day"}, "c").scoring.budget_period == "day"
    with pytest.raises(ConfigError, match="budget_period"):
        parse_config({"budget_period": "week"}, "c")


# -- what requests carry -------------------------------------------------------------------


async def test_every_request_sets_max_tokens_by_default(llm, day, topic, db):
    await run(day[:5], topic, make(llm), db)
    assert llm.requests[0]["max_tokens"] == CompletionEstimate().max_tokens(5)


async def test_configured_max_tokens_and_zero_for_none(llm, day, topic, db):
    await run(day[:5], topic, make(llm, **shaped(llm, max_tokens=777)), db)
    assert llm.requests[-1]["max_tokens"] == 777
    await run(day[5:10], topic, make(llm, **shaped(llm, max_tokens=0)), db)
    assert "max_tokens" not in llm.requests[-1]


@pytest.mark.parametrize("fmt, sent", [("none", None), ("json_object", {"type": "json_object"}),
                                       ("auto", "json_schema")])
async def test_configured_response_format(llm, day, topic, db, fmt, sent):
    await run(day[:5], topic, make(llm, **shaped(llm, response_format=fmt)), db)
    body = llm.requests[0]
    if sent is None:
        assert "response_format" not in body
    elif sent == "json_schema":
        assert body["response_format"]["type"] == "json_schema"
    else:
        assert body["response_format"] == sent


async def test_system_role_false_folds_the_instructions_into_the_user_message(llm, day, topic,
                                                                              db):
    c = Collector()
    await run(day[:5], topic, make(llm, **shaped(llm, system_role=False)), db, c)
    messages = llm.requests[0]["messages"]
    assert [m["role"] for m in messages] == ["user"]
    assert prompt_criteria(topic) in messages[0]["content"]
    assert '<paper id="' in messages[0]["content"]
    assert_default_scores(day[:5], c.by_id)


async def test_extra_parameters_are_passed_through(llm, day, topic, db):
    await run(day[:5], topic, make(llm, **shaped(llm, extra={"temperature": 0.1, "seed": 7})),
              db)
    body = llm.requests[0]
    assert body["temperature"] == 0.1 and body["seed"] == 7


async def test_batches_are_sized_to_fit_the_context(llm, day, topic, db):
    c = Collector()
    await run(day[:20], topic, make(llm, batch_size=20, **shaped(llm, context=2500)), db, c)
    sizes = [len(llm.ids_of(r)) for r in llm.requests]
    assert max(sizes) < 20 and sum(sizes) == 20
    assert_default_scores(day[:20], c.by_id)


# -- automatic fallbacks, remembered for the run and serialised -----------------------------


async def test_a_400_refusing_the_system_role_falls_back_once_for_the_run(llm, day, topic, db):
    def rule(n, ids):
        if llm.requests[n - 1]["messages"][0]["role"] == "system":
            return Behaviour(status=400, error_message="System role not supported")
        return None

    llm.rule = rule
    c = Collector()
    summary = await run(day[:40], topic, make(llm, concurrency=4), db, c)
    assert summary.scored == 40
    refused = [r for r in llm.requests if r["messages"][0]["role"] == "system"]
    assert 1 <= len(refused) <= 4  # only the requests already in flight were refused
    assert len(llm.requests) == 8 + len(refused)


async def test_any_400_on_the_first_request_with_a_format_retries_without(llm, day, topic, db):
    def rule(n, ids):
        if "response_format" in llm.requests[n - 1]:
            return Behaviour(status=400, error_message="Unrecognized request argument")
        return None

    llm.rule = rule
    c = Collector()
    summary = await run(day[:40], topic, make(llm, concurrency=4), db, c)
    assert summary.scored == 40
    refused = [r for r in llm.requests if "response_format" in r]
    # an unexplained 400 on the first formatted request: resent once, with no format; the
    # formatted requests are at most those already in flight (concurrency 4), whatever
    # order a loaded machine delivers them in
    assert 1 <= len(refused) <= 4
    assert len(llm.requests) - len(refused) >= 1
