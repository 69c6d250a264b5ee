"""Delivering the digest: by e-mail (SMTP) and to a webhook (Slack, Discord, JSON), from
`[delivery]` in the config. A day already delivered through a channel is not sent again
through it (the store records each), unless forced.

Public API: `deliver`, `Delivery`, `DeliveryError`, `DigestMessage`, `top_picks`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from paperterm.io.env import env
from paperterm.outputs.delivery.mail import DeliveryError
from paperterm.outputs.delivery.message import DigestMessage, top_picks
from paperterm.settings.config import DeliveryConfig

if TYPE_CHECKING:
    from paperterm.store import Deliveries

__all__ = ["Delivery", "DeliveryError", "DigestMessage", "deliver", "top_picks"]

PASSWORD_ENV = "PAPERTERM_SMTP_PASSWORD"


@dataclass
class Delivery:
    """What `deliver` did, per channel: sent, skipped (already sent) or failed (why)."""

    sent: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def deliver(m: DigestMessage, cfg: DeliveryConfig, deliveries: Deliveries, *,
            force: bool = False) -> Delivery:
    """Send `m` through every configured channel; one channel failing does not stop another."""
    from paperterm.outputs.delivery.mail import build_email, send_email
    from paperterm.outputs.delivery.webhook import post_webhook, webhook_host

    out = Delivery()
    channels = []
    if cfg.email_to:
        channels.append(("email", ", ".join(cfg.email_to),
                         lambda msg: send_email(build_email(msg, cfg), cfg,
                                                env(PASSWORD_ENV))))
    if cfg.webhook_url:
        channels.append(("webhook", f"{webhook_host(cfg.webhook_url)} ({cfg.webhook_format})",
                         lambda msg: post_webhook(msg, cfg.webhook_url, cfg.webhook_format)))
    for channel, target, send in channels:
        if not force and deliveries.delivered(m.day, m.topic, channel) is not None:
            out.skipped.append(f"{channel} to {target}")
            continue
        told = untold(m, deliveries, channel)
        try:
            send(told)
        except DeliveryError as exc:
            out.failed.append(str(exc))
            continue
        with deliveries.transaction():  # the day and its revisions recorded together
            deliveries.record_delivery(m.day, m.topic, channel, target)
            deliveries.record_revisions([(r.id, r.new.version or 0) for r in told.revised],
                                        channel)
        out.sent.append(f"{channel} to {target}")
    return out


def untold(m: DigestMessage, deliveries: Deliveries, channel: str) -> DigestMessage:
    """`m` without the revisions already told through `channel` (each is told once)."""
    if not m.revised:
        return m
    sent = deliveries.revisions_sent([(r.id, r.new.version or 0) for r in m.revised], channel)
    return replace(m, revised=tuple(r for r in m.revised
                                    if (r.id, r.new.version or 0) not in sent))
