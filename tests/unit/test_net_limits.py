"""Issue 21 item 7 and issue 22 polish, the network side: every HTTP call has a whole-request
deadline (a trickling webhook or Zotero connector cannot hold a run), every download and file
read is capped (a 2 GB feed, `--feed /dev/zero`), credentials never show in a printed URL,
and `doctor` checks that arXiv answers. Real local servers (tests/support), no mocks."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.fakearxiv import Reply, closed_port
from support.fakedelivery import WebhookServer
from support.fakellm import FakeLLM
from support.slowserver import HostileServer

from paperterm.io import limits
from paperterm.outputs.delivery import DigestMessage
from paperterm.outputs.delivery.mail import DeliveryError
from paperterm.outputs.delivery.webhook import post_webhook
from paperterm.outputs.zotero.connector import Connector, ZoteroError
from paperterm.sources import http, rss

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
SLACK = "/services/T0A1B2C3D/B0E4F5G6H/abcdefghijklmnopqrstuvwx"


def _message() -> DigestMessage:
    return DigestMessage(day="2026-02-25", topic="moe", model="local", total=0, picks=[])


# -- trickling servers: a whole-request deadline ------------------------------------------


def test_a_trickling_webhook_cannot_hold_a_run_past_the_deadline(monkeypatch):
    monkeypatch.setenv("PAPERTERM_HTTP_DEADLINE", "1")
    with HostileServer("trickle", interval=0.1) as server:
        started = time.monotonic()
        with pytest.raises(DeliveryError, match="did not arrive within 1 s"):
            post_webhook(_message(), server.url + "/hook", "json")
        assert time.monotonic() - started < 10  # (the server would take 200 s or more)
        assert server.requests  # it was asked, and answered a byte at a time


def test_a_trickling_zotero_connector_cannot_hold_a_run(monkeypatch):
    monkeypatch.setenv("PAPERTERM_HTTP_DEADLINE", "1")
    with HostileServer("trickle", interval=0.1) as server:
        started = time.monotonic()
        with pytest.raises(ZoteroError, match="did not arrive within 1 s"):
            Connector(server.url).collections()
        assert time.monotonic() - started < 10  # (the server would take 200 s or more)


def test_a_connection_that_never_answers_ends_at_the_deadline(monkeypatch):
    monkeypatch.setenv("PAPERTERM_HTTP_DEADLINE", "0.5")
    with HostileServer("hang") as server:
        started = time.monotonic()
        with pytest.raises(ZoteroError, match=r"within 0\.5 s"):
            Connector(server.url).collections()
        assert time.monotonic() - started < 10  # (the server never answers)


def test_a_trickling_smtp_server_cannot_hold_a_run(monkeypatch):
    from paperterm.outputs.delivery.mail import build_email, send_email
    from paperterm.settings.config import DeliveryConfig

    monkeypatch.setenv("PAPERTERM_HTTP_DEADLINE", "1")
    greeting = b"220 " + b"x" * 2000 + b"\r\n"
    with HostileServer("trickle", interval=0.1, raw=greeting) as server:
        cfg = DeliveryConfig(email_to=["me@example.org"], smtp_host="127.0.0.1",
                             smtp_port=server.port, smtp_starttls=False)
        started = time.monotonic()
        with pytest.raises(DeliveryError, match="did not arrive within 1 s"):
            send_email(build_email(_message(), cfg), cfg, None)
        assert time.monotonic() - started < 10  # (the server would take 200 s or more)


@pytest.mark.parametrize("client", ["zotero web", "hugging face"])
def test_third_party_clients_have_the_whole_request_deadline_too(monkeypatch, client):
    from datetime import date

    from paperterm.outputs.enrich.hf import fetch_hf
    from paperterm.outputs.enrich.http import EnrichError
    from paperterm.outputs.zotero.web import WebLibrary

    monkeypatch.setenv("PAPERTERM_HTTP_DEADLINE", "1")
    with HostileServer("trickle", interval=0.1) as server:
        started = time.monotonic()
        if client == "zotero web":
            with pytest.raises(ZoteroError, match="did not arrive within 1 s"):
                WebLibrary("475425", api_key="k3y", base_url=server.url).collections()
        else:
            with pytest.raises(EnrichError, match="did not arrive within 1 s"):
                fetch_hf(["2602.20191"], [date(2026, 2, 25)], endpoint=server.url)
        assert time.monotonic() - started < 10  # (the server would take 200 s or more)


# -- unbounded downloads and reads -------------------------------------------------------------


def test_a_feed_server_streaming_gigabytes_is_cut_at_the_cap(monkeypatch):
    with HostileServer("stream") as server:
        monkeypatch.setenv("PAPERTERM_RSS_URL", server.url + "/rss/{cats}")
        with pytest.raises(http.NetworkError, match="larger than 64 MB"):
            rss.fetch_rss(["cs.LG"], timeout=30)
        # the client stopped reading: the server could not push much past the cap
        assert server.sent < limits.MAX_DOWNLOAD + 32 * limits.MB


def test_feed_dev_zero_is_refused_with_one_line(cli):
    started = time.monotonic()
    r = cli("score", "--feed", "/dev/zero", "--scorer", "local")
    assert r.returncode == 2, r.stderr
    assert "larger than 64 MB" in r.stderr and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and time.monotonic() - started < 10


def test_a_file_read_is_bounded_in_time(tmp_path):
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # a writer that never writes
    try:
        started = time.monotonic()
        with pytest.raises(limits.InputTooSlow, match=r"within 0\.3 s"):
            limits.read_path(fifo, "the feed", limits.MAX_FEED_FILE, seconds=0.3)
        assert time.monotonic() - started < 10  # (the writer never writes)
    finally:
        os.close(writer)


def test_library_import_of_a_huge_stream_is_refused(cli, monkeypatch):
    monkeypatch.setattr(limits, "MAX_IMPORT_FILE", 1000)
    r = cli("library", "import", "/dev/zero")
    assert r.returncode == 2 and "larger than 1000 bytes" in r.stderr, r.stderr


# -- credentials never printed ---------------------------------------------------------------


def test_doctor_never_prints_the_credentials_of_api_base(cli, monkeypatch):
    with FakeLLM() as llm:
        base = llm.url.replace("http://", "http://alice:hunter2pass@") + "?key=topsecret99"
        r = cli("doctor", "--model", "openai/gpt-4o-mini", "--api-base", base, "--no-request",
                env={"OPENAI_API_KEY": "sk-not-shown-0123456789"})
    reach = next(ln for ln in r.stdout.splitlines() if ln[8:20].strip() == "reachable")
    assert "answers" in reach and "***@" in reach
    for secret in ("alice", "hunter2pass", "topsecret99"):
        assert secret not in r.stdout + r.stderr


def test_a_failing_webhook_never_prints_its_credentials_or_token():
    url = f"http://bob:pa55word@127.0.0.1:{closed_port()}{SLACK}"
    with pytest.raises(DeliveryError) as failed:
        post_webhook(_message(), url, "slack")
    text = str(failed.value)
    assert "cannot connect" in text
    for secret in ("bob", "pa55word", "T0A1B2C3D", "B0E4F5G6H", "abcdefghijklmnopqrstuvwx"):
        assert secret not in text


def test_a_webhook_echoing_its_path_never_prints_the_token():
    server = WebhookServer()

    def echo(handler):
        handler.send_response(404)
        body = f"no such hook: {handler.path}".encode()
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    server.server.RequestHandlerClass.do_POST = echo  # type: ignore[attr-defined]
    try:
        url = f"http://127.0.0.1:{server.server.server_address[1]}{SLACK}"
        with pytest.raises(DeliveryError) as failed:
            post_webhook(_message(), url, "slack")
    finally:
        server.close()
    text = str(failed.value)
    assert "HTTP 404" in text and "no such hook" in text
    for secret in ("T0A1B2C3D", "B0E4F5G6H", "abcdefghijklmnopqrstuvwx"):
        assert secret not in text


@pytest.mark.parametrize("url", ["ftp://carol:s3cretpw@hooks.example.org/x",
                                 "https//carol:s3cretpw@hooks.example.org/x"])
def test_an_invalid_webhook_url_in_the_config_is_refused_without_its_password(
        cli, isolated_home, url):
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text(f'[delivery]\nwebhook_url = "{url}"\n', encoding="utf-8")
    r = cli("config")
    assert r.returncode == 2 and "webhook_url" in r.stderr, r.stderr
    assert "s3cretpw" not in r.stderr and "carol" not in r.stderr


# -- doctor checks arXiv -------------------------------------------------------------------


def test_doctor_says_arxiv_answers(cli, fake_arxiv):
    fake_arxiv.route("/rss/", Reply(FEED.read_bytes()))
    r = cli("doctor")
    found = next(ln for ln in r.stdout.splitlines() if ln[8:20].strip() == "arXiv")
    assert found.startswith("  ok") and "answers (244 papers" in found
    assert [q.path for q in fake_arxiv.requests] == ["/rss/cs.LG+cs.AI"]


def test_doctor_warns_in_one_line_when_arxiv_is_unreachable(cli, monkeypatch):
    port = closed_port()
    monkeypatch.setenv("PAPERTERM_RSS_URL", f"http://127.0.0.1:{port}/rss/{{cats}}")
    started = time.monotonic()
    r = cli("doctor")
    lines = r.stdout.splitlines()
    i = next(i for i, ln in enumerate(lines) if ln[8:20].strip() == "arXiv")
    assert lines[i].startswith("  warn") and "unreachable" in lines[i]
    assert "fix:" in lines[i + 1] and r.returncode == 0
    assert time.monotonic() - started < 15


def test_a_note_from_an_endless_stdin_is_refused(run_cli, isolated_home):
    import subprocess
    import sys

    feed = str(FEED)
    assert run_cli("score", "--feed", feed, "--scorer", "local").returncode == 0
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run([sys.executable, "-m", "paperterm", "note", "2602.20191",
                               "--set", "-"], stdin=zero, capture_output=True, text=True,
                              timeout=60, cwd=isolated_home.home.parent)
    assert proc.returncode == 2 and "larger than 4 MB" in proc.stderr, proc.stderr


def test_doctor_asks_a_busy_arxiv_once(cli, fake_arxiv):
    fake_arxiv.route("/rss/", Reply(b"busy", 503, {"Retry-After": "30"}))
    started = time.monotonic()
    r = cli("doctor")
    found = next(ln for ln in r.stdout.splitlines() if ln[8:20].strip() == "arXiv")
    assert found.startswith("  warn") and "503" in found
    assert len(fake_arxiv.requests) == 1 and time.monotonic() - started < 15


def test_a_bib_file_past_its_cap_is_left_alone(cli, monkeypatch, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{a, title={A}}\n" * 200, encoding="utf-8")
    before = bib.read_bytes()
    monkeypatch.setattr(limits, "MAX_IMPORT_FILE", 1000)
    r = cli("export", "--feed", str(FEED), "--ids", "2602.20191", "--bib", str(bib))
    assert r.returncode != 0 and "larger than 1000 bytes" in r.stderr, r.stderr
    assert "nothing was written" in r.stderr and bib.read_bytes() == before
