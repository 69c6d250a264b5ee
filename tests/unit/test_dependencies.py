"""Every third-party package the code imports is declared in pyproject; and every declared
package is imported, but for a few listed runtime dependencies that need not be."""

from __future__ import annotations

import ast
import re
import sys
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).parents[2]
SRC = ROOT / "src" / "paperterm"
# import name -> distribution name, for packages that may not be installed here (tomli is only
# installed on Python < 3.11); installed packages are looked up in their metadata
KNOWN = {"tomli": "tomli", "yaml": "PyYAML", "PIL": "Pillow", "bs4": "beautifulsoup4"}
# Declared runtime dependencies that src/paperterm need not import itself, and why. Only the
# check "declared -> imported" excuses them; "imported -> declared" has no exceptions.
MAY_BE_UNIMPORTED = {
    "openai": "litellm's OpenAI client: scoring may import it lazily to tune it, or not at all",
    "tomli": "tomllib's backport: imported on Python < 3.11 only",
}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported_modules() -> dict[str, set[str]]:
    """Top-level third-party modules imported anywhere in src/paperterm (also inside
    functions and try blocks), with the files that import them."""
    found: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "paperterm" and top not in sys.stdlib_module_names:
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {_normal(re.match(r"[A-Za-z0-9._-]+", req).group()) for req in project["dependencies"]}


@cache
def _installed() -> dict[str, list[str]]:
    return packages_distributions()


def _distributions(module: str) -> set[str]:
    installed = _installed().get(module, [])
    return {_normal(d) for d in installed} or {_normal(KNOWN.get(module, module))}


def test_the_scan_sees_real_imports():
    imported = _imported_modules()
    assert "lxml" in imported and "textual" in imported  # the scan itself works
    assert "pyzotero" in imported  # imported inside a function (zotero/web.py)
    assert "json" not in imported and "paperterm" not in imported


def test_every_imported_package_is_declared():
    declared = _declared()
    missing = {module: sorted(files) for module, files in _imported_modules().items()
               if not _distributions(module) & declared}
    assert missing == {}, f"imported but not in [project].dependencies: {missing}"


def test_every_declared_package_is_imported():
    used = {d for module in _imported_modules() for d in _distributions(module)}
    unused = _declared() - used - {_normal(name) for name in MAY_BE_UNIMPORTED}
    assert unused == set(), "declared in pyproject but never imported (nor in MAY_BE_UNIMPORTED)"

