"""The import contract: the package's layers import one way (files -> load -> model -> consumers).

Every module of `authoring/` belongs to a layer; a layer may import only the layers listed for it. Any import
counts, also one inside a function. A new top-level module must be placed in a layer here.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "authoring"

# The top-level modules and packages of authoring/, by layer.
LAYERS: dict[str, set[str]] = {
    "base": {
        "diagnostics",
        "hexgrid",
        "textcodec",
        "workbooks",
        "names",
        "lengths",
        "errors",
        "atomic",
        "safepath",
        "bundled",
        "progress",
        "runtime",
        "schema",
        "budget",
        "workers",
        "svgart",
        "svgfilters",
        "trust",
        "readfile",
        "interrupt",
    },
    "model": {"model"},
    "load": {"load"},
    "rules": {"rules"},
    "render": {"render"},
    "vassal": {"vassal"},
    "products": {"products"},
    "vmod": {"vmod"},
    "app": {
        "pipeline",
        "validate",
        "checking",
        "battles",
        "calibrate",
        "author",
        "cli",
        "serve",
        "command",
        "__init__",
    },
}
# What each layer may import (besides itself).
ALLOWED: dict[str, set[str]] = {
    "base": set(),
    "model": {"base"},
    "load": {"base", "model"},
    "rules": {"base", "model"},
    "render": {"base", "model"},
    "vassal": {"base", "model", "render"},
    "products": {"base", "model", "render", "vassal"},
    "vmod": {"base", "vassal"},
    "app": set(LAYERS),
}


def layer_of(top: str) -> str | None:
    return next((name for name, members in LAYERS.items() if top in members), None)


def imports(path: Path) -> list[tuple[str, int]]:
    """The `authoring` modules `path` imports (any import statement, anywhere in the file), with line numbers."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "authoring":
                found += [(f"authoring.{a.name}", node.lineno) for a in node.names]
            elif node.module.startswith("authoring."):
                found.append((node.module, node.lineno))
        elif isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names if a.name.startswith("authoring.")]
    return found


def top_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    return rel.parts[0]


def upward_imports(paths) -> list[str]:
    bad = []
    for path in paths:
        mine = layer_of(top_of(path))
        for module, line in imports(path):
            theirs = layer_of(module.split(".")[1])
            if theirs is not None and theirs != mine and theirs not in ALLOWED.get(mine, set()):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {mine} imports {module} ({theirs})")
    return bad


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_bundled" not in p.parts)


def test_every_module_is_in_a_layer():
    unplaced = sorted({top_of(p) for p in _modules()} - set().union(*LAYERS.values()))
    assert not unplaced, f"place these in a layer of tests/hardening/test_layers.py: {unplaced}"


def test_no_layer_imports_upward():
    assert upward_imports(_modules()) == []


def test_an_upward_import_is_seen(tmp_path, monkeypatch):
    """The check itself: a rules module importing the loader (even inside a function) is reported."""
    fake = tmp_path / "authoring" / "rules" / "made.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("def f():\n    from authoring.load.context import Ctx\n    return Ctx\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "authoring")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert upward_imports([fake]) == ["authoring/rules/made.py:2: rules imports authoring.load.context (load)"]


def private_imports(paths) -> list[str]:
    """Imports of another module's private names (`from authoring.x import _name`)."""
    bad = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("authoring"):
                bad += [
                    f"{path.relative_to(ROOT)}:{node.lineno}: {node.module}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
    return bad


def test_no_module_imports_another_ones_private_names(tmp_path):
    assert private_imports(_modules()) == []
    made = PACKAGE / "render" / "made_for_test.py"
    try:
        made.write_text("from authoring.render.maps.draw import _secret\n")
        assert private_imports([made]) == ["authoring/render/made_for_test.py:1: authoring.render.maps.draw._secret"]
    finally:
        made.unlink()
