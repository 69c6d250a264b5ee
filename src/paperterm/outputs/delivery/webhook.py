"""Posting the digest to a chat webhook (Slack, Discord) or any URL that takes JSON."""

from __future__ import annotations

import http.client
import json

from paperterm import __version__
from paperterm.io import httpio, limits
from paperterm.io.redact import redact, url_host, url_secrets
from paperterm.outputs.delivery.mail import DeliveryError
from paperterm.outputs.delivery.message import DigestMessage, to_discord, to_json, to_slack

PAYLOADS = {"slack": to_slack, "discord": to_discord, "json": to_json}


def webhook_host(url: str) -> str:
    """Where a webhook goes, without the secrets in its address (user, path, query)."""
    return url_host(url)


def post_webhook(m: DigestMessage, url: str, fmt: str) -> None:
    body = json.dumps(PAYLOADS[fmt](m), ensure_ascii=False).encode("utf-8")
    host = webhook_host(url)
    secrets = url_secrets(url)
    try:
        httpio.request(url, what=f"webhook {host}", method="POST", data=body, headers={
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": f"paperterm/{__version__}"})
    except httpio.HttpFailure as exc:
        detail = redact(" ".join(exc.answer.body[:300].decode("utf-8", "replace").split()),
                        secrets)
        raise DeliveryError(f"webhook {host}: HTTP {exc.answer.status}"
                            + (f" ({detail[:200]})" if detail else "")) from None
    except (limits.InputTooSlow, limits.InputTooLarge) as exc:
        raise DeliveryError(str(exc)) from None
    except (OSError, http.client.HTTPException) as exc:
        reason = redact(httpio.one_line(exc), secrets)
        raise DeliveryError(f"webhook {host}: cannot connect ({reason})") from None
