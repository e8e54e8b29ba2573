"""No module-level mutable state anywhere in the package (issue 34): what a build's stages and their forked
workers share is passed to them (`build.BuildContext`, `workers.Workers`), never left in a module for a worker
to find. Nothing is excused: a table of constants is a `MappingProxyType`, a tuple or a frozenset, `__all__`
a tuple, and a value worked out once is a `functools.cache` function's.

Found by reading the source (ast): a `global` statement; a module-level name bound to a dict, list or set
(a literal, a comprehension, or a call such as `dict()` or `defaultdict()`), to a `ContextVar` or a
`threading.local()` (state by another name); a module-level name bound twice; a class attribute bound to a
dict, list or set (one object for every instance, in every caller).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "authoring"
MUTABLE_CALLS = frozenset(
    {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray", "ContextVar", "local"}
)
MUTABLE_NODES = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)


def _module_statements(body: list[ast.stmt]):
    """Module-level statements, also inside module-level `if`, `try` and `with` blocks (not in functions or classes)."""
    for node in body:
        yield node
        for block in ("body", "orelse", "finalbody"):
            if isinstance(node, (ast.If, ast.Try, ast.With)) and hasattr(node, block):
                if block == "orelse" and _type_checking(node):
                    continue  # the run-time twin of a name the `if TYPE_CHECKING:` body declares
                yield from _module_statements(getattr(node, block))
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                yield from _module_statements(handler.body)


def _type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _is_mutable(value: ast.expr | None) -> bool:
    if isinstance(value, MUTABLE_NODES):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in MUTABLE_CALLS
    return False


def _bound(node: ast.stmt) -> tuple[list[str], ast.expr | None]:
    """The names a module-level statement binds and the value it binds them to."""
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets, value = [node.target], node.value
    else:
        return [], None
    names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    return names, value


def module_state(path: Path) -> list[str]:
    """`path:line: what` for every piece of module-level mutable state in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    found = [f"{rel}:{n.lineno}: global {', '.join(n.names)}" for n in ast.walk(tree) if isinstance(n, ast.Global)]
    seen: set[str] = set()
    for node in _module_statements(tree.body):
        names, value = _bound(node)
        for name in names:
            if name in seen or isinstance(node, ast.AugAssign):
                found.append(f"{rel}:{node.lineno}: {name} bound again")
            elif _is_mutable(value):
                found.append(f"{rel}:{node.lineno}: {name} is mutable")
            seen.add(name)
        if isinstance(node, ast.ClassDef):  # a class attribute is shared by the whole process too
            found += [f"{rel}:{s.lineno}: {node.name}.{n} is mutable" for s in node.body for n in _class_mutables(s)]
    return found


def _class_mutables(node: ast.stmt) -> list[str]:
    names, value = _bound(node)
    return names if _is_mutable(value) else []


def _package() -> list[Path]:
    """Every module of the package (not the data a wheel copies in as `authoring/_bundled/`)."""
    return [path for path in sorted(PACKAGE.rglob("*.py")) if "_bundled" not in path.relative_to(PACKAGE).parts]


def test_the_package_has_no_module_level_mutable_state():
    assert len(_package()) > 100  # the whole package is read, not an empty or misnamed folder
    assert [f for path in _package() for f in module_state(path)] == []


def test_the_check_sees_each_kind_of_state(tmp_path: Path):
    made = tmp_path / "made.py"
    made.write_text(
        "from contextvars import ContextVar\n"
        "JOBS = {}\n"  # 2
        "NAMES: list[str] = []\n"  # 3
        "SEEN = set()\n"  # 4
        "CURRENT = ContextVar('current')\n"  # 5
        "LIMIT = 3\n"
        "TABLE = (1, 2)\n"
        "if LIMIT:\n"
        "    LIMIT = 4\n"  # 9
        "def f():\n"
        "    global TABLE\n"  # 11
        "    TABLE = ()\n"
        "    local = {}\n"
        "    return local\n"
        "class Pool:\n"
        "    size: int = 2\n"
        "    seen: list[str] = []\n"  # 17
        "    def f(self):\n"
        "        self.jobs = {}\n"
    )
    found = {line.split(":", 1)[1] for line in module_state(made)}
    assert found == {
        "2: JOBS is mutable",
        "3: NAMES is mutable",
        "4: SEEN is mutable",
        "5: CURRENT is mutable",
        "9: LIMIT bound again",
        "11: global TABLE",
        "17: Pool.seen is mutable",
    }
