"""One request with its retries: pacing, the retry policy's decisions, and the fallbacks to
simpler request forms, which are remembered for the run and serialised (a request that failed
in a form another request already gave up on just resends in the new form)."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from typing import Any

from paperterm.scoring.pacing import Pacer
from paperterm.scoring.policy import Fatal, GiveUp, Retry, Split, Tries, decide
from paperterm.scoring.provider import Messages, Provider, Reply, downgrade

Outcome = Reply | Split | GiveUp | Fatal  # of one request, after its retries
Cancel = asyncio.Event | threading.Event


class Asker:
    """Sends requests for one run; `response_format` is what the next request carries."""

    def __init__(self, provider: Provider, pacer: Pacer,
                 on_request: Callable[[], None] = lambda: None) -> None:
        self.provider, self.pacer, self.on_request = provider, pacer, on_request
        self.response_format: dict[str, Any] | None = None
        self.format_proven = False  # a request with the current response_format succeeded

    async def ask(self, messages: Messages, max_tokens: int | None = None) -> Outcome:
        """One request, retried as `policy` decides; never raises for provider errors."""
        tries = Tries()
        while True:
            await self.pacer.wait_turn()
            self.on_request()
            sent, system = self.response_format, self.provider.system_role
            try:
                reply = await self.provider.send(messages, sent, max_tokens)
                if sent is not None and sent == self.response_format:
                    self.format_proven = True
                return reply
            except Exception as exc:
                failure = self.provider.classify(exc)
            facts = self.provider.facts(format_sent=sent is not None, system_sent=system,
                                        format_unproven=not self.format_proven)
            decision, tries = decide(failure, tries, facts, random.random())
            if not isinstance(decision, Retry):
                return decision
            if decision.downgrade_format or decision.drop_format:
                if sent == self.response_format:
                    simpler = None if decision.drop_format else downgrade(sent)
                    self.response_format, self.format_proven = simpler, False
            elif decision.fold_system:
                self.provider.system_role = False
            elif decision.hold_all:
                self.pacer.hold(decision.wait)  # a 429 holds back every request
            elif decision.wait > 0:
                await asyncio.sleep(decision.wait)


async def drop(requests: list[asyncio.Task[Outcome]]) -> None:
    for request in requests:
        request.cancel()
    if requests:
        await asyncio.gather(*requests, return_exceptions=True)


async def wait_cancel(cancel: Cancel) -> None:
    if isinstance(cancel, asyncio.Event):
        await cancel.wait()
        return
    while not cancel.is_set():  # a threading.Event, set from another thread
        await asyncio.sleep(0.05)
