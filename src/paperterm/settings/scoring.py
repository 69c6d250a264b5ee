"""The scoring settings: top-level config keys, most of them flags of every command that
scores or asks a model, and the `[models."<model>"]` tables."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

from paperterm.settings.spec import LLM, MODEL, SCORING, ConfigError, between, expect, setting

# `prefilter = "auto"`: the top part chosen by expected recall; only the word gives it (as
# a number it is refused like any negative one)
PREFILTER_AUTO = -1.0


def _prefilter_ok(v: float) -> bool:
    """0 (off), a fraction of the day (0 < v < 1) or a whole count of papers."""
    if not math.isfinite(v) or v < 0:
        return False
    return v < 1 or (v.is_integer() and v <= 100_000)


def _flag(default: Any, **spec: Any) -> Any:
    """A scoring setting: its flag is listed under "scoring" in the help."""
    return setting(default, group="scoring", **spec)


RESPONSE_FORMATS = ("auto", "json_schema", "json_object", "none")


@dataclass(frozen=True)
class ModelOptions:
    """Request shaping for one model: config `[models."<model>"]` (not flags).

    Prices are dollars per million tokens and, when both are given, override litellm's."""

    max_tokens: int | None = None  # None: from the batch's expected reply; 0: never sent
    response_format: str = "auto"  # auto | json_schema | json_object | none
    system_role: bool = True  # False: instructions folded into the user message
    context: int | None = None  # the model's context window in tokens: batches fit in it
    input_price: float | None = None
    output_price: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # passed through (num_ctx, ...)

    @property
    def priced(self) -> bool:
        return self.input_price is not None and self.output_price is not None


@dataclass
class ScoringSettings:
    """Every scoring knob: a config key and (mostly) a CLI flag of the same name."""

    model: str = _flag(
        "", help="any litellm model, e.g. openai/gpt-4o-mini", commands=MODEL,
        example='"openai/gpt-4o-mini"',
        before="LLM scoring through litellm. Empty model = the local ranking.\n"
               "API keys come from the provider's usual environment variables\n"
               "(OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, ...), never from this file.")
    api_base: str = _flag(
        "", help="provider base URL (e.g. for ollama)", commands=MODEL,
        example='"http://localhost:11434"   # e.g. for ollama')
    scorer: str = _flag(
        "auto", choices=("auto", "llm", "local"), expected='"auto", "llm" or "local"',
        commands=SCORING, comment="auto | llm | local")
    batch_size: int = _flag(
        25, check=between(1, 500), expected="at least 1 (at most 500)",
        commands=LLM, comment="papers per request")
    concurrency: int = _flag(
        4, check=between(1, 64), expected="at least 1 (at most 64)",
        commands=LLM, comment="requests in flight")
    rpm: float = _flag(
        0.0, check=between(0.1, 100_000, zero=True),
        expected="0 (no limit) or 0.1 to 100000 requests per minute", commands=LLM,
        help="requests per minute, 0 = no limit", comment="requests per minute, 0 = unlimited")
    timeout: float = _flag(
        60.0, check=between(0, 3600, open_low=True),
        expected="more than 0 seconds (at most 3600)", help="seconds per request",
        commands=MODEL, comment="seconds per request")
    budget: float = _flag(
        0.0, check=between(0, 1_000_000), expected="0 (no budget) or more dollars (finite)",
        commands=LLM, help="dollars per run, 0 = no limit", comment="dollars per run, 0 = no limit")
    include_authors: bool = setting(False, comment="the prompt lists the authors too")
    budget_period: str = _flag(
        "run", choices=("run", "day"), expected='"run" or "day"', commands=LLM,
        help="what --budget limits: one run, or all runs of the announcement day",
        comment="run | day: what the budget limits")
    prefilter: float = _flag(
        0.0, check=_prefilter_ok, commands=SCORING, named=(("auto", PREFILTER_AUTO),),
        expected='0 (off), a fraction of the day below 1 (0.3), a count of papers (40) or '
                 '"auto"',
        help="send only the local top part of the day to the LLM: a fraction (0.3), a "
             "count (40) or auto (the smallest part expected to hold 9 of 10 picks), plus "
             "followed authors and papers like your stars; 0 = all",
        comment='LLM only for the local top: 0.3 (fraction), 40 (count) or "auto"; 0 = all')
    models: dict[str, ModelOptions] = setting(
        factory=dict, parse=lambda v, where: parse_models(v, where),
        before="Request shaping and prices for one model (prices: dollars per million tokens).",
        block='[models."anthropic/claude-sonnet-4-20250514"]\n'
              'input_price = 3.0\n'
              'output_price = 15.0\n'
              'max_tokens = 4000             # default: the batch\'s expected reply with headroom\n'
              'response_format = "auto"      # auto | json_schema | json_object | none\n'
              'system_role = true            # false: instructions folded into the user message\n'
              'context = 200000              # the context window: batches are sized to fit it\n'
              'extra = { temperature = 0 }   # passed through, e.g. ollama\'s num_ctx')

    @property
    def model_options(self) -> ModelOptions:
        """The `[models."<model>"]` table of the configured model (defaults when none)."""
        return self.models.get(self.model) or ModelOptions()

    @property
    def use_llm(self) -> bool:
        """True when an LLM will be asked (scorer llm, or auto with a model set)."""
        if self.scorer == "local":
            return False
        return bool(self.model)

    def with_overrides(self, **overrides: Any) -> ScoringSettings:
        """A copy with every non-None override applied (flags over config)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return ScoringSettings(**values)




_MODEL_KEYS = tuple(f.name for f in fields(ModelOptions))  # in the order declared
_PRICE_LIMIT = 100_000.0  # dollars per million tokens: far above any real price


def parse_models(value: Any, where: str) -> dict[str, ModelOptions]:
    """`[models."<model>"]` tables: request shaping and prices for one model each."""
    origin = where.rsplit(": key ", 1)[0]
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ConfigError(f'{origin}: [models."<model>"] tables expected')
    return {name: _parse_model(table, f'{origin}: [models."{name}"]')
            for name, table in value.items()}


def _parse_model(table: dict[str, Any], where: str) -> ModelOptions:
    values: dict[str, Any] = {}
    for key, v in table.items():
        at = f"{where} key '{key}'"
        if key in ("max_tokens", "context"):
            v = expect(v, int, at)
            low = 0 if key == "max_tokens" else 256
            if not low <= v <= 10_000_000:
                raise ConfigError(f"{at}: expected {low} to 10000000 tokens, got {v!r}")
        elif key in ("input_price", "output_price"):
            v = expect(v, float, at)
            if not (0 <= v <= _PRICE_LIMIT):  # also refuses nan and inf
                raise ConfigError(f"{at}: expected dollars per million tokens, 0 to "
                                  f"{_PRICE_LIMIT:g}, got {v!r}")
        elif key == "response_format":
            if v not in RESPONSE_FORMATS:
                raise ConfigError(f"{at}: expected one of {', '.join(RESPONSE_FORMATS)}, "
                                  f"got {v!r}")
        elif key == "system_role":
            v = expect(v, bool, at)
        elif key == "extra":
            if not isinstance(v, dict):
                raise ConfigError(f"{at}: expected a table of request parameters, got {v!r}")
            v = dict(v)
        else:
            raise ConfigError(f"{where}: unknown key '{key}' (known: {', '.join(_MODEL_KEYS)})")
        values[key] = v
    options = ModelOptions(**values)
    if (options.input_price is None) != (options.output_price is None):
        raise ConfigError(f"{where}: set both input_price and output_price (dollars per "
                          "million tokens), or neither")
    return options
