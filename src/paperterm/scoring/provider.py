"""The litellm boundary: import it lazily, send one request, read tokens and cost, and
classify what went wrong.

litellm is imported lazily (in a thread, the first time a request is really needed), never
when paperterm is imported, and always with its bundled price map. Keys come only from the
provider's usual environment variables; they are never logged, stored or put into a message.
Every text from the provider goes through `hygiene.clean_line` before anyone sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paperterm.io.redact import redact, redact_url, split_credentials, url_secrets
from paperterm.scoring import prompt
from paperterm.scoring.halt import Halt, Stop
from paperterm.scoring.policy import ErrorKind, Failure, RequestFacts, parse_retry_after
from paperterm.scoring.pricing import Price, model_price, reported_cost
from paperterm.scoring.providers import (
    default_api_base,
    default_base_note,
    is_http_url,
    key_hint,
    missing_keys,
)
from paperterm.scoring.server_text import answered_status, server_words
from paperterm.settings import ModelOptions
from paperterm.text.hygiene import clean_line

DEADLINE_GRACE = 0.5  # seconds past `timeout` before a whole request is abandoned
JSON_OBJECT = {"type": "json_object"}

Messages = list[dict[str, str]]

# -- litellm, lazily ---------------------------------------------------------------------

_import_lock = threading.Lock()


def import_litellm() -> Any:
    """litellm, imported once, quiet, with the bundled price map (never fetched)."""
    with _import_lock:
        os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
        import litellm

        litellm.suppress_debug_info = True
        litellm.set_verbose = False
        for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm", "httpx"):
            logging.getLogger(name).setLevel(logging.ERROR)
        with contextlib.suppress(Exception):
            # The OpenAI SDK imports its resources on the first request (~0.4 s); do it
            # here, off the event loop, rather than stall the first request.
            import openai.resources  # noqa: F401
        return litellm


async def aclose_llm_clients() -> None:
    """Close litellm's cached async HTTP clients (call before the event loop ends) and
    forget them, so that a later event loop never picks up a closed client."""
    litellm = sys.modules.get("litellm")
    if litellm is None:
        return
    from paperterm.scoring import litellm_compat

    with contextlib.suppress(Exception):
        await litellm_compat.close_async_clients()
    litellm_compat.forget_clients(litellm)


# -- provider text -----------------------------------------------------------------------

def describe(exc: BaseException, secrets: list[str] | tuple[str, ...] = ()) -> str:
    """The provider's message for an exception: one short clean line, the server's own
    words where it sent any (see `server_words`), without secrets (environment keys of
    any length, and `secrets`: the api_base's credentials)."""
    try:
        raw = str(exc)
    except Exception:  # a str() that fails (RecursionError on a monstrous reply, ...)
        raw = ""
    text = server_words(raw) or type(exc).__name__
    text = text.removesuffix("Traceback (most recent call last):").strip()
    text = redact(clean_line(text), secrets) or type(exc).__name__
    return text if len(text) <= 160 else text[:159] + "…"


def retry_after_seconds(exc: BaseException) -> float | None:
    """What the error response's Retry-After (or retry-after-ms) header asks for."""
    response = getattr(exc, "response", None)
    from paperterm.scoring.litellm_compat import response_headers

    candidates = (response_headers(exc),
                  getattr(response, "headers", None) if response is not None else None,
                  getattr(exc, "headers", None))
    for headers in candidates:
        if headers is None:
            continue
        asked = parse_retry_after(_header(headers, "retry-after-ms"),
                                  _header(headers, "retry-after"), time.time())
        if asked is not None:
            return asked
    return None


def _header(headers: Any, name: str) -> str | None:
    try:
        value = headers.get(name)
    except Exception:
        return None
    return str(value) if value is not None else None


# -- classifying errors: an ordered table, the first matching row wins --------------------


def _says_quota(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "quota" in text and ("exceeded" in text or "insufficient" in text)


def _names_format(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "response_format" in text or "json" in text


def _unreadable_reply(exc: BaseException) -> bool:
    """litellm received an answer but could not turn it into a response object."""
    return "invalid response object" in str(exc).lower()


def _names_system_role(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "system" in text and ("role" in text or "message" in text or "prompt" in text)


def _is_connection_error(exc: BaseException) -> bool:
    if answered_status(exc) is not None:  # the server answered (a gateway's 502 page...)
        return False
    current: BaseException | None = exc
    for _ in range(10):
        if current is None:
            break
        name = type(current).__name__
        if "Timeout" in name:
            return False
        if name in ("APIConnectionError", "ConnectError", "ClientConnectorError") or isinstance(
                current, ConnectionError):
            return True
        current = current.__cause__ or current.__context__
    return "connection error" in str(exc).lower()


@dataclass(frozen=True)
class ErrorRule:
    """A row of the table: matches when the exception is one of `types` (litellm class
    names, or classes) or has one of `statuses`, and `also` (if given) holds too. With
    neither types nor statuses, `also` alone decides."""

    kind: ErrorKind
    types: tuple[str | type[BaseException], ...] = ()
    statuses: tuple[int, ...] = ()
    also: Callable[[BaseException], bool] | None = None

    def matches(self, exc: BaseException, litellm: Any) -> bool:
        if self.types or self.statuses:
            classes = tuple(getattr(litellm, t, None) if isinstance(t, str) else t
                            for t in self.types)
            typed = isinstance(exc, tuple(c for c in classes if isinstance(c, type)))
            if not typed and getattr(exc, "status_code", None) not in self.statuses:
                return False
        return self.also is None or self.also(exc)


_AUTH = ("AuthenticationError", "PermissionDeniedError")
_RATE = ("RateLimitError",)
_BAD = ("BadRequestError",)

ERROR_RULES: tuple[ErrorRule, ...] = (
    ErrorRule(ErrorKind.CONTEXT_OVERFLOW, ("ContextWindowExceededError",)),
    ErrorRule(ErrorKind.CONTENT_FILTER, ("ContentPolicyViolationError",)),
    ErrorRule(ErrorKind.AUTH, _AUTH, (401, 403)),
    ErrorRule(ErrorKind.NOT_FOUND, ("NotFoundError",), (404,)),
    ErrorRule(ErrorKind.QUOTA, _RATE, (429,), also=_says_quota),
    ErrorRule(ErrorKind.RATE_LIMIT, _RATE, (429,)),
    ErrorRule(ErrorKind.TIMEOUT, ("Timeout", asyncio.TimeoutError)),  # 3.10: not TimeoutError
    ErrorRule(ErrorKind.UNREACHABLE, also=_is_connection_error),
    ErrorRule(ErrorKind.SYSTEM_REJECTED, _BAD, (400, 422), also=_names_system_role),
    ErrorRule(ErrorKind.FORMAT_REJECTED, _BAD, (400, 422), also=_names_format),
    ErrorRule(ErrorKind.BAD_REQUEST, _BAD, (400, 422)),
    ErrorRule(ErrorKind.BAD_REPLY, also=_unreadable_reply),
    ErrorRule(ErrorKind.SERVER, also=lambda exc: True),
)


def classify(exc: BaseException, litellm: Any,
             secrets: list[str] | tuple[str, ...] = ()) -> Failure:
    """The first row of ERROR_RULES that matches, with the provider's clean message."""
    kind = next(r.kind for r in ERROR_RULES if r.matches(exc, litellm))
    status = answered_status(exc) or getattr(exc, "status_code", None)
    return Failure(kind, describe(exc, secrets), status if isinstance(status, int) else None,
                   retry_after_seconds(exc))


# -- one request -------------------------------------------------------------------------


@dataclass
class Reply:
    """One answered request: the assistant's text and what it cost."""

    text: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None  # None: unknown price
    reasoning: str | None = None  # the reasoning field (reasoning_content), if any


class Provider:
    """One model behind litellm. `setup()` first; then `send()` any number of times."""

    def __init__(self, model: str, api_base: str = "", timeout: float = 60.0,
                 options: ModelOptions | None = None) -> None:
        self.model, self.api_base, self.timeout = model, api_base, timeout
        self.options = options or ModelOptions()
        self.litellm: Any = None
        self.name: str | None = None  # litellm's provider name, e.g. "openai"
        self.price: Price | None = None  # None: unknown (see `pricing`)
        self.secrets = url_secrets(api_base)  # redacted from every message
        # `user:pass@` in api_base: sent as HTTP Basic auth (litellm's HTTP client refuses
        # credentials in the URL); that Authorization header replaces the API key's
        self.base_url, self.basic_auth = split_credentials(api_base)
        self.system_role = self.options.system_role  # False after a 400 refused it
        self.base_note = ""  # how a default api_base was chosen (Ollama without one)

    @property
    def priced(self) -> bool:
        return self.price is not None

    async def setup(self) -> Stop | None:
        """Import litellm and check the model and its key; a Stop when it cannot work (a
        known provider's missing key before litellm is imported)."""
        from paperterm.scoring.apikeys import key_stop

        if self.api_base and not is_http_url(self.base_url):  # before any request is sent
            shown = redact_url(self.api_base)
            if "@" in shown:  # not a URL, so credentials may sit anywhere before the @
                shown = "***@" + shown.rsplit("@", 1)[1]
            return Stop(Halt.BAD_API_BASE, repr(clean_line(shown)[:80]))
        stop = key_stop(self.model, self.api_base, extra=self.options.extra)
        if stop is not None:
            return stop
        self.litellm = litellm = await asyncio.to_thread(import_litellm)
        base = self.base_url or None
        try:
            _, self.name, _, _ = litellm.get_llm_provider(model=self.model, api_base=base)
        except Exception as exc:
            return Stop(Halt.UNKNOWN_MODEL, describe(exc), {"model": self.model})
        missing = missing_keys(litellm, self.model, base)
        if missing:
            return Stop(Halt.MISSING_KEY, " or ".join(missing), {"model": self.model})
        if not base and default_api_base(self.name):
            self._use_default_base()
        self.price = model_price(litellm, self.model, self.options)
        return None

    def _use_default_base(self) -> None:
        """No api_base for a local server (Ollama): its usual address, named in messages."""
        base = default_api_base(self.name)
        self.api_base, self.secrets = base, url_secrets(base)
        self.base_url, self.basic_auth = split_credentials(base)
        self.base_note = default_base_note(self.name)

    def facts(self, format_sent: bool, system_sent: bool = False,
              format_unproven: bool = False) -> RequestFacts:
        where = redact_url(self.api_base) + (f" ({self.base_note})" if self.base_note else "")
        return RequestFacts(self.model, where, self.name, self.timeout,
                            key_hint(self.name), format_sent, system_sent, format_unproven)

    def response_format(self, schema: dict[str, Any] | None) -> dict[str, Any] | None:
        """The reply format to ask for: the config's `response_format`, or (auto) the
        strictest the model takes: `schema`, else any JSON, else none."""
        litellm = self.litellm
        wanted = self.options.response_format
        if wanted == "none":
            return None
        if wanted == "json_object" or (wanted == "json_schema" and schema is None):
            return JSON_OBJECT
        if wanted == "json_schema":
            return schema
        if schema is not None:
            with contextlib.suppress(Exception):
                if litellm.supports_response_schema(model=self.model):
                    return schema
        try:
            params = litellm.get_supported_openai_params(model=self.model) or []
        except Exception:
            params = []
        return JSON_OBJECT if "response_format" in params else None

    def prompt_tokens(self, messages: Messages) -> int:
        try:
            return int(self.litellm.token_counter(model=self.model, messages=messages))
        except Exception:  # no tokenizer for this model: about 4 characters a token
            return sum(len(m.get("content", "")) for m in messages) // 3 + 8 * len(messages)

    def estimate_cost(self, messages: Messages, completion_tokens: int,
                      prompt_tokens: int | None = None) -> float:
        """Dollars a request would cost, from its messages (or the `prompt_tokens` to
        count for them) and an expected reply size (0 when the price is unknown: a budget
        is refused before that can matter)."""
        if self.price is None:
            return 0.0
        if prompt_tokens is None:
            prompt_tokens = self.prompt_tokens(messages)
        return self.price.cost(prompt_tokens, completion_tokens)

    def shape(self, messages: Messages) -> Messages:
        """The messages as this model takes them: without a system role (config
        `system_role = false`, or after a 400 refused it), instructions lead the user
        message."""
        if self.system_role or not messages or messages[0].get("role") != "system":
            return messages
        system, rest = messages[0]["content"], messages[1:]
        if rest and rest[0].get("role") == "user":
            return [{"role": "user", "content": system + "\n\n" + rest[0]["content"]},
                    *rest[1:]]
        return [{"role": "user", "content": system}, *rest]

    async def send(self, messages: Messages, response_format: dict[str, Any] | None,
                   max_tokens: int | None = None) -> Reply:
        """One request, no retries; raises what litellm raises (see `classify`)."""
        messages = self.shape(messages)
        if self.name in prompt.MARKED_CACHE_PROVIDERS:
            messages = prompt.with_cache_marker(messages)
        kwargs: dict[str, Any] = dict(self.options.extra)  # e.g. num_ctx, temperature
        kwargs.update({"model": self.model, "messages": messages,
                       "timeout": self.timeout, "num_retries": 0, "max_retries": 0,
                       "drop_params": True})
        if self.base_url:
            kwargs["api_base"] = self.base_url
        if self.basic_auth:
            kwargs["extra_headers"] = {"Authorization": self.basic_auth}
        if response_format is not None:
            kwargs["response_format"] = response_format
        if max_tokens:
            kwargs["max_tokens"] = max_tokens
        # httpx's timeout bounds each read, not the request: a server that trickles bytes
        # would never time out. The deadline is for the whole request.
        response = await asyncio.wait_for(self.litellm.acompletion(**kwargs),
                                          self.timeout + DEADLINE_GRACE)
        return self._reply(response)

    def classify(self, exc: BaseException) -> Failure:
        return classify(exc, self.litellm, self.secrets)

    def _reply(self, response: Any) -> Reply:
        message = None
        with contextlib.suppress(AttributeError, IndexError, KeyError, TypeError):
            message = response.choices[0].message
        text = _text(getattr(message, "content", None))
        reasoning = _text(getattr(message, "reasoning_content", None))
        usage = getattr(response, "usage", None)
        prompt = _count(getattr(usage, "prompt_tokens", 0))
        completion = _count(getattr(usage, "completion_tokens", 0))
        cost = reported_cost(usage)
        if cost is None and self.price is not None:
            cost = self.price.cost(prompt, completion)
        return Reply(text, prompt, completion, cost, reasoning)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _count(value: Any) -> int:
    """A token count from a usage block of any shape: wrong types count as 0."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return max(0, value)
    if isinstance(value, float) and value == value and abs(value) < 1e12:
        return max(0, int(value))
    return 0


def downgrade(current: dict[str, Any] | None) -> dict[str, Any] | None:
    """The next simpler reply format after the provider refused `current`."""
    if current is not None and current.get("type") == "json_schema":
        return JSON_OBJECT
    return None
