"""Provider knowledge without HTTP (issue 13, item 4): which key variables are really
missing, Ollama's default address, and the server's own words in litellm's error text."""

from __future__ import annotations

import pytest

from paperterm.scoring.provider import import_litellm
from paperterm.scoring.providers import (
    OLLAMA_DEFAULT_BASE,
    default_api_base,
    default_base_note,
    key_hint,
    missing_keys,
)
from paperterm.scoring.server_text import answered_status, server_words

VARS = ("AZURE_API_KEY", "AZURE_API_VERSION", "AZURE_API_BASE", "OLLAMA_API_BASE",
        "OPENAI_API_KEY", "LITELLM_PROXY_API_KEY")


@pytest.fixture(scope="module")
def litellm():
    return import_litellm()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for var in VARS:
        monkeypatch.delenv(var, raising=False)


def test_azure_with_api_base_needs_its_key_and_version_only(litellm, monkeypatch):
    model, base = "azure/my-deployment", "https://example.openai.azure.com"
    assert missing_keys(litellm, model, base) == ["AZURE_API_VERSION", "AZURE_API_KEY"]
    monkeypatch.setenv("AZURE_API_KEY", "k")
    assert missing_keys(litellm, model, base) == ["AZURE_API_VERSION"]  # not the key too
    monkeypatch.setenv("AZURE_API_VERSION", "2024-10-21")
    assert missing_keys(litellm, model, base) == []
    assert missing_keys(litellm, model, "") == ["AZURE_API_BASE"]  # no address at all
    monkeypatch.setenv("AZURE_API_BASE", base)
    assert missing_keys(litellm, model, "") == []


def test_ollama_needs_no_variable_and_has_a_default_address(litellm, monkeypatch):
    for model in ("ollama/llama3.1", "ollama_chat/llama3.1"):
        assert missing_keys(litellm, model, "") == []
    assert default_api_base("ollama") == OLLAMA_DEFAULT_BASE == "http://localhost:11434"
    assert "set --api-base or OLLAMA_API_BASE" in default_base_note("ollama")
    monkeypatch.setenv("OLLAMA_API_BASE", "http://gpu-box:11434")
    assert default_api_base("ollama_chat") == "http://gpu-box:11434"
    assert default_base_note("ollama_chat") == "from OLLAMA_API_BASE"
    assert default_api_base("openai") == "" and default_base_note("openai") == ""


def test_other_providers_still_need_their_key(litellm, monkeypatch):
    assert missing_keys(litellm, "openai/gpt-4o-mini", "http://127.0.0.1:1/v1") == [
        "OPENAI_API_KEY"]
    assert key_hint("litellm_proxy") == "check LITELLM_PROXY_API_KEY"


@pytest.mark.parametrize(("raw", "words"), [
    ('litellm.InternalServerError: AnthropicException - {"type":"error","error":{"type":'
     '"api_error","message":"Internal server error"}}. Handle with '
     "`litellm.InternalServerError`.", "Internal server error"),
    ("litellm.APIError: AzureException APIError - Error code: 500 - {'error': 'model runner "
     "has unexpectedly stopped'}", "model runner has unexpectedly stopped"),
    ('litellm.InternalServerError: GeminiException InternalServerError - {"error": {"code": '
     '500, "message": "Internal error encountered.", "status": "INTERNAL"}}',
     "Internal error encountered."),
    ('[{"error": {"code": 503, "message": "The model is overloaded."}}]',
     "The model is overloaded."),
    ("OllamaException - <html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n"
     "<body><center><h1>504 Gateway Time-out</h1></center></body></html>",
     "504 Gateway Time-out"),
    ("<!DOCTYPE html><body><p>Service &amp; more\n unavailable</p></body>",
     "Service & more unavailable"),
    # a litellm proxy relaying a provider's error, with its notes after it
    ('{"error": {"message": "litellm.InternalServerError: AnthropicException - {\\"error\\": '
     '{\\"message\\": \\"the GPU caught fire\\"}}. Handle with `litellm.InternalServerError`.'
     '\\nReceived Model Group=claude\\nAvailable Model Group Fallbacks=None", "code": "500"}}',
     "the GPU caught fire"),
    ("upstream connect error\nsecond line", "upstream connect error"),
    ('{"error": {}}', '{"error": {}}'),  # no message in it: the text as it is
    ("", ""),
])
def test_server_words_are_the_message_the_server_wrote(raw, words):
    assert server_words(raw) == words


def test_server_words_never_parse_a_monster():
    deep = "[" * 100_000 + "]" * 100_000
    assert server_words(deep).startswith("[[[")
    nested = '{"error": ' * 50 + '"x"' + "}" * 50
    assert server_words(nested) in ("", nested)  # too deep to search: never a crash


class _Response:
    def __init__(self, status: int) -> None:
        self.status_code = status


class _Error(Exception):
    def __init__(self, status: int | None) -> None:
        super().__init__("x")
        self.response = _Response(status) if status else None


def test_the_answered_status_is_the_innermost_response():
    outer = _Error(500)  # litellm's own, made up
    try:
        try:
            raise _Error(503)  # what the server sent
        except _Error as inner:
            raise outer from inner
    except _Error as exc:
        assert answered_status(exc) == 503
    try:
        try:
            raise ConnectionRefusedError(111, "refused")
        except OSError as inner:
            raise _Error(500) from inner
    except _Error as exc:
        assert answered_status(exc) is None  # no answer: a made-up 500 is not one
