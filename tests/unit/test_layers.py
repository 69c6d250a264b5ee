"""The layout holds: Textual only in tui/, domain code free of cli/ and tui/, no import cycles,
small modules."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "paperterm"
FILES = sorted(SRC.rglob("*.py"))


def _module(path: Path) -> str:
    parts = ["paperterm", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path) -> list[str]:
    """Every module imported at run time (module level and inside functions), absolute;
    `if TYPE_CHECKING:` blocks are skipped."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    out: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            out.append(base)
            out.extend(f"{base}.{a.name}" for a in node.names)  # `from pkg import module`
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


MODULES = {_module(p): p for p in FILES}
GRAPH = {
    name: {m for m in _imports(path) if m in MODULES and m != name}
    for name, path in MODULES.items()
}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ("cli", "tui") else "domain"


def test_only_tui_imports_textual():
    offenders = [
        f"{name}: imports {m}"
        for name, path in MODULES.items() if _layer(name) != "tui"
        for m in _imports(path) if m == "textual" or m.startswith("textual.")
    ]
    assert not offenders, "\n".join(offenders)


def test_domain_code_imports_neither_cli_nor_tui():
    offenders = [
        f"{name}: imports {m}"
        for name, deps in GRAPH.items() if _layer(name) == "domain" and name != "paperterm.__main__"
        for m in deps if _layer(m) != "domain"
    ]
    assert not offenders, "\n".join(offenders)


def test_tui_does_not_import_cli():
    offenders = [f"{name}: imports {m}" for name, deps in GRAPH.items()
                 if _layer(name) == "tui" for m in deps if _layer(m) == "cli"]
    assert not offenders, "\n".join(offenders)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def test_no_import_cycles():
    # a package's __init__ importing its own submodules is how packages export names;
    # a cycle is a submodule importing something that imports it back
    def own_package(a: str, b: str) -> bool:
        return b.startswith(a + ".") or a.startswith(b + ".")

    graph = {name: {m for m in deps if not (MODULES[name].name == "__init__.py"
                                            and own_package(name, m))}
             for name, deps in GRAPH.items()}
    assert _cycles(graph) == []


def test_cycle_finder_finds_a_cycle():
    """The checker itself works: a made-up two-module cycle is reported."""
    graph = {"paperterm.a": {"paperterm.b"}, "paperterm.b": {"paperterm.c", "paperterm.a"},
             "paperterm.c": set()}
    assert _cycles(graph) == [["paperterm.a", "paperterm.b"]]


def test_module_sizes():
    too_long = []
    for name, path in MODULES.items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        limit = 400 if _layer(name) == "tui" or name.startswith("paperterm.scoring") else 500
        if lines > limit:
            too_long.append(f"{path.relative_to(SRC)}: {lines} lines (limit {limit})")
    assert not too_long, "\n".join(too_long)


def test_the_scanner_sees_imports():
    """Sanity check of the scanner: the TUI imports textual, the CLI imports its session."""
    assert any(m.startswith("textual") for m in _imports(SRC / "tui" / "app.py"))
    assert "paperterm.cli.session" in GRAPH["paperterm.cli.score"]
