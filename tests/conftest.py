"""Shared fixtures: an isolated home for every test, a local fake arXiv, a CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from support.fakearxiv import FakeArxiv, closed_port
from support.fakeenrich import FakeEnrich

TESTS = Path(__file__).parent
FEEDS = TESTS / "fixtures" / "feeds"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """No test touches a real home, a real config or arXiv itself.

    PAPERTERM_HOME and PAPERTERM_CONFIG point into tmp_path; the arXiv URLs point to a closed
    local port (a test that wants a server uses `fake_arxiv`); the arXiv pacer is made fast.
    """
    home = tmp_path / "home"
    config = tmp_path / "config" / "config.toml"
    monkeypatch.setenv("PAPERTERM_HOME", str(home))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    dead = closed_port()
    monkeypatch.setenv("PAPERTERM_RSS_URL", f"http://127.0.0.1:{dead}/rss/{{cats}}")
    monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", f"http://127.0.0.1:{dead}/api/query?{{}}")
    monkeypatch.setenv("PAPERTERM_HF_ENDPOINT", f"http://127.0.0.1:{dead}")
    monkeypatch.setenv("PAPERTERM_S2_API_URL", f"http://127.0.0.1:{dead}")
    for var in ("PAPERTERM_TODAY", "PAPERTERM_DEBUG", "S2_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    from paperterm.sources import http

    monkeypatch.setattr(http.pacer, "interval", 0.01)
    return SimpleNamespace(home=home, config=config, db=home / "paperterm.sqlite3")


@pytest.fixture
def store(isolated_home: SimpleNamespace):  # -> Iterator[Store]
    """The isolated home's database, open (a test module may define its own, filled)."""
    from paperterm.store import Store

    s = Store.open(isolated_home.db)
    yield s
    s.close()


@pytest.fixture
def fake_arxiv(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeArxiv]:
    """A fake rss.arxiv.org and export.arxiv.org on 127.0.0.1, wired in through the env."""
    fake = FakeArxiv()
    monkeypatch.setenv("PAPERTERM_RSS_URL", fake.rss_url)
    monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", fake.api_url)
    try:
        yield fake
    finally:
        fake.close()


@pytest.fixture
def fake_enrich(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeEnrich]:
    """Fake Hugging Face daily papers and Semantic Scholar on 127.0.0.1, wired in through
    the env."""
    with FakeEnrich() as fake:
        monkeypatch.setenv("PAPERTERM_HF_ENDPOINT", fake.url)
        monkeypatch.setenv("PAPERTERM_S2_API_URL", fake.url)
        yield fake


# -- the command line, in-process ---------------------------------------------------------


@pytest.fixture
def cli(isolated_home: SimpleNamespace, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Run `paperterm ARGS` in this process through `paperterm.cli.main(argv)`.

    Returns a CompletedProcess-like result (returncode, stdout, stderr); argparse's exits
    become return codes. `env` entries are set for the call's duration.
    """
    from paperterm.cli import main

    def run(*args: str, env: dict[str, str] | None = None,
            ) -> subprocess.CompletedProcess[str]:
        with monkeypatch.context() as m:
            for key, value in (env or {}).items():
                m.setenv(key, value)
            m.chdir(isolated_home.home.parent)
            capsys.readouterr()
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            out, err = capsys.readouterr()
        return subprocess.CompletedProcess(list(args), code, out, err)

    return run


# -- the command line in a subprocess -------------------------------------------------------


@pytest.fixture
def run_cli(isolated_home: SimpleNamespace):  # type: ignore[no-untyped-def]
    """Run `python -m paperterm ARGS` with the test's (isolated) environment.

    `python_args` go before `-m`; `script` runs `python -c SCRIPT ARGS` instead.
    """

    def run(*args: str, env: dict[str, str] | None = None, timeout: float = 30,
            python_args: tuple[str, ...] = (), script: str | None = None,
            ) -> subprocess.CompletedProcess[str]:
        full_env = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
        full_env.pop("PAPERTERM_DEBUG", None)
        target = ["-c", script] if script is not None else ["-m", "paperterm"]
        return subprocess.run(
            [sys.executable, *python_args, *target, *args],
            capture_output=True, text=True, env=full_env, timeout=timeout,
            cwd=isolated_home.home.parent,
        )

    return run
