"""Scoring settings, each declared once.

A field of `ScoringSettings` is the whole declaration of a setting: its name is the config key
(and, with dashes, the CLI flag), its annotation and default are the type and default of both,
and its metadata (`setting(...)`) carries the range check, the flag's help and the line the
starter config shows. `config.py` parses the keys, `cli/parser.py` builds the flags and
`config.STARTER_CONFIG` writes the lines from these fields; nothing else lists them.

Plain dataclasses and hand-written checks: no validation library on the first-paint path.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any, get_type_hints

Check = Callable[[Any], bool]


@dataclass(frozen=True)
class Spec:
    """What one setting means beyond its name, type and default."""

    help: str = ""
    check: Check | None = None  # None: any value of the type
    expected: str = ""  # what `check` wants, for error messages ("at least 1")
    choices: tuple[str, ...] = ()
    flag: bool = True  # also a CLI flag
    comment: str = ""  # the starter config's trailing comment
    example: str = ""  # starter config: show `# key = <example>` instead of the default


def setting(default: Any, **spec: Any) -> Any:
    """A dataclass field carrying its Spec."""
    return field(default=default, metadata={"spec": Spec(**spec)})


def _between(low: float, high: float, *, zero: bool = False, open_low: bool = False) -> Check:
    """A range check that also refuses nan and infinities; `zero` allows 0 as "off"."""

    def check(v: float) -> bool:
        if isinstance(v, float) and not math.isfinite(v):
            return False
        if zero and v == 0:
            return True
        return (v > low if open_low else v >= low) and v <= high

    return check


def _prefilter_ok(v: float) -> bool:
    """0 (off), a fraction of the day (0 < v < 1) or a whole count of papers."""
    if not math.isfinite(v) or v < 0:
        return False
    return v < 1 or (v.is_integer() and v <= 100_000)


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

    model: str = setting(
        "", help="any litellm model, e.g. openai/gpt-4o-mini", example='"openai/gpt-4o-mini"')
    api_base: str = setting(
        "", help="provider base URL (e.g. for ollama)",
        example='"http://localhost:11434"   # e.g. for ollama')
    scorer: str = setting(
        "auto", choices=("auto", "llm", "local"), expected='"auto", "llm" or "local"',
        comment="auto | llm | local")
    batch_size: int = setting(
        25, check=_between(1, 500), expected="at least 1 (at most 500)",
        comment="papers per request")
    concurrency: int = setting(
        4, check=_between(1, 64), expected="at least 1 (at most 64)",
        comment="requests in flight")
    rpm: float = setting(
        0.0, check=_between(0.1, 100_000, zero=True),
        expected="0 (no limit) or 0.1 to 100000 requests per minute",
        help="requests per minute, 0 = no limit", comment="requests per minute, 0 = unlimited")
    timeout: float = setting(
        60.0, check=_between(0, 3600, open_low=True),
        expected="more than 0 seconds (at most 3600)", help="seconds per request",
        comment="seconds per request")
    budget: float = setting(
        0.0, check=_between(0, 1_000_000), expected="0 (no budget) or more dollars (finite)",
        help="dollars per run, 0 = no limit", comment="dollars per run, 0 = no limit")
    include_authors: bool = setting(False, flag=False)
    budget_period: str = setting(
        "run", choices=("run", "day"), expected='"run" or "day"',
        help="what --budget limits: one run, or all runs of the announcement day",
        comment="run | day: what the budget limits")
    prefilter: float = setting(
        0.0, check=_prefilter_ok,
        expected="0 (off), a fraction of the day below 1 (0.3) or a count of papers (40)",
        help="send only the local top part of the day to the LLM: a fraction (0.3) or a "
             "count (40), plus followed authors and papers like your stars; 0 = all",
        comment="LLM only for the local top: 0.3 (fraction) or 40 (count); 0 = all")
    # [models."<model>"] tables: not a flag, parsed by config.py (no Spec: not `declared`)
    models: dict[str, ModelOptions] = field(default_factory=dict)

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


@dataclass(frozen=True)
class Declared:
    """One declared setting, resolved: name, Python type, default and Spec."""

    name: str
    type: type
    default: Any
    spec: Spec

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def problem(self, value: Any) -> str | None:
        """None when `value` (already of the right type) is allowed, else what is expected."""
        if self.spec.choices and value not in self.spec.choices:
            return self.spec.expected
        if self.spec.check is not None and not self.spec.check(value):
            return self.spec.expected
        return None


def declared() -> Iterator[Declared]:
    """Every scoring setting, in declaration order."""
    hints = get_type_hints(ScoringSettings)
    for f in fields(ScoringSettings):
        if "spec" not in f.metadata:
            continue
        yield Declared(f.name, hints[f.name], f.default, f.metadata["spec"])


def starter_lines() -> list[str]:
    """The starter config's lines for the scoring settings (defaults shown, commented)."""
    lines = []
    for d in declared():
        if d.spec.example:
            lines.append(f"# {d.name} = {d.spec.example}")
            continue
        text = f"{d.name} = {toml_value(d.default)}"
        lines.append(f"{text:<23}# {d.spec.comment}" if d.spec.comment else text)
    return lines


def toml_value(value: Any) -> str:
    """A default as the starter config writes it (whole numbers without a fraction)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)
