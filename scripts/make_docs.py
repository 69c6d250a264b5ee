#!/usr/bin/env python3
"""Write the generated parts of the manual: docs/configuration.md's reference (from the
settings declarations) and its environment-variable table. `--check` exits 1 when a page is
out of date (a test runs it that way)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from paperterm.settings import env_table, every_setting
from paperterm.settings.reference import config_reference

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "configuration.md"
BLOCKS = {"reference": lambda: config_reference(every_setting()), "env": lambda: env_table() + "\n"}


def rendered(text: str) -> str:
    """`text` with every `<!-- generated: NAME -->...<!-- end -->` block written afresh."""
    def fill(m: re.Match[str]) -> str:
        return f"{m.group(1)}\n{BLOCKS[m.group(2)]()}{m.group(3)}"
    return re.sub(r"(<!-- generated: (\w+) [^>]*-->)\n.*?(<!-- end -->)", fill, text, flags=re.S)


def main() -> int:
    text = PAGE.read_text(encoding="utf-8")
    new = rendered(text)
    if "--check" in sys.argv[1:]:
        if new != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run scripts/make_docs.py")
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
