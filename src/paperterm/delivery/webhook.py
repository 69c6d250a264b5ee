"""Posting the digest to a chat webhook (Slack, Discord) or any URL that takes JSON."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

from paperterm import __version__
from paperterm.delivery.mail import DeliveryError
from paperterm.delivery.message import DigestMessage, to_discord, to_json, to_slack

TIMEOUT = 20.0
PAYLOADS = {"slack": to_slack, "discord": to_discord, "json": to_json}


def webhook_host(url: str) -> str:
    """Where a webhook goes, without the secret in its path."""
    return urllib.parse.urlsplit(url).netloc


def post_webhook(m: DigestMessage, url: str, fmt: str) -> None:
    body = json.dumps(PAYLOADS[fmt](m), ensure_ascii=False).encode("utf-8")
    req = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": f"paperterm/{__version__}"})
    host = webhook_host(url)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            resp.read(65536)
    except urllib.error.HTTPError as exc:
        detail = " ".join(exc.read(300).decode("utf-8", "replace").split())
        raise DeliveryError(f"webhook {host}: HTTP {exc.code}"
                            + (f" ({detail[:200]})" if detail else "")) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DeliveryError(f"webhook {host}: cannot connect ({reason})") from None
