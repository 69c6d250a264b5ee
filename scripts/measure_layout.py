"""The layout's measures (issue 29), read from the source with `ast`, without importing it:

- modules in the package root (the shared vocabulary only: at most 5);
- import circles anywhere: the package (type-only and function-level imports counted) and
  the scripts in benchmarks/ and scripts/ among themselves;
- classes with more than 2 bases, framework classes (Textual's widgets, screens and
  messages, `Protocol`, `Generic`, `NamedTuple`) apart;
- the size warning: modules over 400 lines.

    python scripts/measure_layout.py          # prints each measure; exit 1 if one fails
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.sourcetree import (  # noqa: E402  (the tests' reader of the source tree)
    MODULES,
    SRC,
    cycles,
    graph,
    tree,
    without_package_exports,
)

MAX_ROOT = 5
MAX_BASES = 2
SIZE_WARNING = 400
FRAMEWORK = ("textual", "typing", "abc", "enum", "argparse")


def root_modules() -> list[str]:
    return sorted(p.name for p in SRC.glob("*.py"))


def script_graph() -> dict[str, set[str]]:
    """benchmarks/ and scripts/: each script -> the sibling scripts it imports."""
    out: dict[str, set[str]] = {}
    for folder in ("benchmarks", "scripts"):
        names = {p.stem for p in (ROOT / folder).glob("*.py")}
        for path in (ROOT / folder).glob("*.py"):
            found: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found |= {a.name for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module:
                    found.add(node.module)
            out[f"{folder}/{path.stem}"] = {f"{folder}/{n}" for n in found & names
                                           if n != path.stem}
    return out


def _framework_names(module: ast.Module) -> set[str]:
    """The names a module imports from a framework (Textual, typing, abc, enum)."""
    names: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in FRAMEWORK:
            names |= {a.asname or a.name for a in node.names}
    return names


def many_bases() -> list[str]:
    """Each class with more than MAX_BASES bases, none of them from a framework."""
    out = []
    for name, path in MODULES.items():
        module = tree(path)
        framework = _framework_names(module)
        for node in ast.walk(module):
            if not isinstance(node, ast.ClassDef) or len(node.bases) <= MAX_BASES:
                continue
            bases = [ast.unparse(b) for b in node.bases]
            if not any(b.split("[")[0].split(".")[0] in framework for b in bases):
                out.append(f"{name}.{node.name}({', '.join(bases)})")
    return out


def long_modules() -> list[str]:
    return [f"{name}: {n} lines" for name, path in sorted(MODULES.items())
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > SIZE_WARNING]


def main() -> int:
    root = root_modules()
    package_circles = cycles(without_package_exports(graph(type_checking=True)))
    script_circles = cycles(script_graph())
    bases = many_bases()
    long = long_modules()
    rows = [
        (f"modules in the package root (<= {MAX_ROOT})", len(root), len(root) <= MAX_ROOT,
         ", ".join(root)),
        ("import circles in the package", len(package_circles), not package_circles,
         "; ".join(" -> ".join(c) for c in package_circles)),
        ("import circles among benchmarks/ and scripts/", len(script_circles),
         not script_circles, "; ".join(" -> ".join(c) for c in script_circles)),
        (f"classes with more than {MAX_BASES} bases (frameworks apart)", len(bases), not bases,
         "; ".join(bases)),
        (f"modules over {SIZE_WARNING} lines (a warning)", len(long), True, "; ".join(long)),
        ("modules in the package", len(MODULES), True, ""),
    ]
    for what, n, ok, detail in rows:
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {n}" + (f"  ({detail})" if detail else ""))
    return 0 if all(ok for _, _, ok, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
