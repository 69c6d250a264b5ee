"""Every provider as documented (issue 13, items 4 and 8): `paperterm score` through litellm
over real HTTP to local servers speaking each provider's own API (OpenAI chat completions,
OpenRouter, Anthropic Messages, Gemini generateContent, Ollama /api/chat and /api/generate,
Azure deployments); Azure's and Ollama's setup; the server's own words for a 5xx."""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support import wires
from support.fakellm import Behaviour, FakeLLM, expected_scores
from support.sample import cut_feed
from support.scoring_runs import Collector, run

from paperterm.scoring.policy import server_problem
from paperterm.scoring.provider import Provider, aclose_llm_clients
from paperterm.scoring.task import RESPONSE_SCHEMA
from paperterm.settings import ScoringSettings
from paperterm.sources.feeds import parse_feed

N_PAPERS = 6
RUBRIC = "9-10 a radically new direction"  # a phrase of the system message's rubric

pytestmark = pytest.mark.usefixtures("litellm_loaded")


@dataclass(frozen=True)
class Case:
    """One provider: the model, the wire its server speaks, its environment, the header
    that must carry its key, and where in the request the reply cap goes."""

    model: str
    wire: wires.Wire
    env: dict[str, str] = field(default_factory=dict)
    auth: tuple[str, str] | None = None
    path: str = ""
    cap: tuple[str, ...] = ("max_tokens",)
    at_root: bool = True  # api_base is the server's root, not .../v1


CASES = [
    Case("openai/gpt-4o-mini", wires.OPENAI, {"OPENAI_API_KEY": "sk-openai-test"},
         ("authorization", "Bearer sk-openai-test"), "/v1/chat/completions", at_root=False),
    Case("openrouter/openai/gpt-4o-mini", wires.OPENAI, {"OPENROUTER_API_KEY": "sk-or-test"},
         ("authorization", "Bearer sk-or-test"), "/v1/chat/completions", at_root=False),
    Case("anthropic/claude-3-5-haiku-20241022", wires.ANTHROPIC,
         {"ANTHROPIC_API_KEY": "sk-ant-test"}, ("x-api-key", "sk-ant-test"), "/v1/messages"),
    Case("gemini/gemini-2.5-flash", wires.GEMINI, {"GEMINI_API_KEY": "gemini-test"},
         ("x-goog-api-key", "gemini-test"), "/models/gemini-2.5-flash:generateContent",
         ("generationConfig", "max_output_tokens")),
    Case("ollama_chat/llama3.1", wires.OLLAMA_CHAT, {}, None, "/api/chat",
         ("options", "num_predict")),
    Case("ollama/llama3.1", wires.OLLAMA_GENERATE, {}, None, "/api/generate",
         ("options", "num_predict")),
    Case("azure/paperterm-gpt4o", wires.AZURE,
         {"AZURE_API_KEY": "azure-test", "AZURE_API_VERSION": "2024-10-21"},
         ("api-key", "azure-test"),
         "/openai/deployments/paperterm-gpt4o/chat/completions?api-version=2024-10-21"),
]

PROVIDER_VARS = ("OPENAI_API_KEY", "OPENROUTER_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY",
                 "GOOGLE_API_KEY", "AZURE_API_KEY", "AZURE_API_VERSION", "AZURE_API_BASE",
                 "OLLAMA_API_BASE")


@pytest.fixture(autouse=True)
def no_provider_env(monkeypatch):
    for var in PROVIDER_VARS:
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def feed(tmp_path_factory) -> Path:
    """The sample day cut to its first N_PAPERS items."""
    return cut_feed(tmp_path_factory.mktemp("feed") / "small.xml", N_PAPERS)


def base_of(llm: FakeLLM, case: Case) -> str:
    return llm.root if case.at_root else llm.url


def dig(body: dict, keys: tuple[str, ...]):  # type: ignore[no-untyped-def]
    for key in keys:
        body = body[key]
    return body


def scored_rows(stdout: str) -> dict[str, dict]:
    rows = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    return {r["id"]: r for r in rows}


@pytest.mark.parametrize("case", CASES, ids=[c.model.split("/")[0] for c in CASES])
def test_paperterm_score_speaks_each_providers_api(cli, feed, case):
    with FakeLLM(wire=case.wire) as llm:
        r = cli("score", "--json", "--feed", str(feed), "--model", case.model,
                "--api-base", base_of(llm, case), "--batch-size", "3", env=case.env)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = scored_rows(r.stdout)
    assert len(rows) == N_PAPERS
    for pid, row in rows.items():
        assert row["status"] == "scored", row
        assert (row["relevance"], row["novelty"]) == expected_scores(pid)
    assert llm.count == 2 and set(llm.paths) == {case.path}
    for sent, chat, headers in zip(llm.wire_requests, llm.requests, llm.headers, strict=True):
        if case.auth is not None:
            assert headers.get(case.auth[0]) == case.auth[1]
        cap = dig(sent, case.cap)
        assert isinstance(cap, int) and cap > 0  # every request caps its reply
        assert RUBRIC in "\n".join(m["content"] for m in chat["messages"])


def test_azure_needs_only_api_base_key_and_version(cli, feed):
    """Azure with --api-base, AZURE_API_KEY and AZURE_API_VERSION: no AZURE_API_BASE is
    asked for, and only a variable really unset is named."""
    case = CASES[-1]
    with FakeLLM(wire=wires.AZURE) as llm:
        args = ("score", "--json", "--feed", str(feed), "--model", case.model,
                "--api-base", llm.root)
        missing = cli(*args, env={"AZURE_API_KEY": "azure-test"})
        assert llm.count == 0
        r = cli(*args, env=case.env)
    assert "AZURE_API_VERSION is not set" in missing.stderr, missing.stderr
    assert "AZURE_API_KEY" not in missing.stderr and "AZURE_API_BASE" not in missing.stderr
    assert r.returncode == 0, r.stderr
    assert llm.paths[0].endswith("?api-version=2024-10-21")


async def test_doctor_finds_azures_variables_and_ollamas_default_address(cli):
    with FakeLLM(wire=wires.AZURE) as llm:
        r = cli("doctor", "--model", "azure/paperterm-gpt4o", "--api-base", llm.root,
                "--no-request", env=CASES[-1].env)
    key = next(line for line in r.stdout.splitlines() if "API key" in line)
    assert key.lstrip().startswith("ok") and "not set" not in r.stdout, r.stdout
    if port_taken(OLLAMA_PORT):
        return
    r = cli("doctor", "--model", "ollama/llama3.1", "--no-request")
    assert "OLLAMA_API_BASE is not set" not in r.stdout
    assert f"cannot connect to {OLLAMA_DEFAULT_BASE}" in r.stdout, r.stdout


async def test_openrouter_uses_the_cost_its_reply_reports(feed, topic, db, monkeypatch):
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-test")
    papers = parse_feed(feed.read_bytes()).papers
    with FakeLLM(Behaviour(cost=0.0125)) as llm:
        settings = ScoringSettings(model="openrouter/anthropic/claude-3.5-haiku",
                                   api_base=llm.url, batch_size=3, timeout=10.0)
        c = Collector()
        summary = await run(papers, topic, settings, db, c)
    assert summary.scored == N_PAPERS and summary.requests == 2
    assert summary.cost == pytest.approx(0.025)  # what OpenRouter billed, though unpriced
    assert all(body.get("usage") == {"include": True} for body in llm.wire_requests)


# -- Ollama without --api-base ------------------------------------------------------------


def port_taken(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


OLLAMA_DEFAULT_BASE = "http://localhost:11434"  # as documented
OLLAMA_PORT = 11434


def test_ollama_without_api_base_tries_localhost_11434(cli, feed):
    llm = FakeLLM(wire=wires.OLLAMA_CHAT, port=OLLAMA_PORT)
    try:
        llm.start()
    except OSError:
        pytest.skip(f"something already listens on port {OLLAMA_PORT}")
    try:
        r = cli("score", "--json", "--feed", str(feed), "--model", "ollama_chat/llama3.1",
                "--batch-size", "3")
    finally:
        llm.stop()
    assert r.returncode == 0, r.stderr
    assert llm.count == 2 and set(llm.paths) == {"/api/chat"}
    assert {row["status"] for row in scored_rows(r.stdout).values()} == {"scored"}


def test_ollama_without_api_base_says_where_it_looked(cli, feed):
    if port_taken(OLLAMA_PORT):
        pytest.skip(f"something already listens on port {OLLAMA_PORT}")
    r = cli("score", "--feed", str(feed), "--model", "ollama/llama3.1")
    assert r.returncode != 0
    message = r.stderr.strip().splitlines()[-1]
    assert f"cannot connect to {OLLAMA_DEFAULT_BASE} (ollama's default address; set " \
           "--api-base or OLLAMA_API_BASE for another)" in message, r.stderr
    assert "OLLAMA_API_BASE is not set" not in r.stderr


def test_ollama_api_base_from_the_environment(cli, feed):
    with FakeLLM(wire=wires.OLLAMA_GENERATE) as llm:
        r = cli("score", "--json", "--feed", str(feed), "--model", "ollama/llama3.1",
                "--batch-size", "3", env={"OLLAMA_API_BASE": llm.root})
    assert r.returncode == 0, r.stderr
    assert llm.count == 2


# -- the server's own words for a 5xx -----------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c.model.split("/")[0] for c in CASES])
async def test_a_5xx_reads_in_the_servers_own_words(monkeypatch, case):
    for var, value in case.env.items():
        monkeypatch.setenv(var, value)
    with FakeLLM(Behaviour(status=500, error_message="the GPU caught fire"),
                 wire=case.wire) as llm:
        provider = Provider(case.model, base_of(llm, case), timeout=10.0)
        try:
            assert await provider.setup() is None
            with pytest.raises(Exception) as info:
                await provider.send([{"role": "user", "content": "hi"}],
                                    provider.response_format(RESPONSE_SCHEMA), 50)
        finally:
            await aclose_llm_clients()
    failure = provider.classify(info.value)
    assert (failure.status, failure.detail) == (500, "the GPU caught fire")
    assert server_problem(failure) == "server error (HTTP 500: the GPU caught fire)"


@pytest.mark.parametrize(("status", "body", "words"), [
    (503, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
     "overloaded (HTTP 503: Overloaded)"),
    (502, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
          "<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n",
     "server error (HTTP 502: 502 Bad Gateway)"),
    (500, "upstream connect error or disconnect/reset before headers",
     "server error (HTTP 500: upstream connect error or disconnect/reset before headers)"),
], ids=["json-503", "html-502", "text-500"])
@pytest.mark.parametrize("case", [CASES[2], CASES[3]], ids=["anthropic", "gemini"])
async def test_a_gateways_5xx_is_a_server_error_with_its_status(monkeypatch, case, status,
                                                                body, words):
    """litellm reports Anthropic's 503 as 500 and Gemini's 502 page as a connection
    error: the status and words are the server's, and neither reads "cannot connect"."""
    for var, value in case.env.items():
        monkeypatch.setenv(var, value)
    with FakeLLM(Behaviour(status=status, raw_body=body), wire=case.wire) as llm:
        provider = Provider(case.model, base_of(llm, case), timeout=10.0)
        try:
            assert await provider.setup() is None
            with pytest.raises(Exception) as info:
                await provider.send([{"role": "user", "content": "hi"}], None, 50)
        finally:
            await aclose_llm_clients()
    failure = provider.classify(info.value)
    assert failure.kind.value == "server"
    assert server_problem(failure) == words


def test_paperterm_score_shows_a_5xx_in_the_servers_words(cli, feed):
    """Through `paperterm score`: Gemini's 500, which litellm words as "GeminiException
    InternalServerError - {json}", reads as the server's message in every paper's reason."""
    case = CASES[3]
    with FakeLLM(Behaviour(status=500, error_message="the TPU caught fire"),
                 wire=case.wire) as llm:
        r = cli("score", "--json", "--feed", str(feed), "--model", case.model,
                "--api-base", base_of(llm, case), "--batch-size", str(N_PAPERS), env=case.env)
    assert r.returncode == 4, r.stderr  # finished; the papers are left unscored
    attempts = llm.count
    assert {row["error"] for row in scored_rows(r.stdout).values()} == {
        f"server error (HTTP 500: the TPU caught fire) after {attempts} attempts"}
