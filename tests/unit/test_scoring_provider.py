"""The litellm boundary: classifying litellm's exceptions by the ordered table of rules,
provider text made safe, Retry-After read from responses; and a request over real HTTP."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import httpx
import pytest
from support.fakellm import Behaviour, FakeLLM

from paperterm.scoring.policy import ErrorKind
from paperterm.scoring.provider import (
    ERROR_RULES,
    JSON_OBJECT,
    Provider,
    classify,
    describe,
    downgrade,
    import_litellm,
)
from paperterm.scoring.task import RESPONSE_SCHEMA

REQUEST = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")


@pytest.fixture(scope="module")
def litellm():
    return import_litellm()


def response(status: int, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, headers=headers or {}, request=REQUEST)


def test_litellm_is_imported_with_the_local_price_map():
    code = ("import os, sys\n"
            "os.environ.pop('LITELLM_LOCAL_MODEL_COST_MAP', None)\n"
            "import paperterm.scoring.provider as p\n"
            "assert 'litellm' not in sys.modules\n"
            "p.import_litellm()\n"
            "assert os.environ['LITELLM_LOCAL_MODEL_COST_MAP'] == 'True'\n"
            "assert 'litellm' in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_each_exception_gets_the_kind_of_the_first_matching_rule(litellm):
    m, p = "gpt-4o-mini", "openai"
    cases = [
        # a BadRequestError subclass that even mentions json: the earlier row wins
        (litellm.ContextWindowExceededError("max context length, json", model=m,
                                            llm_provider=p), ErrorKind.CONTEXT_OVERFLOW),
        (litellm.ContentPolicyViolationError("filtered", model=m, llm_provider=p),
         ErrorKind.CONTENT_FILTER),
        (litellm.AuthenticationError("bad key", llm_provider=p, model=m), ErrorKind.AUTH),
        (litellm.PermissionDeniedError("no", llm_provider=p, model=m, response=response(403)),
         ErrorKind.AUTH),
        (litellm.NotFoundError("no such model", model=m, llm_provider=p), ErrorKind.NOT_FOUND),
        (litellm.RateLimitError("You exceeded your current quota", llm_provider=p, model=m),
         ErrorKind.QUOTA),
        (litellm.RateLimitError("slow down", llm_provider=p, model=m), ErrorKind.RATE_LIMIT),
        # litellm.Timeout is an APIConnectionError: the timeout row comes first
        (litellm.Timeout("timed out", model=m, llm_provider=p), ErrorKind.TIMEOUT),
        (asyncio.TimeoutError(), ErrorKind.TIMEOUT),
        (litellm.APIConnectionError("Connection error.", llm_provider=p, model=m,
                                    request=REQUEST), ErrorKind.UNREACHABLE),
        (litellm.BadRequestError("response_format json_schema is not supported", model=m,
                                 llm_provider=p), ErrorKind.FORMAT_REJECTED),
        (litellm.BadRequestError("messages must not be empty", model=m, llm_provider=p),
         ErrorKind.BAD_REQUEST),
        (litellm.InternalServerError("boom", llm_provider=p, model=m), ErrorKind.SERVER),
        (litellm.ServiceUnavailableError("down", llm_provider=p, model=m), ErrorKind.SERVER),
        (ValueError("odd"), ErrorKind.SERVER),
    ]
    got = [(type(e).__name__, classify(e, litellm).kind) for e, _ in cases]
    assert got == [(type(e).__name__, kind) for e, kind in cases]


def test_statuses_and_causes_classify_exceptions_litellm_did_not_map(litellm):
    class Odd(Exception):
        def __init__(self, status: int) -> None:
            super().__init__(f"HTTP {status}")
            self.status_code = status

    assert [classify(Odd(s), litellm).kind for s in (401, 403, 404, 429, 400, 422, 502)] == [
        ErrorKind.AUTH, ErrorKind.AUTH, ErrorKind.NOT_FOUND, ErrorKind.RATE_LIMIT,
        ErrorKind.BAD_REQUEST, ErrorKind.BAD_REQUEST, ErrorKind.SERVER]
    assert classify(Odd(502), litellm).status == 502
    try:
        try:
            raise ConnectionRefusedError(111, "Connection refused")
        except ConnectionRefusedError as inner:
            raise RuntimeError("request failed") from inner
    except RuntimeError as outer:
        assert classify(outer, litellm).kind is ErrorKind.UNREACHABLE


def test_the_table_is_ordered_and_ends_with_a_catch_all():
    kinds = [rule.kind for rule in ERROR_RULES]
    assert kinds.index(ErrorKind.QUOTA) < kinds.index(ErrorKind.RATE_LIMIT)
    assert kinds.index(ErrorKind.TIMEOUT) < kinds.index(ErrorKind.UNREACHABLE)
    assert kinds.index(ErrorKind.CONTEXT_OVERFLOW) < kinds.index(ErrorKind.BAD_REQUEST)
    assert kinds[-1] is ErrorKind.SERVER and set(kinds) == set(ErrorKind)


def test_retry_after_is_read_from_the_error_response(litellm):
    limited = litellm.RateLimitError("slow down", llm_provider="openai", model="m",
                                     response=response(429, {"retry-after": "7"}))
    assert classify(limited, litellm).retry_after == 7.0
    ms = litellm.RateLimitError("slow down", llm_provider="openai", model="m",
                                response=response(429, {"retry-after-ms": "250"}))
    assert classify(ms, litellm).retry_after == 0.25
    plain = litellm.RateLimitError("slow down", llm_provider="openai", model="m")
    assert classify(plain, litellm).retry_after is None


def test_provider_text_is_one_clean_line_without_secrets(monkeypatch):
    monkeypatch.setenv("MY_PROVIDER_TOKEN", "tok-0123456789abcdef")
    exc = RuntimeError(
        "litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect key "
        "sk-live-abcdef123456 \x1b[31mred\x1b[0m \u202eevil\u202c tok-0123456789abcdef\n"
        "second line with details")
    text = describe(exc)
    assert text.startswith("Incorrect key ***")
    assert "sk-live" not in text and "tok-0123456789abcdef" not in text
    assert "\x1b" not in text and "\u202e" not in text and "\n" not in text
    assert "red" in text and "evil" in text and "second line" not in text
    assert describe(RuntimeError("")) == "RuntimeError"
    assert len(describe(RuntimeError("x" * 500))) == 160


def test_reply_formats_downgrade_from_schema_to_json_to_none():
    assert downgrade(RESPONSE_SCHEMA) == JSON_OBJECT
    assert downgrade(JSON_OBJECT) is None and downgrade(None) is None


async def test_one_request_over_http_gives_text_tokens_and_cost(monkeypatch, litellm):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLM() as llm:
        provider = Provider("openai/gpt-4o-mini", llm.url, timeout=10)
        assert await provider.setup() is None and provider.priced
        assert provider.name == "openai"
        fmt = provider.response_format(RESPONSE_SCHEMA)
        assert fmt == RESPONSE_SCHEMA
        messages = [{"role": "system", "content": "rate"},
                    {"role": "user", "content": '<paper id="2602.00001">\nT\nA\n</paper>'}]
        reply = await provider.send(messages, fmt)
        assert '"2602.00001"' in (reply.text or "")
        assert reply.prompt_tokens > 0 and reply.completion_tokens > 0
        assert reply.cost is not None and reply.cost > 0
        assert llm.requests[0]["response_format"]["type"] == "json_schema"
        assert provider.estimate_cost(messages, 50) > 0

        llm.push(Behaviour(status=401))
        with pytest.raises(Exception) as info:
            await provider.send(messages, None)
        failure = provider.classify(info.value)
        assert failure.kind is ErrorKind.AUTH and failure.status == 401
        assert "sk-test" not in failure.detail
        assert provider.facts(format_sent=False).key_hint == "check OPENAI_API_KEY"
