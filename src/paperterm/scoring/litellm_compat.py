"""litellm's private parts that paperterm relies on, each behind one function.

litellm has no public way to close its cached async HTTP clients before an event loop
ends, nor to forget them after, and an error's response headers ride on an attribute it
sets itself. Each use lives here; tests/unit/test_thirdparty_compat.py holds a contract
test for each, so a litellm upgrade that moves one fails there, by name, instead of
leaking connections or losing a Retry-After. Import litellm first (`provider.import_litellm`).
"""

from __future__ import annotations

import contextlib
from typing import Any


async def close_async_clients() -> None:
    """Close litellm's cached async HTTP clients (its cleanup lives in a private module)."""
    from litellm.llms.custom_httpx.async_client_cleanup import close_litellm_async_clients

    await close_litellm_async_clients()


def forget_clients(litellm: Any) -> None:
    """Empty litellm's in-memory client cache, so a later event loop never gets a client
    bound to a closed one."""
    cache = getattr(litellm, "in_memory_llm_clients_cache", None)
    if cache is not None:
        with contextlib.suppress(Exception):
            cache.flush_cache()


def response_headers(exc: BaseException) -> Any:
    """The headers of the HTTP response an exception of litellm's came from, if it kept
    them (`litellm_response_headers`, set by its exception mapping)."""
    return getattr(exc, "litellm_response_headers", None)
