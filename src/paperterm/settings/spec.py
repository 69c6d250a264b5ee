"""How a setting is declared: a dataclass field whose metadata is a `Spec`.

The field's name is the config key inside its section, its annotation and default are the
type and default of both the key and the flag; the Spec says how a value is checked, which
subcommands take it as a flag, how completion offers values and what the starter config
shows. Plain dataclasses and hand-written checks: no validation library on the first-paint
path.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, NamedTuple, get_type_hints


class ConfigError(Exception):
    """A config (or topic/theme) file the user must fix; the message says where and how."""


Check = Callable[[Any], bool]
Parse = Callable[[Any, str], Any]  # (raw TOML value, "where" for messages) -> value

# The subcommands a flag belongs to ("tui": `paperterm` without one, the reader).
READER = "tui"
LOADING = frozenset({READER, "score", "digest", "export", "zotero", "enrich"})  # load a day
SCORING = frozenset({READER, "score", "digest", "export", "zotero"})  # score the day
LLM = SCORING | {"summarize"}  # ask a model (scoring or summaries)
MODEL = LLM | {"doctor"}  # name the model (doctor checks it)

TYPE_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


@dataclass(frozen=True)
class Spec:
    """What one setting means beyond its name, type and default."""

    help: str = ""  # the flag's help
    check: Check | None = None  # None: any value of the type
    expected: str = ""  # what `check` (or `choices`) wants, for messages ("at least 1")
    choices: tuple[str, ...] = ()
    # words a number setting also takes, each standing for a value ("auto" -> -1.0)
    named: tuple[tuple[str, Any], ...] = ()
    parse: Parse | None = None  # the config value's own conversion (lists, tables)
    commands: frozenset[str] = frozenset()  # subcommands taking it as a flag (none: no flag)
    flag: str = ""  # the flag when not `--<name-with-dashes>`
    metavar: str | None = None
    group: str = ""  # the help's group of shared options ("": the subcommand's own)
    complete: str = ""  # what completion offers: "file", "topics", "themes" (choices: those)
    # the starter config: `# <before>` lines, then `key = default  # comment`, or
    # `# key = <example>`, or the commented `block`; `starter=False` leaves it out
    before: str = ""
    comment: str = ""
    example: str = ""
    block: str = ""
    starter: bool = True


def setting(default: Any = MISSING, *, factory: Callable[[], Any] | None = None,
            **spec: Any) -> Any:
    """A dataclass field carrying its Spec."""
    meta = {"spec": Spec(**spec)}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def section(cls: type, *, inline: bool = False, **spec: Any) -> Any:
    """A `[section]` table of settings (`inline`: its keys sit at the top level)."""
    return field(default_factory=cls, metadata={"spec": Spec(**spec), "section": cls,
                                                "inline": inline})


class Declared(NamedTuple):
    """One declared setting, resolved: name, Python type, default, Spec and section."""

    name: str
    type: type
    default: Any
    spec: Spec
    section: str = ""  # "" top level, else the table ("bibtex", "delivery", ...)

    @property
    def key(self) -> str:
        """`section.key` as documentation writes it."""
        return f"{self.section}.{self.name}" if self.section else self.name

    @property
    def flag(self) -> str:
        return self.spec.flag or "--" + self.name.replace("_", "-")

    @property
    def dest(self) -> str:
        """The parsed options' attribute of the flag."""
        return self.flag[2:].replace("-", "_")

    def problem(self, value: Any) -> str | None:
        """None when `value` (already of the right type) is allowed, else what is expected."""
        if self.spec.choices and value not in self.spec.choices:
            return self.spec.expected
        if self.spec.check is not None and not self.spec.check(value):
            return self.spec.expected
        return None

    def value(self, raw: Any, where: str) -> Any:
        """The config value `raw` converted and checked; ConfigError saying `where`."""
        named = dict(self.spec.named)
        if isinstance(raw, str) and named:
            if raw in named:
                return named[raw]
            raise ConfigError(f"{where}: expected {self.spec.expected}, got {shown(raw)}")
        value = self.spec.parse(raw, where) if self.spec.parse else expect(raw, self.type, where)
        problem = self.problem(value)
        if problem:
            from paperterm.io.redact import redact_urls  # (a message: off the start path)

            whole = isinstance(value, str) and self.spec.group != "scoring"  # as always
            raise ConfigError(f"{where}: expected {problem}, got "
                              f"{redact_urls(repr(value)) if whole else shown(value)}")
        return value


_SIMPLE = (bool, int, float, str)


def declared(cls: type, section_name: str = "") -> Iterator[Declared]:
    """Every setting of the dataclass `cls`, in declaration order (sections not included)."""
    hints, defaults = get_type_hints(cls), cls()
    for f in fields(cls):
        if "spec" not in f.metadata or "section" in f.metadata:
            continue
        hint = hints[f.name]
        typ = hint if hint in _SIMPLE else getattr(hint, "__origin__", object)
        yield Declared(f.name, typ, getattr(defaults, f.name), f.metadata["spec"], section_name)


def sections(cls: type) -> Iterator[tuple[str, type, Spec, bool]]:
    """The `[section]` fields of `cls`: (name, dataclass, Spec, inline)."""
    for f in fields(cls):
        if "section" in f.metadata:
            yield f.name, f.metadata["section"], f.metadata["spec"], f.metadata["inline"]


def expect(value: Any, typ: type, where: str) -> Any:
    """`value` as `typ` (an integer is a number too); ConfigError otherwise."""
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise ConfigError(f"{where}: expected a number in range, got one of "
                              f"{len(str(abs(value)))} digits") from None
    if (typ is int and isinstance(value, bool)) or not isinstance(value, typ):
        raise ConfigError(f"{where}: expected {TYPE_NAMES[typ]}, got {value!r}")
    return value


def shown(value: Any) -> str:
    """A refused value for a message: a 400-digit number is not echoed whole."""
    from paperterm.io.redact import redact_urls  # (a message: off the start path)

    text = redact_urls(repr(value))
    return text if len(text) <= 24 else text[:20] + "..."


def str_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {value!r}")
    return list(value)


def between(low: float, high: float, *, zero: bool = False, open_low: bool = False) -> Check:
    """A range check that also refuses nan and infinities; `zero` allows 0 as "off"."""

    def check(v: float) -> bool:
        if isinstance(v, float) and not math.isfinite(v):
            return False
        if zero and v == 0:
            return True
        return (v > low if open_low else v >= low) and v <= high

    return check


def toml_value(value: Any) -> str:
    """A default as the starter config writes it (whole numbers without a fraction)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)
