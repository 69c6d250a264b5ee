"""A fake OpenAI-compatible chat-completions server for benchmarks.

Reuses the test server (tests/support/fakellm.py): replies with valid JSON scores for the paper ids
in the prompt and a `usage` block counted with tiktoken. Adds fixed latency, an error rate
(HTTP 500) and a requests-per-minute limit (HTTP 429 with Retry-After).

    python benchmarks/fake_openai_server.py --latency 0.5 --rpm 0 --error-rate 0

Prints "listening on http://127.0.0.1:PORT/v1" and serves until interrupted.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import threading
import time
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support.fakellm import Behaviour, FakeLLM


def make_server(
    latency: float = 0.5, rpm: float = 0.0, error_rate: float = 0.0, seed: int = 1
) -> FakeLLM:
    server = FakeLLM(Behaviour(delay=latency))
    rng = random.Random(seed)
    window: deque[float] = deque()
    lock = threading.Lock()

    def rule(number: int, ids: list[str]) -> Behaviour | None:
        now = time.monotonic()
        if rpm > 0:
            with lock:
                while window and now - window[0] >= 60.0:
                    window.popleft()
                if len(window) >= rpm:
                    wait = max(1, math.ceil(60.0 - (now - window[0])))
                    return Behaviour(status=429, retry_after=str(wait))
                window.append(now)
        if error_rate > 0:
            with lock:
                failed = rng.random() < error_rate
            if failed:
                return Behaviour(status=500, delay=latency / 2)
        return None

    server.rule = rule
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="seconds per reply")
    parser.add_argument("--rpm", type=float, default=0.0, help="requests per minute, 0 = no limit")
    parser.add_argument("--error-rate", type=float, default=0.0, help="fraction answered 500")
    args = parser.parse_args()
    server = make_server(args.latency, args.rpm, args.error_rate).start()
    print(f"listening on {server.url}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
