"""Issue 48, item 7: every module path the docs name exists, so a renamed or removed module cannot leave the
docs pointing at nothing. Read: README.md, ARCHITECTURE.md and docs/*.md; checked: the dotted names rooted in
one of the package's modules (`authoring.pipeline.module.write_module`, `render.print.sheets`,
`products.stamps.Snapshot`: the longest importable prefix, then each attribute) and the source paths
(`authoring/pipeline/`, `vassal/boards.py`, `runtime.py`: under the project or under `authoring/`)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "authoring"
DOCS = sorted([ROOT / "README.md", ROOT / "ARCHITECTURE.md", *(ROOT / "docs").glob("*.md")])
TOPS = sorted({p.stem for p in PACKAGE.iterdir() if not p.name.startswith(("_", ".")) and p.suffix in ("", ".py")})
"""The package's own modules and subpackages: a dotted name or a path starting with one of them is the code's."""
FILE_ENDINGS = frozenset({"py", "json", "md", "yaml", "yml", "csv", "txt", "vmod", "pdf", "png", "svg", "xml", "html"})
_TOP = "|".join(TOPS)
DOTTED = re.compile(rf"(?<![\w./<>-])((?:authoring\.)?(?:{_TOP})(?:\.[A-Za-z_]\w*)+)(?![\w/-])")
PATH = re.compile(r"(?<![\w./<>-])((?:authoring/)?(?:\w+/)*\w+\.py|authoring/[\w/]*)(?![\w/-]|\.\w)")
WHEEL_ONLY = frozenset({"authoring/_bundled/"})
"""Paths that exist only in a built wheel (`setup.py` copies the schemas and games there)."""


def _named(pattern: re.Pattern) -> list[tuple[str, str]]:
    """(where, name) of every match of `pattern` in the docs."""
    found = []
    for doc in DOCS:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            found += [(f"{doc.relative_to(ROOT)}:{number}", m.group(1)) for m in pattern.finditer(line)]
    return found


def _resolves(dotted: str) -> bool:
    """Whether `dotted` (with or without the leading `authoring.`) is a module, or a module's attribute chain."""
    parts = dotted.removeprefix("authoring.").split(".")
    for cut in range(len(parts), 0, -1):
        name = "authoring." + ".".join(parts[:cut])
        try:
            target = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and not name.startswith(exc.name):  # the module is there, its import fails
                raise
            continue
        for attr in parts[cut:]:
            if not hasattr(target, attr):
                return False
            target = getattr(target, attr)
        return True
    return False


def _code_path(path: str) -> bool:
    """Whether a path names the package's code (rather than a test or a bench file)."""
    return path.startswith("authoring/") or path.split("/")[0].removesuffix(".py") in TOPS


def test_the_docs_name_module_paths_at_all():
    """The scan finds the names it is meant to check (a broken pattern would pass every doc)."""
    dotted = {name for _, name in _named(DOTTED)}
    paths = {name for _, name in _named(PATH)}
    assert {"authoring.pipeline.module.write_module", "render.print.sheets", "products.stamps.Snapshot"} <= dotted
    assert {"authoring/diagnostics/codes.py", "authoring/pipeline/", "vassal/boards.py"} <= paths | {
        p.removeprefix("authoring/") for p in paths
    }


def test_every_dotted_module_name_in_the_docs_exists():
    wrong = [
        f"{where}: {name}"
        for where, name in _named(DOTTED)
        if name.rsplit(".", 1)[-1] not in FILE_ENDINGS and not _resolves(name)
    ]
    assert not wrong, "\n".join(wrong)


def test_every_source_path_in_the_docs_exists():
    wrong = [
        f"{where}: {path}"
        for where, path in _named(PATH)
        if _code_path(path) and path not in WHEEL_ONLY and not ((ROOT / path).exists() or (PACKAGE / path).exists())
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "name, there",
    [
        ("authoring.pipeline.module.write_module", True),
        ("authoring.vassal.compile.build_module", False),
        ("render.print.sheets", True),
        ("products.stamps.Snapshot", True),
        ("render.map_draw.render_map", False),
        ("render.charts", False),
        ("vassal.compile.no_such_function", False),
    ],
)
def test_a_dotted_name_resolves_only_when_its_module_and_attributes_exist(name, there):
    assert _resolves(name) is there
