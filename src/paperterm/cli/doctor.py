"""`paperterm doctor`: is everything paperterm needs in order? Config, data dir, database,
whether arXiv answers, the model (provider, key presence, reachability, one tiny test
request with its cost), the terminal's colours and the clipboard. Every problem comes with
its fix; the exit code is 1 when something is broken (warnings alone exit 0). A key's value
is never printed.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from paperterm.cli.errors import EXIT_ERROR, EXIT_OK
from paperterm.cli.options import Options
from paperterm.io.clipboard import osc52_support, system_tool, tmux_set_clipboard
from paperterm.settings import ScoringSettings, paths
from paperterm.settings.config import Config, ConfigError, load_config

Level = Literal["ok", "info", "warn", "FAIL"]
TEST_PROMPT = "Reply with the single word: ok"
REACH_TIMEOUT = 5.0  # seconds: reaching the model's server, arXiv
REQUEST_TIMEOUT = 30.0


@dataclass
class Finding:
    level: Level
    what: str
    detail: str
    fix: str = ""


class Report:
    """Findings, printed as they come (a slow check never hides the ones before it)."""

    def __init__(self, out: Callable[[str], None]) -> None:
        self.out = out
        self.findings: list[Finding] = []

    def add(self, level: Level, what: str, detail: str, fix: str = "") -> Finding:
        finding = Finding(level, what, detail, fix)
        self.findings.append(finding)
        self.out(f"  {level:<5} {what:<12} {detail}")
        if fix:
            self.out(f"  {'':<5} {'':<12} fix: {fix}")
        return finding

    @property
    def failures(self) -> int:
        return sum(1 for f in self.findings if f.level == "FAIL")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.level == "warn")


def run(opts: Options) -> int:
    report = Report(lambda line: print(line, flush=True))
    print("paperterm doctor")
    config = check_config(report, opts)
    data_ok = check_data_dir(report)
    if data_ok:
        check_database(report)
    check_arxiv(report, config or Config(), opts)
    settings = (config or Config()).scoring.with_overrides(**opts.scoring)
    check_model(report, settings, request=not opts.no_request)
    check_terminal(report)
    check_clipboard(report)
    problems, warnings = report.failures, report.warnings
    if problems:
        print(f"{problems} problem{'s' if problems != 1 else ''} found"
              + (f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else "")
              + ": see the fixes above.")
        return EXIT_ERROR
    print("All good." if not warnings else
          f"No problems; {warnings} warning{'s' if warnings != 1 else ''} above.")
    return EXIT_OK


# -- files -------------------------------------------------------------------------------


def check_config(report: Report, opts: Options) -> Config | None:
    path = paths.config_file(opts.config)
    try:
        config = load_config(opts.config)
    except ConfigError as exc:
        report.add("FAIL", "config", str(exc),
                   f"edit {path} as the message says, or move it away and run "
                   "`paperterm config --init` for a commented starter file")
        return None
    if config.path is None:
        report.add("ok", "config", f"no file at {path}: defaults apply")
        report.add("info", "", "`paperterm config --init` writes a commented starter config")
    else:
        report.add("ok", "config", str(path))
    if config.keys:
        from paperterm.cli.reader import key_problems

        for problem in key_problems(dict(config.keys)):
            report.add("warn", "keys", problem, f"change [keys] in {path}")
    return config


def check_data_dir(report: Report) -> bool:
    folder = paths.data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True):
            pass
    except OSError as exc:
        report.add("FAIL", "data dir", f"{folder}: not writable ({exc.strerror or exc})",
                   "make the folder writable, or set PAPERTERM_HOME to a writable folder")
        return False
    free = shutil.disk_usage(folder).free
    if free < 50 * 2**20:
        report.add("warn", "data dir", f"{folder}: only {free // 2**20} MB free",
                   "free some disk space: the cache grows by about 1 MB per day of papers")
    else:
        report.add("ok", "data dir", str(folder))
    return True


def check_database(report: Report) -> None:
    from paperterm.services.storage import SCHEMA_VERSION, Store, StoreError

    path = paths.database_file()
    try:
        store = Store.open(path)
    except StoreError as exc:
        report.add("FAIL", "database", str(exc),
                   f"move {path} away (paperterm then starts a new cache), or upgrade "
                   "paperterm if a newer version wrote it")
        return
    try:
        if store.notice:
            report.add("warn", "database", store.notice,
                       "nothing to do: a fresh cache was started; the old file was kept "
                       "under the name shown")
        health = store.health.health()
    except Exception as exc:
        report.add("FAIL", "database", f"{path}: {type(exc).__name__}: {exc}",
                   f"move {path} away: paperterm then starts a new cache")
        return
    finally:
        store.close()
    if health.check != "ok":
        report.add("FAIL", "database", f"{path}: integrity check failed ({health.check})",
                   f"move {path} away: paperterm then starts a new cache")
        return
    report.add("ok", "database", f"{path} (schema {health.schema_version}/{SCHEMA_VERSION}, "
                                 f"{health.papers:,} papers, {health.days:,} days)")


# -- the model ---------------------------------------------------------------------------


def check_model(report: Report, settings: ScoringSettings, *, request: bool) -> None:
    if not settings.model:
        report.add("info", "model", "none set: papers are ranked offline by the local ranking",
                   "for LLM scoring and summaries set --model (e.g. openai/gpt-4o-mini) or "
                   "config `model`")
        return
    if settings.scorer == "local":
        report.add("info", "scorer", "scorer = local: scoring stays offline; "
                                     "summaries still use the model")
    from paperterm.services.diagnostics import Provider, describe, import_litellm

    litellm = import_litellm()
    base = settings.api_base or None
    try:
        _, provider, _, _ = litellm.get_llm_provider(model=settings.model, api_base=base)
    except Exception as exc:
        report.add("FAIL", "model", f"unknown model or provider '{settings.model}': "
                                    f"{describe(exc)}",
                   "write it as provider/model, e.g. openai/gpt-4o-mini, "
                   "anthropic/claude-3-5-haiku-latest, ollama/llama3.1")
        return
    report.add("ok", "model", f"{settings.model} (provider {provider})")
    if not check_key(report, litellm, settings):
        return
    from paperterm.services.diagnostics import default_api_base

    address = settings.api_base or default_api_base(provider)  # Ollama: localhost:11434
    if address and not check_reachable(report, address):
        return
    if not request:
        report.add("info", "test request", "skipped (--no-request)")
        return
    test_request(report, Provider(settings.model, settings.api_base,
                                  min(settings.timeout, REQUEST_TIMEOUT)))


def check_key(report: Report, litellm: object, settings: ScoringSettings) -> bool:
    """Whether the provider's key variables are set: names only, never values."""
    from paperterm.services.diagnostics import missing_keys

    missing = missing_keys(litellm, settings.model, settings.api_base)
    if missing:
        names = " or ".join(missing)
        report.add("FAIL", "API key", f"{names} is not set",
                   f"export {missing[0]}=<your key> (paperterm reads keys only from the "
                   "environment)" + (" ; a local server takes any dummy value"
                                     if settings.api_base else ""))
        return False
    present = [v for v in _key_vars(settings.model) if os.environ.get(v)]
    report.add("ok", "API key", f"{', '.join(present)} is set (value not shown)" if present
               else "no key needed, or found where litellm looks for it")
    return True


def _key_vars(model: str) -> list[str]:
    from paperterm.services.diagnostics import KEY_VARS

    provider = model.split("/", 1)[0]
    var = KEY_VARS.get(provider)
    return [var] if var else []


def check_reachable(report: Report, api_base: str) -> bool:
    """Any HTTP answer from `api_base` means the server is there."""
    from paperterm.io.redact import redact, redact_url, url_secrets

    shown = redact_url(api_base)
    status = _answer_status(api_base, "the model's server")
    if isinstance(status, str):
        report.add("FAIL", "reachable",
                   f"cannot connect to {shown}: {redact(status, url_secrets(api_base))}",
                   "start the server, or fix --api-base / config `api_base` "
                   "(e.g. http://localhost:11434 for Ollama, http://HOST:PORT/v1 for an "
                   "OpenAI-compatible server)")
        return False
    code, took = status
    report.add("ok", "reachable", f"{shown} answers (HTTP {code}, {took:.2f} s)")
    return True


def _answer_status(url: str, what: str) -> tuple[int, float] | str:
    """(HTTP status, seconds) of a GET of `url` within REACH_TIMEOUT (an error status is an
    answer too), else why not, in one line."""
    import http.client

    from paperterm.io import httpio, limits
    from paperterm.io.redact import split_credentials

    bare, auth = split_credentials(url)  # urllib would take `user:pass@` for the host
    started = time.monotonic()
    try:
        code = httpio.request(bare, what=what, deadline=REACH_TIMEOUT,
                              headers={"Authorization": auth} if auth else {}).status
    except httpio.HttpFailure as exc:
        code = exc.answer.status
    except (limits.InputTooSlow, limits.InputTooLarge) as exc:
        return str(exc)
    except (OSError, ValueError, http.client.HTTPException) as exc:
        return httpio.one_line(exc) or type(exc).__name__
    return code, time.monotonic() - started


def check_arxiv(report: Report, config: Config, opts: Options) -> None:
    """Whether arXiv's RSS feed (the configured address) answers with a feed, within
    REACH_TIMEOUT; one line. Not reaching it is a warning: the reader works from the
    cache meanwhile."""
    from paperterm.io.redact import redact_url, redact_urls
    from paperterm.services.days import arxiv_feed, arxiv_feed_url

    categories = opts.category_list or list(config.categories)
    shown = "the arXiv RSS feed"
    started = time.monotonic()
    try:
        shown = redact_url(arxiv_feed_url(categories))
        papers = arxiv_feed(categories, timeout=REACH_TIMEOUT, retries=0)
    except Exception as exc:  # http.NetworkError, a bad PAPERTERM_RSS_URL
        report.add("warn", "arXiv", f"{shown}: {redact_urls(' '.join(str(exc).split()))}",
                   "check the network (paperterm shows cached days meanwhile; "
                   "--offline skips arXiv)")
        return
    took = time.monotonic() - started
    report.add("ok", "arXiv", f"{shown} answers ({len(papers)} papers, {took:.2f} s)")


def test_request(report: Report, provider: object) -> None:
    """One tiny request through the same path as scoring, with what it cost."""
    import asyncio

    from paperterm.services.diagnostics import Provider, Reply, aclose_llm_clients

    assert isinstance(provider, Provider)

    async def ask() -> tuple[str | None, str, tuple[Reply, float] | None]:
        try:
            stop = await provider.setup()
            if stop is not None:
                return stop.text, stop.halt.value, None
            started = time.monotonic()
            try:
                reply = await provider.send([{"role": "user", "content": TEST_PROMPT}], None)
            except Exception as exc:
                failure = provider.classify(exc)
                status = f" (HTTP {failure.status})" if failure.status else ""
                kind = failure.kind.value
                return f"{kind.replace('_', ' ')}{status}: {failure.detail}", kind, None
            return None, "", (reply, time.monotonic() - started)
        finally:
            await aclose_llm_clients()

    error, kind, answer = asyncio.run(ask())
    if error is not None:
        report.add("FAIL", "test request", error, FIXES.get(kind, "see the message above"))
        return
    assert answer is not None  # no error: an answer
    reply, took = answer
    from paperterm.text.hygiene import clean_line

    text = clean_line(reply.text or "")
    shown = text if len(text) <= 40 else text[:39] + "…"
    cost = "price unknown" if reply.cost is None else f"${reply.cost:.6f}"
    report.add("ok", "test request",
               f"answered in {took:.1f} s: {shown!r} ({reply.prompt_tokens} + "
               f"{reply.completion_tokens} tokens, {cost})")
    if reply.cost is None:
        report.add("info", "", "litellm has no price for this model: costs show as unknown "
                               "and --budget cannot be enforced")


FIXES = {
    "auth": "check the API key in the provider's environment variable",
    "missing_key": "export the API key variable named above",
    "not_found": "check the model name (and the api_base path, e.g. ending in /v1)",
    "unknown_model": "write the model as provider/model, e.g. openai/gpt-4o-mini",
    "unreachable": "start the server, or fix --api-base / config `api_base`",
    "quota": "check your plan and billing with the provider",
    "rate_limit": "wait a minute and try again, or lower --rpm / --concurrency",
    "timeout": "the server is slow or stuck: try again, or raise --timeout",
    "server": "the provider has trouble: try again later",
    "bad_request": "the provider refused the request: check the model name and api_base",
}


# -- the terminal ------------------------------------------------------------------------


def check_terminal(report: Report) -> None:
    term = os.environ.get("TERM", "")
    colorterm = os.environ.get("COLORTERM", "").lower()
    tty = sys.stdout.isatty()
    if os.environ.get("NO_COLOR"):
        report.add("info", "colours", "NO_COLOR is set: the reader shows no colours",
                   "unset NO_COLOR to see the themes")
        return
    if not term or term == "dumb":
        report.add("warn", "colours", f"TERM={term or '(unset)'}: not a terminal the reader "
                                      "can draw in", "run paperterm in a terminal emulator "
                                                     "(TERM such as xterm-256color)")
        return
    where = "" if tty else " (output redirected: judged from TERM and COLORTERM)"
    if colorterm in ("truecolor", "24bit"):
        report.add("ok", "colours", f"truecolor (COLORTERM={colorterm}, TERM={term}){where}")
    elif "256color" in term:
        report.add("warn", "colours", f"256 colours (TERM={term}, COLORTERM unset){where}",
                   "themes are approximated: if your terminal has truecolor (most do), "
                   "export COLORTERM=truecolor")
    else:
        report.add("warn", "colours", f"8-16 colours (TERM={term}){where}",
                   "export TERM=xterm-256color and COLORTERM=truecolor if your terminal "
                   "supports them, or pick a simpler theme")


def check_clipboard(report: Report) -> None:
    """`c` copies with the OSC 52 escape, which the terminal (not a helper program) must
    honour; say where that is known to fail."""
    method = "OSC 52 escape (works locally and over SSH)"
    osc52, tool = osc52_support(os.environ), system_tool(os.environ)
    if not osc52.works and tool is not None:  # what `c` falls back to
        report.add("ok", "clipboard", f"{os.path.basename(tool[0])} (the {method}: "
                                      f"{osc52.why})")
        return
    if os.environ.get("TERM_PROGRAM") == "Apple_Terminal":
        report.add("warn", "clipboard", f"{method}: Terminal.app ignores it",
                   "use iTerm2, kitty, WezTerm or Alacritty, or `paperterm export -o -`")
        return
    if os.environ.get("TMUX"):
        setting = tmux_set_clipboard()
        if setting == "off":
            report.add("warn", "clipboard", f"{method}: tmux has set-clipboard off",
                       "tmux set -g set-clipboard on (and add it to ~/.tmux.conf)")
            return
        report.add("ok", "clipboard", f"{method}, through tmux (set-clipboard "
                                      f"{setting or 'unknown'})")
        return
    if os.environ.get("STY"):
        report.add("warn", "clipboard", f"{method}: GNU screen does not pass it on",
                   "run paperterm outside screen, or in tmux with set-clipboard on")
        return
    report.add("ok", "clipboard", method)
