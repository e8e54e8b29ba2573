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


# --- process-wide caches (issue 48) ---------------------------------------------------------------
# A `functools` cache on a module-level function lives as long as the process: across `serve` and
# `watch` reloads and into forked workers. It may only be keyed by small immutable values (text,
# numbers, flags, tuples of them), which cannot go stale and hold nothing large alive, and return no
# dict, list or set that every caller would share. A memo of a game or of its parts belongs to an
# object with a lifetime (a check's board, a build, the preview server) that is passed explicitly.

SMALL = frozenset({"str", "int", "float", "bool", "bytes", "None", "Path", "type"})
MUTABLE_RETURNS = ("dict", "list", "set", "Dict", "List", "Set")
CACHES = frozenset({"cache", "lru_cache", "functools.cache", "functools.lru_cache"})

ALLOWED_CACHES = {
    "authoring/schema/documents.py:_documents": "the bundled schema documents, read once: package data a process "
    "never writes, read only by the module's own `_lookup` and never handed out",
}
"""Process-wide caches the rule above does not fit yet, each with why it cannot go stale."""


def _annotation_ok(node: ast.expr | None) -> bool:
    """An argument's annotation names small immutable values only (`str`, `int | None`, `tuple[str, ...]`)."""
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return node.value is None or node.value is Ellipsis
    if isinstance(node, ast.Name):
        return node.id in SMALL
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _annotation_ok(node.left) and _annotation_ok(node.right)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "tuple":
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return all(_annotation_ok(i) for i in items)
    return False


def process_caches(path: Path) -> list[str]:
    """`path:line: function(...)` for every module-level cached function whose arguments are not small
    immutable values or which returns a dict, list or set."""
    rel = (path.relative_to(ROOT) if path.is_relative_to(ROOT) else path).as_posix()
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        decorators = [d.func if isinstance(d, ast.Call) else d for d in node.decorator_list]
        if not any(ast.unparse(d) in CACHES for d in decorators):
            continue
        args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        bad = [a.arg for a in args if not _annotation_ok(a.annotation)]
        returns = ast.unparse(node.returns) if node.returns else ""
        mutable = any(returns == m or returns.startswith(m + "[") for m in MUTABLE_RETURNS)
        if (bad or mutable) and f"{rel}:{node.name}" not in ALLOWED_CACHES:
            why = (f"keyed by {', '.join(bad)}" if bad else "") + ("; " if bad and mutable else "")
            found.append(
                f"{rel}:{node.lineno}: {node.name} " + why + (f"returns a shared {returns}" if mutable else "")
            )
    return found


def test_process_wide_caches_are_keyed_by_small_immutable_values():
    assert [f for path in _package() for f in process_caches(path)] == []


def test_the_allowed_caches_exist():
    """An allow-list entry whose cache is gone (or renamed) is dropped, so it cannot excuse a new one."""
    cached = set()
    for path in _package():
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.decorator_list:
                cached.add(f"{rel}:{node.name}")
    assert sorted(set(ALLOWED_CACHES) - cached) == []


def test_the_cache_check_sees_a_game_keyed_cache(tmp_path: Path):
    made = tmp_path / "made.py"
    made.write_text(
        "from functools import cache, lru_cache\n"
        "@lru_cache(maxsize=16)\n"
        "def ids(game: Game, names: tuple[str, ...]) -> frozenset[str]: ...\n"  # 3
        "@cache\n"
        "def table(kind: str) -> dict[str, int]: ...\n"  # 5
        "@lru_cache(maxsize=64)\n"
        "def font(path: str, size: float, bold: bool = False, tag: str | None = None) -> Font: ...\n"
        "@cache\n"
        "def unit(orientation) -> Layout: ...\n"  # 9
        "def plain(game: Game) -> dict: ...\n"
    )
    found = {line.split(":", 1)[1] for line in process_caches(made)}
    assert found == {
        "3: ids keyed by game",
        "5: table returns a shared dict[str, int]",
        "9: unit keyed by orientation",
    }


def test_the_fingerprint_follows_a_saved_code_file(tmp_path: Path, monkeypatch):
    """A long `serve` keys its tiles on the code it runs now: saving a code file changes `fingerprint()`
    without a restart (it was worked out once per process)."""
    import shutil

    from authoring.products import fingerprint

    copy = tmp_path / "code"
    shutil.copytree(fingerprint.code_root(), copy, ignore=shutil.ignore_patterns("__pycache__", "_bundled"))
    monkeypatch.setattr(fingerprint, "code_root", lambda: copy)
    before = fingerprint.fingerprint()
    assert fingerprint.fingerprint() == before
    edited = copy / "render" / "counter_art.py"
    edited.write_bytes(edited.read_bytes() + b"\n# a saved edit\n")
    after = fingerprint.fingerprint()
    assert after != before
    assert after == fingerprint.fingerprint()
