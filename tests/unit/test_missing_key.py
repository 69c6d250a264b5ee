"""A missing API key is reported before litellm is imported (issue 10, item 11)."""

from __future__ import annotations

from pathlib import Path

from paperterm.scoring.apikeys import key_stop
from paperterm.scoring.halt import Halt


def test_key_stop_for_known_hosted_providers():
    stop = key_stop("openai/gpt-4o-mini", "", {})
    assert stop is not None and stop.halt is Halt.MISSING_KEY
    assert "OPENAI_API_KEY is not set" in stop.text
    assert key_stop("openai/gpt-4o-mini", "", {"OPENAI_API_KEY": "sk-x"}) is None
    assert key_stop("openrouter/x/y", "", {"OR_API_KEY": "k"}) is None
    assert "ANTHROPIC_API_KEY" in key_stop("anthropic/claude", "", {"OPENAI_API_KEY": "k"}).text
    # a local server, an unknown provider or a bare name: litellm decides later
    assert key_stop("openai/local", "http://127.0.0.1:8080/v1", {}) is None
    assert key_stop("ollama/llama3", "", {}) is None
    assert key_stop("gpt-4o-mini", "", {}) is None
    assert key_stop("openai/gpt-4o-mini", "", {}, extra={"api_key": "sk-x"}) is None


SCRIPT = """
import sys
from paperterm.cli import main
code = main(sys.argv[1:])
print("LITELLM-IMPORTED" if "litellm" in sys.modules else "LITELLM-NOT-IMPORTED")
sys.exit(code)
"""


def test_score_without_the_key_stops_before_importing_litellm(run_cli):
    import os

    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    env["OPENAI_API_KEY"] = ""
    result = run_cli("score", "--sample", "--model", "openai/gpt-4o-mini", script=SCRIPT,
                     env=env)
    assert result.returncode != 0
    assert "OPENAI_API_KEY is not set" in result.stderr
    assert "LITELLM-NOT-IMPORTED" in result.stdout, result.stdout
    assert "Traceback" not in result.stderr


def test_score_rescore_asks_the_model_again(cli, llm, tmp_path):
    """Issue 10, item 11: a forced rescore exists (`score --rescore`): cached scores are
    not used, the model is asked again and its answers replace them."""
    feed = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"
    args = ("score", "--feed", str(feed), "--topic", "moe", "--model", "openai/gpt-4o-mini",
            "--api-base", llm.url, "--batch-size", "50", "--json")
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    asked = llm.count
    assert asked > 0
    again = cli(*args)
    assert llm.count == asked  # all cached
    assert '"status": "cached"' in again.stdout and '"status": "scored"' not in again.stdout
    forced = cli(*args, "--rescore")
    assert forced.returncode == 0, forced.stderr
    assert llm.count == 2 * asked
    assert '"status": "scored"' in forced.stdout and '"status": "cached"' not in forced.stdout
