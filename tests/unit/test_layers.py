"""The layout holds: Textual only in tui/, domain code free of cli/ and tui/, no import cycles,
small modules."""

from __future__ import annotations

import warnings

from support.sourcetree import MODULES, SRC, cycles, graph, without_package_exports
from support.sourcetree import imports as _imports

GRAPH = graph()


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


def test_no_import_cycles():
    """At run time (type-only imports: tests/unit/test_architecture.py)."""
    assert cycles(without_package_exports(GRAPH)) == []


def test_cycle_finder_finds_a_cycle():
    """The checker itself works: a made-up two-module cycle is reported."""
    graph = {"paperterm.a": {"paperterm.b"}, "paperterm.b": {"paperterm.c", "paperterm.a"},
             "paperterm.c": set()}
    assert cycles(graph) == [["paperterm.a", "paperterm.b"]]


SIZE_WARNING = 400  # lines: worth a look, split by cohesion if it holds two concerns
SIZE_CEILING = 800  # lines: no module this long holds one concern


def test_module_sizes():
    """A size warning, not a cap that forces splits by line count (issue 29): a module over
    SIZE_WARNING lines is reported as a warning; one over SIZE_CEILING fails."""
    long, too_long = [], []
    for path in MODULES.values():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        where = f"{path.relative_to(SRC)}: {lines} lines"
        if lines > SIZE_CEILING:
            too_long.append(where)
        elif lines > SIZE_WARNING:
            long.append(where)
    for where in long:
        warnings.warn(f"{where} (over {SIZE_WARNING}: does it hold one concern?)",
                      stacklevel=1)
    assert not too_long, "\n".join(too_long)


def test_the_scanner_sees_imports():
    """Sanity check of the scanner: the TUI imports textual, the CLI imports its session."""
    assert any(m.startswith("textual") for m in _imports(SRC / "tui" / "app.py"))
    assert "paperterm.cli.session" in GRAPH["paperterm.cli.score"]
