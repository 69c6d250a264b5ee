"""The shape issue 19 asks for, read from the source with `ast` (without importing it): few
base classes, no import circle (type-only imports included), the App class named only in
tui/app.py, at most two `call_from_thread`, Textual's private API only in tui/compat.py, no
store that may be None, and the layer contracts in pyproject.toml covering every module.

A check that fails until another part of issue 19 lands is marked xfail(strict=True): once
it passes, the unexpected pass fails the suite and the mark has to go."""

from __future__ import annotations

import ast
from collections.abc import Iterable

import pytest
from support.sourcetree import (
    MODULES,
    SRC,
    cycles,
    graph,
    imports,
    shortest_cycle,
    tree,
    without_package_exports,
)

from paperterm.settings.tomlread import loads

MAX_BASES = 2  # issue 29: repositories compose their queries instead of stacking mixins
MAX_CALL_FROM_THREAD = 2
APP_CLASS = "PapertermApp"
APP_MODULE = "paperterm.tui.app"
COMPAT_MODULE = "paperterm.tui.compat"

# module -> (its file, as shown in a failure, and its syntax tree)
Code = dict[str, tuple[str, ast.Module]]
ALL: Code = {name: (str(path.relative_to(SRC.parent)), tree(path))
             for name, path in MODULES.items()}
TUI: Code = {name: code for name, code in ALL.items() if name.startswith("paperterm.tui")}


def _where(file: str, node: ast.AST) -> str:
    return f"{file}:{getattr(node, 'lineno', 0)}"


def _walk(body: ast.AST) -> list[ast.AST]:
    """Every node under `body`, in source order."""
    return sorted(ast.walk(body), key=lambda n: (getattr(n, "lineno", 0),
                                                 getattr(n, "col_offset", 0)))


def _report(what: str, offenders: list[str]) -> str:
    return f"{len(offenders)} {what}:\n" + "\n".join(offenders)


# -- (a) base classes ------------------------------------------------------------------------

def many_bases(code: Code, limit: int = MAX_BASES) -> list[str]:
    """Each class with more than `limit` base classes, with its bases."""
    return [f"{_where(file, node)}: {node.name} has {len(node.bases)} bases: "
            + ", ".join(ast.unparse(b) for b in node.bases)
            for file, body in code.values() for node in _walk(body)
            if isinstance(node, ast.ClassDef) and len(node.bases) > limit]


def test_no_class_has_more_than_two_bases():
    offenders = many_bases(ALL)
    assert not offenders, _report(f"classes with more than {MAX_BASES} bases", offenders)


# -- (b) import circles, type-only imports included -----------------------------------------

def circles(g: dict[str, set[str]]) -> list[str]:
    """Each import circle of `g` (a module -> its imports): its modules and one shortest
    circle through them."""
    return [f"{len(c)} modules ({', '.join(c)}); e.g. {' -> '.join(shortest_cycle(g, c))}"
            for c in cycles(g)]


def test_no_import_circle_counting_type_only_and_function_level_imports():
    offenders = circles(without_package_exports(graph(type_checking=True)))
    assert not offenders, _report("import circles", offenders)


# -- (c) the App class ----------------------------------------------------------------------

def names_in(module: ast.Module) -> Iterable[tuple[ast.AST, str]]:
    """Every name the code uses or defines: names, attributes, imports, definitions and
    the names in string annotations (`"PapertermApp"`); not comments nor docstrings."""
    for node in _walk(module):
        if isinstance(node, ast.Name):
            yield node, node.id
        elif isinstance(node, ast.Attribute):
            yield node, node.attr
        elif isinstance(node, ast.alias):
            yield node, node.name.rpartition(".")[2]
            if node.asname:
                yield node, node.asname
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node, node.name
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                quoted = ast.parse(node.value.strip(), mode="eval")
            except SyntaxError:
                continue  # prose, not a forward reference
            for inner in ast.walk(quoted):
                if isinstance(inner, ast.Name):
                    yield node, inner.id


def naming(code: Code, name: str, allowed: str) -> list[str]:
    """Each place in `code`, other than module `allowed`, that names `name`."""
    return [_where(file, node) for module, (file, body) in code.items() if module != allowed
            for node, used in names_in(body) if used == name]


def test_only_tui_app_names_the_app_class():
    offenders = naming(TUI, APP_CLASS, APP_MODULE)
    assert not offenders, _report(f"places outside tui/app.py naming {APP_CLASS}", offenders)


# -- (d) call_from_thread -------------------------------------------------------------------

def calls_from_thread(code: Code) -> list[str]:
    """Each use of `call_from_thread` in `code`: an attribute read (`app.call_from_thread`),
    not a declaration."""
    return [_where(file, node) for file, body in code.values() for node in _walk(body)
            if isinstance(node, ast.Attribute) and node.attr == "call_from_thread"
            and isinstance(node.ctx, ast.Load)]


def test_at_most_two_call_from_thread():
    offenders = calls_from_thread(ALL)
    assert len(offenders) <= MAX_CALL_FROM_THREAD, _report(
        f"uses of call_from_thread (at most {MAX_CALL_FROM_THREAD})", offenders)


# -- (e) Textual's private API --------------------------------------------------------------

def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def defined_names(code: Code) -> set[str]:
    """The names paperterm's own code defines: functions, classes, attributes and variables
    it assigns, arguments, import aliases."""
    out: set[str] = set()
    for _, body in code.values():
        for node in _walk(body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                out.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.add(node.id)
            elif isinstance(node, ast.arg):
                out.add(node.arg)
            elif isinstance(node, ast.alias) and node.asname:
                out.add(node.asname)
    return out


def textual_private_uses(code: Code, ours: set[str], allowed: str = COMPAT_MODULE) -> list[str]:
    """Each use of Textual's private API in `code` (but module `allowed`): an import of a
    private Textual module or name; `._x` on a name imported from Textual or on `super()`;
    `._x` on anything else when paperterm defines no `_x`; a `_on_*` method (Textual's
    private message handlers)."""
    found = []
    for module, (file, body) in code.items():
        if module == allowed:
            continue
        from_textual: set[str] = set()
        for node in _walk(body):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "textual":
                assert node.module is not None
                from_textual.update(a.asname or a.name for a in node.names)
                bad = [a.name for a in node.names if _private(a.name)]
                if any(map(_private, node.module.split("."))) or bad:
                    names = ", ".join(a.name for a in node.names)
                    found.append(f"{_where(file, node)}: from {node.module} import {names}")
            elif isinstance(node, ast.Import):
                found += [f"{_where(file, node)}: import {a.name}" for a in node.names
                          if a.name.split(".")[0] == "textual"
                          and any(map(_private, a.name.split(".")))]
        for node in _walk(body):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                owner = node.value
                on_textual = isinstance(owner, ast.Name) and owner.id in from_textual
                on_super = (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
                            and owner.func.id == "super")
                if on_textual or on_super or node.attr not in ours:
                    found.append(f"{_where(file, node)}: {ast.unparse(node)}")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    node.name.startswith("_on_")):
                found.append(f"{_where(file, node)}: def {node.name} (a private handler)")
    return found


def test_textual_private_api_only_in_tui_compat():
    offenders = textual_private_uses(TUI, defined_names(ALL))
    assert not offenders, _report("uses of Textual's private API outside tui/compat.py",
                                  offenders)


# -- (f) a store is never None -------------------------------------------------------------

STORE_TYPES = frozenset({"Store", "Papers", "Marks", "ScoreCache", "Library", "Enrichment",
                         "Deliveries", "ZoteroRecords", "HealthCheck"})


def _union(node: ast.expr) -> list[ast.expr]:
    """The members of a type (`A | B | None`, `Optional[A]`; a quoted one parsed)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        node = ast.parse(node.value, mode="eval").body
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union(node.left) + _union(node.right)
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and node.value.id == "Optional"):
        return [*_union(node.slice), ast.Constant(None)]
    return [node]


def optional_stores(code: Code) -> list[str]:
    """Each parameter typed as a store or repository that may be None (`Store | None`,
    `Optional[Store]`) and each `... store is (not) None` check: a stand-in
    (`Store.unavailable`) takes None's place."""
    found = []
    for file, body in code.values():
        for node in _walk(body):
            if isinstance(node, ast.arg) and node.annotation is not None:
                members = _union(node.annotation)
                if (any(isinstance(m, ast.Constant) and m.value is None for m in members)
                        and any(isinstance(m, ast.Name) and m.id in STORE_TYPES
                                for m in members)):
                    found.append(f"{_where(file, node)}: {node.arg}: "
                                 f"{ast.unparse(node.annotation)}")
            elif (isinstance(node, ast.Compare) and len(node.ops) == 1
                  and isinstance(node.ops[0], (ast.Is, ast.IsNot))
                  and isinstance(node.comparators[0], ast.Constant)
                  and node.comparators[0].value is None
                  and ast.unparse(node.left).rpartition(".")[2].lstrip("_") == "store"):
                found.append(f"{_where(file, node)}: {ast.unparse(node)}")
    return found


def test_no_store_may_be_none():
    offenders = optional_stores(ALL)
    assert not offenders, _report("stores that may be None", offenders)


# -- (g) one door: the reader reaches the domain through the services (issue 29) -------------

READER = "paperterm.tui"
COMMAND_LINE = "paperterm.cli"  # held to the same door (issue 29)
# what the reader reaches only through services/ (the shared vocabulary, day/, settings/,
# text/, io/ and outputs/ it may import)
BEHIND_THE_DOOR = ("paperterm.store", "paperterm.scoring", "paperterm.sources")


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def past_the_door(g: dict[str, set[str]], package: str = READER) -> list[str]:
    """Each import by a module of `package` (the reader, or the command line; `g`: a module
    -> its imports, type-only and function-level ones included) of the store, the scorers or
    the sources."""
    return sorted(f"{name} imports {m}" for name, deps in g.items() if _within(name, package)
                  for m in deps if any(_within(m, door) for door in BEHIND_THE_DOOR))


@pytest.mark.parametrize("package", [READER, COMMAND_LINE])
def test_the_reader_and_the_command_line_reach_the_domain_only_through_the_services(package):
    """The reader and the command line keep to one door (issue 29): their types and flows
    come from services/ (function-level and type-only imports counted)."""
    offenders = past_the_door(graph(type_checking=True), package)
    assert not offenders, _report("imports past the services (route them through a "
                                  "services/ module)", offenders)


@pytest.mark.parametrize("package", [READER, COMMAND_LINE])
def test_the_one_door_contract_is_declared_for_lint_imports(package):
    """The same rule for `lint-imports` in CI: a forbidden contract from the reader and
    from the command line to each package behind the door."""
    config = loads((SRC.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    door = [c for c in contracts if c["type"] == "forbidden"
            and c["source_modules"] == [package]
            and set(BEHIND_THE_DOOR) <= set(c["forbidden_modules"])]
    assert len(door) == 1, f"no forbidden contract from {package} to " + ", ".join(
        BEHIND_THE_DOOR)


# -- the layer contracts cover every module ------------------------------------------------

def test_the_domain_contract_names_every_domain_module():
    """import-linter checks only the modules a contract names: the domain contract must name
    every top-level module but the command line, the reader and `python -m paperterm`."""
    config = loads((SRC.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    domain = next(c for c in contracts if "textual" in c.get("forbidden_modules", [])
                  and "paperterm.tui" in c["forbidden_modules"])
    top = {".".join(m.split(".")[:2]) for m in MODULES if m != "paperterm"}
    expected = top - {"paperterm.cli", "paperterm.tui", "paperterm.__main__"}
    assert set(domain["source_modules"]) == expected, (
        f"missing: {sorted(expected - set(domain['source_modules']))}; "
        f"not modules: {sorted(set(domain['source_modules']) - expected)}")


def _layer_names(layer: str) -> set[str]:
    return {"paperterm." + name.strip() for name in layer.split("|")}


def test_the_layers_contract_places_every_top_level_module():
    """The layers contract (docs/architecture.md) names every top-level module and package
    but `python -m paperterm`, each once: a new folder must say where it stands."""
    config = loads((SRC.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")
    named = [m for layer in layers["layers"] for m in sorted(_layer_names(layer))]
    top = {".".join(m.split(".")[:2]) for m in MODULES if m != "paperterm"}
    expected = top - {"paperterm.__main__"}
    assert sorted(named) == sorted(expected), (
        f"missing: {sorted(expected - set(named))}; not modules: {sorted(set(named) - expected)}")


MAX_ROOT_MODULES = 5


def test_the_package_root_holds_at_most_five_modules():
    """The shared vocabulary only (models, arxiv ids, enrichment signals) and the package's
    own `__init__` and `__main__`: everything else lives in a folder of its concern."""
    root = sorted(p.name for p in SRC.glob("*.py"))
    assert "models.py" in root
    assert len(root) <= MAX_ROOT_MODULES, root


# -- the checkers find what they look for ---------------------------------------------------

def _code(**modules: str) -> Code:
    """Made-up modules: paperterm.<name> -> its source."""
    return {f"paperterm.{name.replace('__', '.')}": (f"{name}.py", ast.parse(text))
            for name, text in modules.items()}


def test_past_the_door_finds_module_type_only_and_function_level_imports():
    source = ("from typing import TYPE_CHECKING\n"
              "from paperterm.services.days import LoadRequest\n"
              "from paperterm.day.scores import ShownScore\n"
              "from paperterm import models\n"
              "from paperterm.store import Store\n"
              "if TYPE_CHECKING:\n"
              "    from paperterm.sources.loader import LoadError\n"
              "def f():\n"
              "    from paperterm.scoring.local import rank_locally\n"
              "    import paperterm.sources.daynav\n")
    made_up = {m for m in imports(SRC / "tui" / "made_up.py", type_checking=True,
                                  module=ast.parse(source)) if m in MODULES}
    g = {"paperterm.tui.made_up": made_up,
         "paperterm.services.days": {"paperterm.sources.loader"}}  # below the door: allowed
    assert past_the_door(g) == ["paperterm.tui.made_up imports paperterm.scoring.local",
                                "paperterm.tui.made_up imports paperterm.sources.daynav",
                                "paperterm.tui.made_up imports paperterm.sources.loader",
                                "paperterm.tui.made_up imports paperterm.store"]


def test_past_the_door_checks_the_package_it_is_given():
    g = {"paperterm.cli.made_up": {"paperterm.store", "paperterm.services.storage"},
         "paperterm.tui.made_up": {"paperterm.sources.loader"}}
    assert past_the_door(g, COMMAND_LINE) == ["paperterm.cli.made_up imports paperterm.store"]
    assert past_the_door(g) == ["paperterm.tui.made_up imports paperterm.sources.loader"]


def test_many_bases_lists_the_class_and_its_bases():
    code = _code(a="class Few(A, B): pass\nclass Many(A, B, C): pass\n")
    assert many_bases(code) == ["a.py:2: Many has 3 bases: A, B, C"]


def test_a_type_only_import_closes_a_circle():
    a = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                  "    from paperterm.b import B\n")
    assert "paperterm.b" not in imports(SRC / "a.py", module=a)
    assert "paperterm.b" in imports(SRC / "a.py", type_checking=True, module=a)
    g = {"paperterm.a": {"paperterm.b"}, "paperterm.b": {"paperterm.c"},
         "paperterm.c": {"paperterm.a"}, "paperterm.d": {"paperterm.a"}}
    assert circles(g) == ["3 modules (paperterm.a, paperterm.b, paperterm.c); "
                          "e.g. paperterm.a -> paperterm.b -> paperterm.c -> paperterm.a"]


def test_naming_finds_the_app_class_in_code_and_string_annotations_only():
    code = _code(tui__app="class PapertermApp: pass\n",
                 tui__x='"""Docs may say PapertermApp."""\n'
                        "# so may comments: PapertermApp\n"
                        "from paperterm.tui.app import PapertermApp\n"
                        'def f(app: "PapertermApp") -> None:\n'
                        '    cast("PapertermApp", app)\n')
    assert naming(code, APP_CLASS, APP_MODULE) == ["tui__x.py:3", "tui__x.py:4", "tui__x.py:5"]


def test_calls_from_thread_counts_calls_not_declarations():
    code = _code(a="class A:\n    call_from_thread: object\n"
                   "    def f(self):\n        self.app.call_from_thread(print)\n"
                   "        post = self.call_from_thread\n")
    assert calls_from_thread(code) == ["a.py:4", "a.py:5"]


def test_textual_private_uses_are_found_outside_compat_only():
    source = ("from textual.widgets._footer import FooterKey\n"
              "from textual.keys import _character_to_key\n"
              "from textual.command import CommandPalette\n"
              "class P(CommandPalette):\n"
              "    def _on_mount(self, event): pass\n"
              "    def _ours(self):\n"
              "        self._mine = CommandPalette._GROUP\n"
              "        super()._ours()\n"
              "        self.app._refresh_filter()\n"
              "        return self._mine\n")
    code = _code(tui__x=source, tui__compat=source)
    ours = defined_names(code)
    assert textual_private_uses(code, ours) == [
        "tui__x.py:1: from textual.widgets._footer import FooterKey",
        "tui__x.py:2: from textual.keys import _character_to_key",
        "tui__x.py:5: def _on_mount (a private handler)",
        "tui__x.py:7: CommandPalette._GROUP",
        "tui__x.py:8: super()._ours",
        "tui__x.py:9: self.app._refresh_filter",
    ]


def test_optional_stores_finds_optional_annotations_and_none_checks():
    code = _code(a="def f(store: Store | None, s: 'Optional[ScoreCache]', ok: Store,\n"
                   "      other: int | None, load: Callable[[Store], int] | None) -> None:\n"
                   "    if store is None or self._store is not None or cache is None:\n"
                   "        pass\n")
    assert optional_stores(code) == ["a.py:1: store: Store | None",
                                     "a.py:1: s: 'Optional[ScoreCache]'",
                                     "a.py:3: store is None", "a.py:3: self._store is not None"]
