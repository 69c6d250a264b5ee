"""Layering: only paperterm.tui may import textual (domain code stays usable headless)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "paperterm"


def _imports(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


def test_only_tui_imports_textual():
    offenders = []
    files = sorted(SRC.rglob("*.py"))
    assert files
    for path in files:
        rel = path.relative_to(SRC)
        if rel.parts[0] == "tui":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name in _imports(tree):
            if name == "textual" or name.startswith("textual."):
                offenders.append(f"{rel}: imports {name}")
    assert not offenders, "\n".join(offenders)


def test_tui_is_actually_scanned():
    """Sanity check of the scanner itself: the TUI does import textual."""
    app = SRC / "tui" / "app.py"
    assert any(n.startswith("textual") for n in _imports(ast.parse(app.read_text("utf-8"))))
