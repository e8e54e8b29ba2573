"""No module-level mutable state in the build path (issue 34): what a build's stages and their forked workers
share is passed to them (`build.BuildContext`, `workers.Workers`), never left in a module for a worker to
find. Nothing is excused in these modules: a table of constants is a `MappingProxyType` or a tuple.

Found by reading the source (ast): a `global` statement; a module-level name bound to a dict, list or set
(a literal, a comprehension, or a call such as `dict()` or `defaultdict()`), to a `ContextVar` or a
`threading.local()` (state by another name); a module-level name bound twice.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "authoring"
BUILD_PATH = ("build", "workers.py", "runtime.py", "progress.py", "render", "vassal")
"""The build's own package, the pool and tuning it runs on, and the drawing it calls."""
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
    return found


def _build_path() -> list[Path]:
    files: list[Path] = []
    for part in BUILD_PATH:
        path = PACKAGE / part
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


def test_the_build_path_has_no_module_level_mutable_state():
    assert [f for path in _build_path() for f in module_state(path)] == []


LEFT = frozenset(
    {
        "authoring/author/formatdoc.py: WHERE is mutable",
        "authoring/author/formatdoc.py: _SCALARS is mutable",
        "authoring/author/import_vmod.py: __all__ is mutable",
        "authoring/author/templates.py: FILES is mutable",
        "authoring/author/vmod_common.py: _ART_TYPES is mutable",
        "authoring/author/yamlblock.py: _WORDS is mutable",
        "authoring/budget.py: IMAGE_MAX_SIDE is mutable",
        "authoring/cli/__init__.py: __all__ is mutable",
        "authoring/diagnostics/__init__.py: __all__ is mutable",
        "authoring/diagnostics/format.py: RENDERERS is mutable",
        "authoring/diagnostics/format.py: _SARIF_LEVEL is mutable",
        "authoring/diagnostics/limits.py: _NOUN is mutable",
        "authoring/errors.py: _FAULTS is mutable",
        "authoring/hexgrid/__init__.py: __all__ is mutable",
        "authoring/hexgrid/coords.py: DIRECTION_NAMES is mutable",
        "authoring/hexgrid/coords.py: _DIRECTION_OF is mutable",
        "authoring/hexgrid/coords.py: _LONG_NAMES is mutable",
        "authoring/hexgrid/coords.py: __all__ is mutable",
        "authoring/hexgrid/grid.py: _SHIFTS is mutable",
        "authoring/hexgrid/grid.py: __all__ is mutable",
        "authoring/hexgrid/labels.py: __all__ is mutable",
        "authoring/hexgrid/layout.py: _CORNER_UNIT is mutable",
        "authoring/hexgrid/layout.py: __all__ is mutable",
        "authoring/hexgrid/multimap.py: __all__ is mutable",
        "authoring/hexgrid/registration.py: __all__ is mutable",
        "authoring/hexgrid/vassal.py: __all__ is mutable",
        "authoring/lengths.py: _PER_INCH is mutable",
        "authoring/load/__init__.py: __all__ is mutable",
        "authoring/load/project.py: _CASCADE is mutable",
        "authoring/load/resolve_art.py: _SVG_UNIT is mutable",
        "authoring/load/resolve_game.py: _TYPE_KEYS is mutable",
        "authoring/load/resolve_scenario.py: __all__ is mutable",
        "authoring/load/source.py: _BOOL is mutable",
        "authoring/load/source.py: _KIND_TAGS is mutable",
        "authoring/load/source.py: _NULL is mutable",
        "authoring/load/source.py: _STD_TAGS is mutable",
        "authoring/load/zeros.py: __all__ is mutable",
        "authoring/model/__init__.py: __all__ is mutable",
        "authoring/rules/__init__.py: __all__ is mutable",
        "authoring/rules/aspects.py: ASPECTS is mutable",
        "authoring/rules/aspects.py: CODE_MEANINGS is mutable",
        "authoring/rules/aspects.py: NARROWERS is mutable",
        "authoring/rules/codes.py: MEANING_TEXT is mutable",
        "authoring/rules/mix.py: _ORDER is mutable",
        "authoring/rules/registry.py: CODES is mutable",
        "authoring/rules/registry.py: GAME_RULE_TYPES is mutable",
        "authoring/rules/registry.py: GENERIC_CHECKS is mutable",
        "authoring/rules/registry.py: RULE_TYPES is mutable",
        "authoring/rules/registry.py: TOPICS is mutable",
        "authoring/rules/schedule.py: _POOL_FIELDS is mutable",
        "authoring/rules/stacking.py: MODELS is mutable",
        "authoring/safepath.py: global _RECORD",
        "authoring/schema/documents.py: _ANNOTATIONS is mutable",
        "authoring/schema/fastcheck.py: _BOUNDS is mutable",
        "authoring/schema/fastcheck.py: _HANDLED_ELSEWHERE is mutable",
        "authoring/schema/fastcheck.py: _IGNORED is mutable",
        "authoring/schema/fastcheck.py: _LENGTHS is mutable",
        "authoring/schema/fastcheck.py: _PY_TYPES is mutable",
        "authoring/schema/fastcheck.py: _TYPE_EXPR is mutable",
        "authoring/serve/app.py: PAGES is mutable",
        "authoring/serve/lookup.py: IMMUTABLE is mutable",
        "authoring/textcodec.py: NAMES is mutable",
        "authoring/textcodec.py: _CODEC is mutable",
        "authoring/textcodec.py: _PUNCTUATION is mutable",
        "authoring/vmod/archive.py: _SVG_UNITS is mutable",
        "authoring/vmod/buildfile.py: _HEX_DEFAULTS is mutable",
        "authoring/vmod/buildfile.py: _NUMBERING_DEFAULTS is mutable",
    }
)
"""Outside the build path, what is left (issue 34 asked for the build first): constant tables still written
as dicts, lists and sets, and the loader's `safepath.recorded` list. Nothing may join this list, and an entry
that is fixed must leave it."""


def test_nothing_else_in_the_package_adds_module_level_mutable_state():
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        if "_bundled" not in path.parts:
            found |= {f"{f.split(':')[0]}: {f.split(': ', 1)[1]}" for f in module_state(path)}
    assert found == LEFT
    assert not {f for f in LEFT if f.startswith(tuple(f"authoring/{part}" for part in BUILD_PATH))}


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
    )
    found = {line.split(":", 1)[1] for line in module_state(made)}
    assert found == {
        "2: JOBS is mutable",
        "3: NAMES is mutable",
        "4: SEEN is mutable",
        "5: CURRENT is mutable",
        "9: LIMIT bound again",
        "11: global TABLE",
    }
