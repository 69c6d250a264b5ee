"""Every setting declared once: config key, type and check, default, flag and the subcommands
that take it, completion, starter-config line (`spec`, `scoring`, `sections`), and the
`PAPERTERM_*` environment variables (`env`).

`config.py` parses and writes the config file from these declarations, `cli/parser.py` makes
the flags from them; nothing else lists a setting.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from functools import cache

from paperterm.io.env import ENV_VARS, EnvVar, env, env_table
from paperterm.settings.scoring import RESPONSE_FORMATS, ModelOptions, ScoringSettings
from paperterm.settings.sections import (
    WEBHOOK_FORMATS,
    ZOTERO_LIBRARY_TYPES,
    ZOTERO_TARGETS,
    BibtexConfig,
    Config,
    DeliveryConfig,
    ZoteroConfig,
    language_problem,
)
from paperterm.settings.spec import ConfigError, Declared, Spec, sections
from paperterm.settings.spec import declared as declared_in


def declared() -> Iterator[Declared]:
    """Every scoring setting, in declaration order."""
    return declared_in(ScoringSettings)


@cache
def every_setting(cls: type = Config, section_name: str = "") -> tuple[Declared, ...]:
    """Every setting of every section, in the config file's order."""
    subs = {name: (sub, inline) for name, sub, _, inline in sections(cls)}
    own = {d.name: d for d in declared_in(cls, section_name)}
    out: list[Declared] = []
    for f in fields(cls):
        if f.name in own:
            out.append(own[f.name])
        elif f.name in subs:
            sub, inline = subs[f.name]
            out += every_setting(sub, section_name if inline else f.name)
    return tuple(out)


def flags(command: str) -> list[Declared]:
    """The settings the command line of `command` ("tui": the reader) takes as flags."""
    return [d for d in every_setting() if command in d.spec.commands]


__all__ = [
    "ENV_VARS", "RESPONSE_FORMATS", "WEBHOOK_FORMATS", "ZOTERO_LIBRARY_TYPES", "ZOTERO_TARGETS",
    "BibtexConfig", "Config", "ConfigError", "Declared", "DeliveryConfig", "EnvVar",
    "ModelOptions", "ScoringSettings", "Spec", "ZoteroConfig", "declared", "env", "env_table",
    "every_setting", "flags", "language_problem",
]
