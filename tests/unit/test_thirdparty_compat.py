"""Contract tests for the private parts of litellm and pyzotero that paperterm relies on
(`scoring/litellm_compat.py`, `outputs/zotero/pyzotero_compat.py`): an upgrade that moves one
fails here, by name. Real servers on 127.0.0.1, no network."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from support.fakellm import Behaviour, FakeLLM
from support.fakezotero import FakeZoteroWeb

from paperterm.outputs.zotero.pyzotero_compat import cap_backoff
from paperterm.scoring import litellm_compat
from paperterm.scoring.provider import import_litellm, retry_after_seconds


def test_litellm_closes_and_forgets_its_async_clients():
    litellm = import_litellm()
    assert hasattr(litellm, "in_memory_llm_clients_cache")
    assert callable(litellm.in_memory_llm_clients_cache.flush_cache)
    with FakeLLM() as llm:
        async def ask_then_close() -> None:
            await litellm.acompletion(model="openai/gpt-4o-mini", api_base=llm.url,
                                      api_key="sk-test", messages=[{"role": "user",
                                                                    "content": "hi"}])
            await litellm_compat.close_async_clients()

        asyncio.run(ask_then_close())
    litellm_compat.forget_clients(litellm)
    assert not litellm.in_memory_llm_clients_cache.cache_dict


def test_litellm_keeps_the_error_responses_headers():
    litellm = import_litellm()
    with FakeLLM() as llm:
        llm.push(Behaviour(status=429, retry_after="7"))
        with pytest.raises(Exception) as caught:
            asyncio.run(litellm.acompletion(
                model="openai/gpt-4o-mini", api_base=llm.url, api_key="sk-test",
                num_retries=0, max_retries=0, messages=[{"role": "user", "content": "hi"}]))
    headers = litellm_compat.response_headers(caught.value)
    assert headers is not None and headers.get("retry-after") == "7"
    assert retry_after_seconds(caught.value) == 7.0


def test_pyzotero_reports_a_servers_backoff_through_its_hook():
    from pyzotero import zotero

    fake = FakeZoteroWeb(key="k3y", library="/users/475425", throttle=1)
    fake.retry_after = "0"
    try:
        zot = zotero.Zotero("475425", "user", "k3y")
        zot.endpoint = fake.url
        asked: list[object] = []

        def recording(original):
            def record(duration):
                asked.append(duration)
                original(0)
            return record

        assert cap_backoff(zot, recording)
        # what pyzotero does after a 429 is not the contract; calling the hook is
        with contextlib.suppress(Exception):
            zot.collections()
        assert asked, "pyzotero no longer calls _set_backoff on a Retry-After"
    finally:
        fake.close()


def test_the_private_parts_are_named_only_in_the_compat_modules():
    from pathlib import Path

    src = Path(__file__).resolve().parents[2] / "src" / "paperterm"
    private = ("litellm.llms", "in_memory_llm_clients_cache", "litellm_response_headers",
               "_set_backoff")
    allowed = {src / "scoring" / "litellm_compat.py",
               src / "outputs" / "zotero" / "pyzotero_compat.py"}
    found = [f"{p.relative_to(src)}: {name}" for p in sorted(src.rglob("*.py"))
             if p not in allowed for name in private if name in p.read_text(encoding="utf-8")]
    assert found == []
