"""Issue 48: one home for what an output shows, how it is keyed and where it is kept (`authoring.products`).

Every key is the catalogue's: no module outside `authoring/products/` makes a key of its own from the recipe
or the fingerprint, so the build, the module and the preview cannot key one drawing differently; stage
digests name each file by its path in the project.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from authoring.products import catalogue
from authoring.products.stamps import Snapshot, inputs_digest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "authoring"
RECIPE = frozenset(
    {"digest", "digest_state", "canonical", "canonical_except", "code_version", "fingerprint", "with_options"}
)
"""The names a key is made with: only the products package uses them."""


def key_makers(paths) -> list[str]:
    """Imports of the key recipe (or of the fingerprint module) by modules outside `authoring/products/`."""
    bad = []
    for path in paths:
        if "products" in path.relative_to(PACKAGE).parts[:1]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("authoring"):
                names = [a.name for a in node.names if a.name in RECIPE]
                bad += [f"{path.relative_to(ROOT)}:{node.lineno}: {node.module}.{n}" for n in names]
            elif isinstance(node, ast.Import):
                bad += [
                    f"{path.relative_to(ROOT)}:{node.lineno}: {a.name}" for a in node.names if "fingerprint" in a.name
                ]
    return bad


def test_only_the_products_package_makes_keys():
    modules = sorted(p for p in PACKAGE.rglob("*.py") if "_bundled" not in p.parts)
    assert key_makers(modules) == []


def test_a_key_made_outside_the_catalogue_is_seen(tmp_path, monkeypatch):
    import sys

    fake = tmp_path / "authoring" / "serve" / "made.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("def f(game):\n    from authoring.products.keys import digest\n    return digest(game)\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "authoring")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert key_makers([fake]) == ["authoring/serve/made.py:2: authoring.products.keys.digest"]


def test_the_catalogue_names_every_product_and_its_key():
    names = {p.name for p in catalogue.PRODUCTS}
    wanted = {"counter face", "sheet page", "card page", "map image", "print tile", "board", "preview tile"}
    assert wanted | {"module member"} <= names
    assert all(getattr(catalogue, p.key.__name__) is p.key and p.shows and p.kept for p in catalogue.PRODUCTS)


def _project(root: Path) -> list[Path]:
    for rel, text in {"maps/g/a.yaml": "a: 1\n", "counters/g/units.yaml": "u: 2\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return [root / "maps/g/a.yaml", root / "counters/g/units.yaml"]


def test_a_stage_digest_names_files_by_their_path_in_the_project(tmp_path):
    """Two clones digest alike; a file moved to another folder under the same name is another input."""
    one, two = _project(tmp_path / "one"), _project(tmp_path / "elsewhere" / "two")
    first = inputs_digest(one, {"stage": "maps"}, Snapshot(), tmp_path / "one")
    assert inputs_digest(two, {"stage": "maps"}, Snapshot(), tmp_path / "elsewhere" / "two") == first
    moved = tmp_path / "one" / "maps" / "h" / "a.yaml"
    moved.parent.mkdir()
    shutil.move(one[0], moved)
    assert inputs_digest([moved, one[1]], {"stage": "maps"}, Snapshot(), tmp_path / "one") != first
