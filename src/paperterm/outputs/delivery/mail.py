"""Sending the digest by e-mail through SMTP: a plain-text part (the Markdown) and an HTML
part; STARTTLS by default (never a silent fall back to plain text), SSL on port 465."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from paperterm.outputs.delivery.message import DigestMessage, to_html, to_markdown
from paperterm.settings.config import DeliveryConfig

TIMEOUT = 30.0


class DeliveryError(Exception):
    """A message that could not be delivered; the text says why, in one line."""


def build_email(m: DigestMessage, cfg: DeliveryConfig) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = m.subject
    msg["From"] = cfg.email_from or cfg.smtp_user or "paperterm"
    msg["To"] = ", ".join(cfg.email_to)
    msg["Date"] = formatdate(localtime=True)
    domain = (cfg.email_from or "paperterm.invalid").rpartition("@")[2] or None
    msg["Message-ID"] = make_msgid("paperterm", domain=domain)
    text = to_markdown(m)
    msg.set_content(text)
    msg.add_alternative(to_html(text), subtype="html")
    return msg


def send_email(msg: EmailMessage, cfg: DeliveryConfig, password: str | None) -> None:
    """Send `msg` through the configured SMTP server within the whole-request deadline of
    every network call (httpio.within: a server trickling its replies cannot hold the run);
    DeliveryError in one line otherwise."""
    from paperterm.io import httpio, limits

    if not cfg.smtp_host:
        raise DeliveryError("[delivery] smtp_host is not set")
    if cfg.smtp_user and not password:
        raise DeliveryError("[delivery] smtp_user is set but PAPERTERM_SMTP_PASSWORD is not")
    where = f"{cfg.smtp_host}:{cfg.smtp_port}"
    try:
        httpio.within(lambda: _send(msg, cfg, password, where), f"SMTP {where}")
    except limits.InputTooSlow as exc:
        raise DeliveryError(str(exc)) from None


def _send(msg: EmailMessage, cfg: DeliveryConfig, password: str | None, where: str) -> None:
    try:
        context = ssl.create_default_context()
        if cfg.smtp_port == 465:
            client: smtplib.SMTP = smtplib.SMTP_SSL(cfg.smtp_host, cfg.smtp_port,
                                                    timeout=TIMEOUT, context=context)
        else:
            client = smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=TIMEOUT)
        with client:
            client.ehlo()
            if cfg.smtp_starttls and cfg.smtp_port != 465:
                if not client.has_extn("starttls"):
                    raise DeliveryError(f"SMTP {where} does not offer STARTTLS (set "
                                        "smtp_starttls = false only for a trusted local relay)")
                client.starttls(context=context)
                client.ehlo()
            if cfg.smtp_user:
                client.login(cfg.smtp_user, password or "")
            refused = client.send_message(msg)
    except DeliveryError:
        raise
    except smtplib.SMTPAuthenticationError as exc:
        raise DeliveryError(f"SMTP {where}: login refused ({exc.smtp_code})") from None
    except smtplib.SMTPRecipientsRefused as exc:
        raise DeliveryError(f"SMTP {where}: every recipient refused: "
                            f"{', '.join(exc.recipients)}") from None
    except smtplib.SMTPException as exc:
        raise DeliveryError(f"SMTP {where}: {' '.join(str(exc).split())}") from None
    except (OSError, ssl.SSLError) as exc:
        raise DeliveryError(f"SMTP {where}: cannot connect ({exc.strerror or exc})"
                            if isinstance(exc, OSError) and exc.strerror
                            else f"SMTP {where}: {exc}") from None
    if refused:
        raise DeliveryError(f"SMTP {where}: refused {', '.join(refused)} "
                            "(the others got it)")
