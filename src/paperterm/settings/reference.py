"""The configuration reference (docs/configuration.md) written from the declarations, so the
manual can never list a key the parser does not know, or miss one it does."""

from __future__ import annotations

from paperterm.settings.spec import Declared, toml_value


def _meaning(d: Declared) -> str:
    spec = d.spec
    parts = [" ".join((spec.help or spec.before or spec.comment).split()).rstrip(":")]
    if spec.choices:
        parts.append("one of " + ", ".join(f"`{c}`" for c in spec.choices))
    elif spec.expected:
        parts.append(spec.expected)
    example = spec.example.split("  #")[0].strip()
    if example and example.strip('"') not in parts[0]:
        parts.append(f"e.g. `{example}`")
    return "; ".join(p for p in parts if p).replace("|", "\\|")


def _default(d: Declared) -> str:
    if d.default in (None, "", [], {}):
        return ""
    return f"`{toml_value(d.default)}`".replace("|", "\\|")


def config_reference(settings: tuple[Declared, ...]) -> str:
    """Markdown: one table per config section, one row per key (default, flag, meaning)."""
    by_section: dict[str, list[Declared]] = {}
    for d in settings:
        by_section.setdefault(d.section, []).append(d)
    out: list[str] = []
    for section, group in by_section.items():
        out += [f"### `[{section}]`" if section else "### Top level", "",
                "| key | default | flag | meaning |", "|---|---|---|---|"]
        for d in group:
            flag = f"`{d.flag}`" if d.spec.commands else ""
            out.append(f"| `{d.name}` | {_default(d)} | {flag} | {_meaning(d)} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"
