"""`export --update`: refresh the fields paperterm owns in an existing entry, keep the user's.

paperterm owns the identifiers and links it writes (eprint, archivePrefix, primaryClass,
eprinttype, eprintclass, doi, url, year, month). Every other field the user added (note, file,
keywords, groups, abstract...) is kept as written. Title, author and journal are text the user
may have corrected: when theirs differs from arXiv's, theirs is kept and a warning names the
entry (delete the field and update again to take arXiv's). The entry type is kept unless it
is one paperterm writes itself (misc, article).
"""

from __future__ import annotations

import re

from paperterm.outputs.bibtex.bibfile import Block, field_text

_USER_TEXT = ("title", "author", "journal")  # corrected by hand more often than not
_LINE = re.compile(r"^  (\S+)\s*= (.*?),?$")


def _norm(raw: str) -> str:
    return " ".join(field_text(raw).split())


def _fields(built: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for line in built.rstrip("\n").split("\n")[1:-1]:
        m = _LINE.match(line)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def updated_entry(block: Block, built: str, nl: str, previous: str | None = None,
                  ) -> tuple[str, list[str]]:
    """The text of `block` refreshed from paperterm's `built` entry, and warnings.
    `previous`: the entry as built from the paper's earlier version (a revision): a title,
    author or journal still as arXiv had it then is arXiv's, and takes the new version's."""
    kind = re.match(r"@(\w+)\{", built)
    assert kind is not None
    fields = _fields(built)
    before = {name.lower(): _norm(value) for name, value in _fields(previous or "")}
    warnings: list[str] = []
    ours = {name.lower() for name, _ in fields}
    out: list[tuple[str, str]] = []
    for name, value in fields:
        old = block.fields.get(name.lower())
        if (name.lower() in _USER_TEXT and old is not None and _norm(old) != _norm(value)
                and _norm(old) != before.get(name.lower())):
            out.append((name, old))
            warnings.append(f"{block.key}: kept your {name} (it differs from arXiv's; delete "
                            "the field and update again to take arXiv's)")
        else:
            out.append((name, value))
    out += [(name, raw) for name, raw in block.fields.items() if name not in ours]
    entry_kind = block.kind if block.kind not in ("misc", "article") else kind.group(1)
    width = max(len(name) for name, _ in out)
    body = f",{nl}".join(f"  {name.ljust(width)} = {value}" for name, value in out)
    return f"@{entry_kind}{{{block.key},{nl}{body}{nl}}}", warnings
