"""paperterm's source files read with `ast`: module names, the imports of each module and
the cycles among them (for the layout and architecture tests; no import of paperterm)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "paperterm"
FILES = sorted(SRC.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = ["paperterm", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in FILES}


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(path: Path, type_checking: bool = False,
            module: ast.Module | None = None) -> list[str]:
    """Every module `path` imports, absolute, at module level and inside functions; the
    imports under `if TYPE_CHECKING:` only with `type_checking`. `from pkg import x` gives
    both `pkg` and `pkg.x` (x may be a module). `module`: its syntax tree, if not the file's."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and not type_checking and is_type_checking(node):
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

    visit(module or tree(path))
    return out


def graph(type_checking: bool = False) -> dict[str, set[str]]:
    """Module -> the paperterm modules it imports."""
    return {
        name: {m for m in imports(path, type_checking) if m in MODULES and m != name}
        for name, path in MODULES.items()
    }


def without_package_exports(g: dict[str, set[str]]) -> dict[str, set[str]]:
    """`g` without a package's `__init__` importing its own submodules: that is how a package
    exports names; a cycle is a submodule importing something that imports it back."""
    def own_package(a: str, b: str) -> bool:
        return b.startswith(a + ".") or a.startswith(b + ".")

    return {name: {m for m in deps if not (MODULES.get(name, Path()).name == "__init__.py"
                                           and own_package(name, m))}
            for name, deps in g.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(g[v]):
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

    for v in sorted(g):
        if v not in index:
            strong(v)
    return found


def shortest_cycle(g: dict[str, set[str]], component: list[str]) -> list[str]:
    """One shortest import circle through the first module of `component` (a cycle found
    by `cycles`), as the modules in import order, the first repeated at the end."""
    start, members = component[0], set(component)
    paths = {start: [start]}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(g[v] & members):
            if w == start:
                return [*paths[v], start]
            if w not in paths:
                paths[w] = [*paths[v], w]
                todo.append(w)
    return component  # not reached for a strongly connected component
