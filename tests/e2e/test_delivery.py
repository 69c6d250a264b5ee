"""`paperterm digest --send`: mailed through a real SMTP server (aiosmtpd) and posted to a
local webhook; a day is sent once per channel unless --force."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from support.fakedelivery import SMTPServer, WebhookServer

from paperterm.outputs.delivery import DigestMessage, top_picks
from paperterm.outputs.delivery.message import DISCORD_LIMIT, to_discord, to_html, to_markdown
from paperterm.scoring.types import Score
from paperterm.sources.feeds import parse_feed

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
PAPERS = parse_feed(FEED.read_bytes()).papers


@pytest.fixture
def smtp() -> Iterator[SMTPServer]:
    server = SMTPServer(user="me@example.org", password="s3cret")
    yield server
    server.close()


@pytest.fixture
def hook() -> Iterator[WebhookServer]:
    server = WebhookServer()
    yield server
    server.close()


def write_config(path: Path, smtp_port: int | None, hook_url: str | None,
                 fmt: str = "slack", starttls: bool = False) -> None:
    lines = ["[delivery]"]
    if smtp_port:
        lines += ['email_to = ["me@example.org", "lab@example.org"]',
                  'email_from = "paperterm@example.org"', 'smtp_host = "127.0.0.1"',
                  f"smtp_port = {smtp_port}", f"smtp_starttls = {str(starttls).lower()}",
                  'smtp_user = "me@example.org"', "max_papers = 5"]
    if hook_url:
        lines += [f'webhook_url = "{hook_url}"', f'webhook_format = "{fmt}"']
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


PASSWORD = {"PAPERTERM_SMTP_PASSWORD": "s3cret"}


def test_send_mails_and_posts_once_per_day_unless_forced(cli, isolated_home, smtp, hook):
    write_config(isolated_home.config, smtp.port, hook.url)
    ranked = cli("score", "--feed", str(FEED), "--topic", "moe", "--json")
    top = next(json.loads(line) for line in ranked.stdout.splitlines()
               if json.loads(line)["rank"] == 1)  # the digest's first paper
    title, url = top["title"].split(":")[0], f"https://arxiv.org/abs/{top['id']}"
    proc = cli("digest", "--feed", str(FEED), "--topic", "moe", "--send", env=PASSWORD)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""  # cron mails stdout: --send alone prints nothing there
    assert "sent: email to me@example.org, lab@example.org" in proc.stderr
    assert "sent: webhook to 127.0.0.1" in proc.stderr and "secret-token" not in proc.stderr
    [(rcpts, msg)] = smtp.received
    assert rcpts == ["me@example.org", "lab@example.org"]
    assert msg["Subject"].startswith("arXiv digest 2026-02-25 · moe · top 5 of 244")
    assert msg.get_content_type() == "multipart/alternative"
    plain = msg.get_body(("plain",)).get_content()
    html = msg.get_body(("html",)).get_content()
    assert title in plain and f"relevance {top['relevance']}/10" in plain
    assert url in plain
    assert f'<a href="{url}">' in html and "<ol>" in html
    [(path, body)] = hook.posts
    assert path == "/hooks/secret-token"
    assert f"<{url}|{title}" in body["text"]

    again = cli("digest", "--feed", str(FEED), "--topic", "moe", "--send", env=PASSWORD)
    assert again.returncode == 0, again.stderr
    assert again.stderr.count("already sent for 2026-02-25") == 2
    assert len(smtp.received) == 1 and len(hook.posts) == 1

    forced = cli("digest", "--feed", str(FEED), "--topic", "moe", "--send", "--force",
                 env=PASSWORD)
    assert forced.returncode == 0, forced.stderr
    assert len(smtp.received) == 2 and len(hook.posts) == 2
    other_topic = cli("digest", "--feed", str(FEED), "--topic", "agents", "--send",
                      env=PASSWORD)
    assert other_topic.returncode == 0 and len(smtp.received) == 3


def test_a_failed_channel_is_retried_next_time_and_the_other_is_not(cli, isolated_home, smtp,
                                                                   hook):
    write_config(isolated_home.config, smtp.port, hook.url, fmt="json")
    hook.status = 500
    first = cli("digest", "--feed", str(FEED), "--send", env=PASSWORD)
    assert first.returncode == 1
    assert "paperterm: not sent: webhook 127.0.0.1" in first.stderr and "HTTP 500" in first.stderr
    assert "Traceback" not in first.stderr and len(smtp.received) == 1
    hook.status = 200
    second = cli("digest", "--feed", str(FEED), "--send", env=PASSWORD)
    assert second.returncode == 0, second.stderr
    assert len(smtp.received) == 1 and len(hook.posts) == 2
    body = hook.posts[-1][1]
    assert body["day"] == "2026-02-25" and body["papers"][0]["url"].startswith("https://arxiv")
    assert {"title", "authors", "relevance", "novelty", "reason"} <= set(body["papers"][0])


def test_smtp_problems_are_one_line_and_nothing_is_recorded(cli, isolated_home, smtp):
    write_config(isolated_home.config, smtp.port, None)
    wrong = cli("digest", "--feed", str(FEED), "--send",
                env={"PAPERTERM_SMTP_PASSWORD": "wrong"})
    assert wrong.returncode == 1 and "login refused" in wrong.stderr
    missing = cli("digest", "--feed", str(FEED), "--send")
    assert missing.returncode == 1 and "PAPERTERM_SMTP_PASSWORD" in missing.stderr
    write_config(isolated_home.config, smtp.port, None, starttls=True)
    plain = cli("digest", "--feed", str(FEED), "--send", env=PASSWORD)
    assert plain.returncode == 1 and "does not offer STARTTLS" in plain.stderr
    assert smtp.received == []
    write_config(isolated_home.config, smtp.port, None)
    ok = cli("digest", "--feed", str(FEED), "--send", env=PASSWORD)
    assert ok.returncode == 0 and len(smtp.received) == 1  # the failures recorded nothing


def test_send_without_delivery_config_says_where_to_set_it(cli, isolated_home):
    proc = cli("digest", "--feed", str(FEED), "--send")
    assert proc.returncode == 2 and "[delivery]" in proc.stderr
    assert proc.stderr.strip().count("\n") == 0


def _message(n: int = 40) -> DigestMessage:
    scores = {p.id: Score(p.id, p.version, 10 - i % 10, 5, "because " * 10, "scored")
              for i, p in enumerate(PAPERS)}
    return DigestMessage("2026-02-25", "moe", "m", len(PAPERS), top_picks(PAPERS, scores, n))


def test_discord_messages_fit_in_2000_characters_and_mention_nobody():
    payload = to_discord(_message())
    assert len(payload["content"]) <= DISCORD_LIMIT and "more" in payload["content"]
    assert payload["allowed_mentions"] == {"parse": []}


def test_untrusted_text_stays_text_in_the_html_mail():
    m = _message(1)
    pick = m.picks[0]
    hostile = replace(pick.paper, title='<script>alert(1)</script> [x](javascript:alert(1))')
    m = replace(m, picks=[replace(pick, paper=hostile)])
    html = to_html(to_markdown(m))
    assert "<script>" not in html and 'href="javascript' not in html
    assert "&lt;script&gt;" in html


def test_the_store_records_each_channel_per_day_and_topic(tmp_path):
    from paperterm.store import Store

    store = Store(tmp_path / "db.sqlite3")
    assert store.deliveries.delivered("2026-02-25", "moe", "email") is None
    store.deliveries.record_delivery("2026-02-25", "moe", "email", "me@example.org")
    assert store.deliveries.delivered("2026-02-25", "moe", "email") is not None
    assert store.deliveries.delivered("2026-02-25", "moe", "webhook") is None
    assert store.deliveries.delivered("2026-02-25", "agents", "email") is None
    store.close()
