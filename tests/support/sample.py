"""The bundled sample day, cut small for tests that need a few real papers."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"


def cut_feed(dest: Path, n: int) -> Path:
    """Write the sample day's RSS with only its first `n` items to `dest`."""
    tree = etree.parse(str(SAMPLE))
    for item in tree.findall("channel/item")[n:]:
        item.getparent().remove(item)
    tree.write(str(dest), xml_declaration=True, encoding="utf-8")
    return dest
