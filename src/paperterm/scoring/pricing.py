"""What a request costs: the model's price per token, and what a reply says it cost.

A price comes from config `[models."<model>"] input_price / output_price` (dollars per
million tokens) or from litellm's bundled price map. litellm reports some models at 0 or
with only one of the two prices (claude-sonnet-4, several OpenRouter models): those are
"price unknown", never $0. A cost the provider reports in the reply (OpenRouter's
`usage.cost`) is used when present, since it is what was billed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from paperterm.settings import ModelOptions

PER_MILLION = 1_000_000


@dataclass(frozen=True)
class Price:
    """Dollars per prompt token and per completion token."""

    input: float
    output: float

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return prompt_tokens * self.input + completion_tokens * self.output


def _dollars(value: Any) -> float | None:
    """A finite, non-negative number of dollars, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except (OverflowError, ValueError):
        return None
    return number if math.isfinite(number) and number >= 0 else None


def model_price(litellm: Any, model: str, options: ModelOptions) -> Price | None:
    """The model's price: the config's when given, else litellm's when it knows both
    prices and neither is 0; None: unknown."""
    if options.input_price is not None and options.output_price is not None:
        return Price(options.input_price / PER_MILLION, options.output_price / PER_MILLION)
    try:
        info = litellm.get_model_info(model=model)
    except Exception:
        return None
    prices = [_dollars(info.get(k)) for k in ("input_cost_per_token", "output_cost_per_token")]
    if any(p is None or p <= 0 for p in prices):
        return None
    return Price(float(prices[0]), float(prices[1]))  # type: ignore[arg-type]


def reported_cost(usage: Any) -> float | None:
    """The cost a provider put in the reply's usage block (OpenRouter: `usage.cost`)."""
    if usage is None:
        return None
    value = usage.get("cost") if isinstance(usage, dict) else getattr(usage, "cost", None)
    return _dollars(value)


def how_to_price(model: str) -> str:
    """Where to give a price litellm does not know."""
    return (f'set its price in the config: [models."{model}"] input_price = ..., '
            "output_price = ... (dollars per million tokens)")
