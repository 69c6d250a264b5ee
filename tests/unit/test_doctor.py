"""`paperterm doctor` (issue 13, item 5): each check, its fix, the exit code; the test
request goes through litellm over real HTTP to the fake server, and no key is ever shown."""

from __future__ import annotations

import sqlite3

import pytest
from support.fakellm import Behaviour, FakeLLM

from paperterm.cli.doctor import TEST_PROMPT
from paperterm.store import APP_ID

SECRET = "sk-doctor-secret-0123456789"
MODEL = "openai/gpt-4o-mini"


@pytest.fixture
def llm():
    with FakeLLM() as fake:
        yield fake


@pytest.fixture(autouse=True)
def plain_terminal(monkeypatch):
    for var in ("NO_COLOR", "TMUX", "STY", "TERM_PROGRAM", "OPENAI_API_KEY", "DISPLAY",
                "WAYLAND_DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLORTERM", "truecolor")


def line(output: str, what: str) -> str:
    """The finding about `what`, with its fix line if any."""
    lines = output.splitlines()
    for i, text in enumerate(lines):
        if text[2:].split(maxsplit=1)[1:] and text[8:20].strip() == what:
            fix = lines[i + 1] if i + 1 < len(lines) and "fix:" in lines[i + 1] else ""
            return f"{text}\n{fix}".rstrip()
    raise AssertionError(f"no {what!r} line in:\n{output}")


def test_all_good_with_a_test_request_and_its_cost(cli, llm, fake_arxiv):
    from pathlib import Path

    from support.fakearxiv import Reply

    feed = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"
    fake_arxiv.route("/rss/", Reply(feed.read_bytes()))
    r = cli("doctor", "--model", MODEL, "--api-base", llm.url,
            env={"OPENAI_API_KEY": SECRET})
    assert r.returncode == 0, r.stdout
    for what in ("config", "data dir", "database", "arXiv", "model", "API key", "reachable",
                 "test request", "colours", "clipboard"):
        assert line(r.stdout, what).startswith("  ok"), what
    assert "OPENAI_API_KEY is set (value not shown)" in r.stdout
    request = line(r.stdout, "test request")
    assert "tokens, $0.0" in request
    assert llm.count == 1 and llm.requests[0]["messages"] == [
        {"role": "user", "content": TEST_PROMPT}]
    assert SECRET not in r.stdout + r.stderr and "All good." in r.stdout


def test_no_model_is_information_not_a_problem(cli):
    r = cli("doctor")
    assert r.returncode == 0
    assert line(r.stdout, "model").startswith("  info") and "--model" in r.stdout
    assert "test request" not in r.stdout


def test_a_missing_key_is_a_problem_with_its_fix_and_nothing_is_sent(cli, llm):
    r = cli("doctor", "--model", MODEL, "--api-base", llm.url)
    assert r.returncode == 1
    found = line(r.stdout, "API key")
    assert found.startswith("  FAIL") and "OPENAI_API_KEY is not set" in found
    assert "fix: export OPENAI_API_KEY=<your key>" in found
    assert llm.count == 0 and "1 problem found" in r.stdout


def test_an_unreachable_server_is_a_problem(cli):
    from support.fakearxiv import closed_port

    base = f"http://127.0.0.1:{closed_port()}/v1"
    r = cli("doctor", "--model", MODEL, "--api-base", base, env={"OPENAI_API_KEY": SECRET})
    assert r.returncode == 1
    found = line(r.stdout, "reachable")
    assert found.startswith("  FAIL") and base in found and "fix: start the server" in found
    assert "test request" not in r.stdout


def test_a_refused_key_fails_the_test_request_without_showing_it(cli, llm):
    llm.push(Behaviour(status=401, error_message=f"Incorrect API key provided: {SECRET}"))
    r = cli("doctor", "--model", MODEL, "--api-base", llm.url, env={"OPENAI_API_KEY": SECRET})
    assert r.returncode == 1
    found = line(r.stdout, "test request")
    assert found.startswith("  FAIL") and "auth (HTTP 401)" in found
    assert "fix: check the API key" in found
    assert SECRET not in r.stdout + r.stderr


def test_no_request_skips_the_test_request(cli, llm):
    r = cli("doctor", "--model", MODEL, "--api-base", llm.url, "--no-request",
            env={"OPENAI_API_KEY": SECRET})
    assert r.returncode == 0 and llm.count == 0
    assert "skipped (--no-request)" in line(r.stdout, "test request")
    assert line(r.stdout, "reachable").startswith("  ok")  # still checked: no request sent


def test_a_broken_config_is_reported_and_the_other_checks_still_run(cli, isolated_home):
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text("batch_size = 0\n")
    r = cli("doctor")
    assert r.returncode == 1
    found = line(r.stdout, "config")
    assert found.startswith("  FAIL") and "batch_size" in found and "config --init" in found
    assert line(r.stdout, "database").startswith("  ok")


def test_a_database_from_a_newer_paperterm_is_a_problem(cli, isolated_home):
    isolated_home.db.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(isolated_home.db)
    conn.execute(f"PRAGMA application_id={APP_ID}")
    conn.execute("PRAGMA user_version=999")
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    r = cli("doctor")
    assert r.returncode == 1
    found = line(r.stdout, "database")
    assert found.startswith("  FAIL") and "newer paperterm" in found and "fix:" in found
    assert isolated_home.db.exists()  # left alone


def test_a_data_dir_that_cannot_be_written_is_a_problem(cli, isolated_home, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    r = cli("doctor", env={"PAPERTERM_HOME": str(blocker / "home")})
    assert r.returncode == 1
    found = line(r.stdout, "data dir")
    assert found.startswith("  FAIL") and "PAPERTERM_HOME" in found
    assert "database" not in r.stdout


@pytest.mark.parametrize(("env", "level", "words"), [
    ({"COLORTERM": ""}, "warn", "export COLORTERM=truecolor"),
    ({"TERM": "xterm", "COLORTERM": ""}, "warn", "8-16 colours"),
    ({"TERM": "dumb"}, "warn", "TERM=dumb"),
    ({"NO_COLOR": "1"}, "info", "NO_COLOR is set"),
])
def test_terminal_colours(cli, env, level, words):
    r = cli("doctor", env=env)
    found = line(r.stdout, "colours")
    assert found.startswith(f"  {level}") and words in found
    assert r.returncode == 0  # a warning is no failure


@pytest.mark.parametrize(("env", "words"), [
    ({"TERM_PROGRAM": "Apple_Terminal"}, "Terminal.app ignores it"),
    ({"STY": "1234.pts-0.host"}, "GNU screen"),
])
def test_clipboard_warnings(cli, env, words):
    r = cli("doctor", env=env)
    found = line(r.stdout, "clipboard")
    assert found.startswith("  warn") and words in found and "fix:" in found


def test_a_remapped_key_that_displaces_another_is_named(cli, isolated_home):
    """`[keys] star = "s"` silently took `s` from sort: doctor says so, as the reader does."""
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('[keys]\nstar = "s"\n', encoding="utf-8")
    r = cli("doctor", "--no-request")
    assert line(r.stdout, "keys").startswith("  warn")
    assert "star = 's' takes 's' from sort, which now has no key" in r.stdout
