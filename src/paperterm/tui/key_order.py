"""Keys in typing order. Textual hands a key to the focused widget's own queue and reads the
next key at once; a key that moves focus or closes a screen (esc, enter) could then be
overtaken by the keys typed after it. The reader waits, briefly, until each key is handled,
and keys typed during start-up wait for the day screen to be mounted."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from textual.message_pump import MessagePump
from textual.screen import Screen

KEY_ORDER_TIMEOUT = 0.25  # seconds a key may take before the next one is read anyway


async def handled_by(target: MessagePump) -> None:
    """Wait (briefly) until `target` has handled the key forwarded to it."""
    done = asyncio.Event()
    if target.is_running:
        target.call_next(done.set)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(done.wait(), KEY_ORDER_TIMEOUT)


async def until_mounted(screen: Screen[Any]) -> None:
    """Keys typed during start-up wait for the day screen's `on_mount` (it hides the search
    box and focuses the list): the app reads keys as soon as its own start-up is done, which,
    the day screen being the default screen, can come first."""
    deadline = time.monotonic() + KEY_ORDER_TIMEOUT * 10
    while not screen.is_mounted and time.monotonic() < deadline:
        await asyncio.sleep(0.005)
