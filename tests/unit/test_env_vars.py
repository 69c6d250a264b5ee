"""The PAPERTERM_* environment variables are declared once (paperterm.io.env), read only
through `env`, and documented in the manual's configuration page (docs/configuration.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from paperterm.io.env import env
from paperterm.settings import ENV_VARS, env_table

ROOT = Path(__file__).parents[2]
SRC = ROOT / "src" / "paperterm"
DECLARED = {v.name for v in ENV_VARS}
P = "PAPERTERM_"  # made-up names below are spelled with it, so that no scan finds them


def _is_environ_read(node: ast.AST) -> ast.AST | None:
    """The name argument of `os.environ.get(X)`, `os.getenv(X)`, `os.environ[X]`, `X in
    os.environ`, else None."""
    def is_environ(n: ast.AST) -> bool:
        return (isinstance(n, ast.Attribute) and n.attr == "environ") or (
            isinstance(n, ast.Name) and n.id == "environ")

    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        f = node.func
        if (f.attr in ("get", "pop", "setdefault") and is_environ(f.value)) or f.attr == "getenv":
            return node.args[0]
    if isinstance(node, ast.Subscript) and is_environ(node.value):
        return node.slice
    if isinstance(node, ast.Compare) and any(is_environ(c) for c in node.comparators):
        return node.left
    return None


def _paperterm_reads(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {t.id: n.value.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                 and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
                 for t in n.targets if isinstance(t, ast.Name)}
    found = []
    for node in ast.walk(tree):
        arg = _is_environ_read(node)
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            name = arg.value
        elif isinstance(arg, ast.Name):
            name = constants.get(arg.id, "")
        else:
            name = ast.unparse(arg) if arg is not None else ""
        if name.startswith("PAPERTERM_") or (arg is not None and "PAPERTERM" in name):
            found.append(f"{path.name}:{node.lineno}: {name}")
    return found


def test_no_module_but_settings_env_reads_a_paperterm_variable():
    reads = [r for p in sorted(SRC.rglob("*.py")) if p != SRC / "settings" / "env.py"
             for r in _paperterm_reads(p)]
    reads += [r for p in sorted((ROOT / "tests").rglob("*.py")) for r in _paperterm_reads(p)]
    assert reads == []


def test_the_scan_sees_a_direct_read(tmp_path):
    sample = tmp_path / "x.py"
    sample.write_text(f'import os\nNAME = "{P}HOME"\na = os.environ.get("{P}X")\n'
                      f"b = os.getenv(NAME)\nc = '{P}Y' in os.environ\n")
    assert len(_paperterm_reads(sample)) == 3


def test_every_paperterm_variable_named_anywhere_is_declared():
    named = set()
    for path in [*SRC.rglob("*.py"), *(ROOT / "tests").rglob("*.py"), ROOT / "README.md",
                 *(ROOT / "docs").glob("*.md"), *(ROOT / ".ci").glob("*")]:
        if path.is_file():
            named |= set(re.findall(r"\bPAPERTERM_[A-Z0-9_]*[A-Z0-9]\b",
                                    path.read_text(encoding="utf-8", errors="replace")))
    assert named - DECLARED == set()


def test_the_configuration_page_lists_every_variable():
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    section = page.split("\n## ", 1)[0]  # the page's opening section
    assert env_table() in section


def test_env_reads_only_declared_names_and_treats_empty_as_unset(monkeypatch):
    monkeypatch.setenv("PAPERTERM_TODAY", "")
    assert env("PAPERTERM_TODAY") is None
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-02-25")
    assert env("PAPERTERM_TODAY") == "2026-02-25"
    with pytest.raises(KeyError, match="not a declared"):
        env(P + "NO_SUCH_THING")
