"""The real litellm proxy (`litellm[proxy]`) in front of a provider (issue 13, item 8):
`paperterm score --model litellm_proxy/<name>` talks to the proxy on 127.0.0.1, which
forwards to a local server speaking Anthropic's Messages API with its own key.

litellm's proxy extra pins rich below 14, which textual (rich >= 14.2) excludes, so the
proxy cannot live in paperterm's environment: it runs from its own, named by
PAPERTERM_LITELLM_PROXY (the `litellm` script of a venv with `litellm[proxy]`; .ci/run
makes one). Without it, or with the proxy's packages importable here, the test says why.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import wires
from support.fakellm import Behaviour, FakeLLM, expected_scores
from support.sample import cut_feed

from paperterm.io.env import env
from paperterm.scoring.policy import MAX_RETRIES

pytestmark = pytest.mark.slow  # the proxy takes 10-30 s to start

MASTER_KEY = "sk-proxy-master-test"
UPSTREAM_KEY = "sk-ant-upstream-test"
UPSTREAM_MODEL = "anthropic/claude-3-5-haiku-20241022"
MODEL = "litellm_proxy/claude-behind-proxy"
N_PAPERS = 6
START_TIMEOUT = 180.0


def proxy_command() -> list[str]:
    given = env("PAPERTERM_LITELLM_PROXY")
    if given:
        if not Path(given).is_file():
            pytest.fail(f"PAPERTERM_LITELLM_PROXY={given} is not a file")
        return [given]
    here = Path(sys.executable).parent / "litellm"
    if here.is_file() and all(importlib.util.find_spec(m) for m in ("fastapi", "uvicorn",
                                                                     "backoff")):
        return [str(here)]
    pytest.skip("the litellm proxy is not installed: litellm[proxy] pins rich<14, which "
                "textual (rich>=14.2) excludes, so it needs its own venv: "
                "`python -m venv V && V/bin/pip install 'litellm[proxy]==<litellm version>'` "
                "and PAPERTERM_LITELLM_PROXY=V/bin/litellm")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Proxy:
    url: str
    upstream: FakeLLM
    log: Path


def wait_until_alive(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/health/liveliness", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        try:  # waits for the process to die, or 0.25 s
            proc.wait(timeout=0.25)
        except subprocess.TimeoutExpired:
            continue
        pytest.fail(f"the litellm proxy exited ({proc.returncode}):\n"
                    + log.read_text(errors="replace")[-3000:])
    pytest.fail(f"the litellm proxy did not answer within {START_TIMEOUT:.0f} s:\n"
                + log.read_text(errors="replace")[-3000:])


@pytest.fixture(scope="module")
def proxy(tmp_path_factory) -> Iterator[Proxy]:
    command = proxy_command()
    root = tmp_path_factory.mktemp("proxy")
    with FakeLLM(wire=wires.ANTHROPIC) as upstream:
        config = root / "config.yaml"
        config.write_text(json.dumps({  # JSON is YAML
            "model_list": [{"model_name": MODEL.split("/", 1)[1],
                            "litellm_params": {"model": UPSTREAM_MODEL,
                                               "api_base": upstream.root,
                                               "api_key": UPSTREAM_KEY}}],
            "litellm_settings": {"drop_params": True, "num_retries": 0},
            "general_settings": {"master_key": MASTER_KEY},
        }))
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        env.update(LITELLM_LOCAL_MODEL_COST_MAP="True", LITELLM_TELEMETRY="False",
                   NO_DOCS="True")
        env.pop("DATABASE_URL", None)
        log = root / "proxy.log"
        with log.open("wb") as out:
            proc = subprocess.Popen([*command, "--config", str(config), "--host", "127.0.0.1",
                                     "--port", str(port)], stdout=out,
                                    stderr=subprocess.STDOUT, env=env, cwd=root)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_alive(proc, url, log)
            yield Proxy(url, upstream, log)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def feed(tmp_path: Path) -> Path:
    return cut_feed(tmp_path / "small.xml", N_PAPERS)


def test_scoring_through_the_litellm_proxy(cli, proxy, feed, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    before = proxy.upstream.count
    r = cli("score", "--json", "--feed", str(feed), "--model", MODEL, "--api-base",
            proxy.url, "--batch-size", "3", env={"LITELLM_PROXY_API_KEY": MASTER_KEY})
    assert r.returncode == 0, r.stderr + proxy.log.read_text(errors="replace")[-2000:]
    rows = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    assert len(rows) == N_PAPERS
    for row in rows:
        assert row["status"] == "scored", row
        assert (row["relevance"], row["novelty"]) == expected_scores(row["id"])
    # the proxy spoke Anthropic's API upstream, with its own key, never the client's
    assert proxy.upstream.count - before == 2
    assert set(proxy.upstream.paths[before:]) == {"/v1/messages"}
    for headers in proxy.upstream.headers[before:]:
        assert headers.get("x-api-key") == UPSTREAM_KEY
        assert MASTER_KEY not in json.dumps(headers)
    for body in proxy.upstream.wire_requests[before:]:
        assert body["system"] and isinstance(body["max_tokens"], int)


def test_a_providers_5xx_reaches_the_user_in_its_own_words(cli, proxy, feed):
    """The proxy relays Anthropic's 500 wrapped in its own error JSON and litellm's words:
    what the user reads is the provider's message, once per attempt, no more."""
    before = proxy.upstream.count
    attempts = MAX_RETRIES + 1
    proxy.upstream.push(*[Behaviour(status=500, error_message="the GPU caught fire")]
                        * attempts)
    r = cli("score", "--json", "--feed", str(feed), "--model", MODEL, "--api-base",
            proxy.url, "--batch-size", str(N_PAPERS), env={"LITELLM_PROXY_API_KEY": MASTER_KEY})
    assert r.returncode == 4, r.stderr  # finished, papers left unscored
    rows = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    assert {row["error"] for row in rows} == {
        f"server error (HTTP 500: the GPU caught fire) after {attempts} attempts"}
    assert proxy.upstream.count - before == attempts
