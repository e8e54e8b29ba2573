"""Issue 49: an incremental module build compresses only the members an edit changed; the others are copied
from the module it replaces as stored (its unchanged images without reading the image cache), and the module
is byte for byte a clean build's.

A copy of Battle for Moscow is built, then built again after one counter's strength is edited and after one
unit is moved in a scenario; after each, a clean build of the same data (no previous module) gives the bytes
the module must have, and the manifest names the members the zip writer compressed.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import PX_PER_HEX, ROOT

from authoring.load import discover, load_game
from authoring.model import Game
from authoring.pipeline.incremental import chart_files
from authoring.pipeline.module import write_module
from authoring.products.stamps import module_written
from authoring.progress import Recorder
from authoring.vassal.archive import WRITER

pytestmark = pytest.mark.slow  # whole module builds, again

GAME = "bfm"
SOVIET_3 = (
    '{id: sov-3, side: soviet, type: infantry, size: army, designation: "3",\n'
    "     faces: [{state: full, values: {attack: 8, movement: 4}}, {state: half, values: {attack: 4, movement: 4}}]}"
)
"""One Soviet army, at half strength in both scenarios: its half attack is edited."""
MOVED = ('{hex: "0508", units: [sov-50], state: half}', '{hex: "0608", units: [sov-50], state: half}')


def _load(project: Path) -> Game:
    result = load_game(next(f for f in discover(project) if f.id == GAME))
    assert result.game is not None and result.ok, [str(d) for d in result.diagnostics][:5]
    return result.game


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {info.filename: z.read(info) for info in z.infolist()}


def _compressed(module: Path) -> list[str]:
    return json.loads(module.with_name(module.name + ".manifest.json").read_text(encoding="utf-8"))["compressed"]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dst = tmp_path_factory.mktemp("members") / "project"
    for part in ("counters", "maps", "scenarios"):
        shutil.copytree(ROOT / part / GAME, dst / part / GAME)
    return dst


def _rebuild_and_compare(project: Path, tmp: Path, edit) -> tuple[set[str], set[str], list[str]]:
    """Build, edit, build again in place: (members whose bytes changed, members not images, the members the
    writer compressed), once the incremental module is checked against a clean build of the edited data."""
    out, cache = project / "build", project / "build" / ".cache"
    before = _members(write_module(_load(project), out, px_per_hex=PX_PER_HEX, cache_dir=cache))
    edit(project)
    notes = Recorder()
    module = write_module(_load(project), out, px_per_hex=PX_PER_HEX, cache_dir=cache, progress=notes)
    clean = write_module(_load(project), tmp / "clean", px_per_hex=PX_PER_HEX, cache_dir=tmp / "clean-cache")
    assert module.read_bytes() == clean.read_bytes()  # the same member order, stamps, compression and bytes
    after = _members(module)
    assert list(after) == list(_members(clean))
    changed = {name for name, data in after.items() if before.get(name) != data}
    plain = {name for name in after if not name.startswith("images/")}
    assert "copied from the previous module" in notes.notes[-1]
    unchanged_images = len([n for n in after if n.startswith("images/") and n not in changed])
    assert f"{unchanged_images} as the previous module holds them" in notes.notes[-1], notes.notes[-1]
    assert " 0 from cache" in notes.notes[-1]  # no image entry read: the changed ones drawn, the rest copied
    return changed, plain, _compressed(module)


def test_a_counter_edit_compresses_only_the_members_it_changed(project: Path, tmp_path: Path) -> None:
    counters = project / "counters" / GAME / "counters.yaml"
    changed, plain, compressed = _rebuild_and_compare(
        project, tmp_path, lambda p: _edit(counters, SOVIET_3, SOVIET_3.replace("{attack: 4,", "{attack: 5,"))
    )
    assert "buildFile.xml" in changed and any(n.startswith("images/") for n in changed), changed
    assert set(compressed) == changed & plain  # the rest: copied from the previous module, or made with its image
    assert "moduledata" not in compressed and len(compressed) < len(plain)


def test_a_unit_move_compresses_only_its_set_up(project: Path, tmp_path: Path) -> None:
    scenario = project / "scenarios" / GAME / "seven-turn.yaml"
    changed, plain, compressed = _rebuild_and_compare(project, tmp_path, lambda p: _edit(scenario, *MOVED))
    assert compressed == ["setup_seven-turn.vsav"] == sorted(changed & plain), changed


def test_a_module_written_elsewhere_is_no_source(project: Path, tmp_path: Path) -> None:
    module = write_module(_load(project), tmp_path, px_per_hex=PX_PER_HEX, cache_dir=project / "build" / ".cache")
    written = module_written(module, WRITER)
    assert written is not None and written[0] == module.read_bytes()
    assert written[1] and all(name.startswith("images/") for name in written[1])  # each image's key and page
    manifest = module.with_name(module.name + ".manifest.json")
    record = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.write_text(json.dumps({**record, "writer": "zlib 0.0 level 9"}), encoding="utf-8")
    assert module_written(module, WRITER) is None  # another zlib's streams would not be a clean build's


def test_a_unit_move_draws_no_chart_and_a_turn_edit_draws_them_again(project: Path, tmp_path: Path) -> None:
    """The charts show the tables and each scenario's turns, never its set-up (`catalogue.charts_key`)."""
    folder = tmp_path / "charts"
    drawn, kept = chart_files(_load(project), folder, [], force=False)
    assert drawn and not kept
    scenario = project / "scenarios" / GAME / "seven-turn.yaml"
    _edit(scenario, *(MOVED if MOVED[0] in scenario.read_text(encoding="utf-8") else MOVED[::-1]))
    again, kept = chart_files(_load(project), folder, drawn, force=False)
    assert again == [] and kept == sorted(drawn)  # nothing drawn: the files stand as they are
    _edit(scenario, "\nname: ", "\nname: The ")
    redrawn, kept = chart_files(_load(project), folder, drawn, force=False)
    assert sorted(redrawn) == sorted(drawn) and not kept
