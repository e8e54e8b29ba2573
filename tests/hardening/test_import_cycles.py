"""No two modules of the package import each other, directly or round a circle, at the top or inside a
function: data and calls flow one way (files -> load -> model -> rules/render/vassal/build -> cli)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "authoring"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The package module an imported name lives in (`a.b.c` may name `c` inside module `a.b`)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {m for t in targets if (m := _known(t, modules)) and m != name}
    return found


def cycles(modules: dict[str, Path]) -> list[list[str]]:
    """Every group of modules that reach each other (strongly connected, more than one module)."""
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def test_no_module_imports_round_a_circle():
    assert cycles(_modules()) == []


def test_a_circle_is_seen(tmp_path):
    pkg = tmp_path / "authoring"
    (pkg / "load").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "load" / "__init__.py").write_text("")
    (pkg / "load" / "a.py").write_text("def f():\n    from authoring.load.b import g\n")
    (pkg / "load" / "b.py").write_text("from . import a\n")
    modules = {}
    for path in pkg.rglob("*.py"):
        parts = list(path.relative_to(tmp_path).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    assert cycles(modules) == [["authoring.load.a", "authoring.load.b"]]
