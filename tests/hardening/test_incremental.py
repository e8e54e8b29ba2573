"""Issue 34: a stage whose data changed redraws only the outputs that show the change (`authoring.pipeline.incremental`).

One copy of Battle for Moscow with a second map ("east", a copy of the main map) is built, then built again
unchanged, after one counter's attack is edited, and after one hex of the east map is edited; a clean build
of the final data in a fresh folder gives the bytes every output must have. Files are told apart by inode
and modification time: a file written again (even with the same bytes) is a rewrite.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAME = "bfm"
BUILD = ("build", "all", GAME, "--jobs", "1", "--dpi", "72")
SOVIET_3 = (
    '{id: sov-3, side: soviet, type: infantry, size: army, designation: "3",\n'
    "     faces: [{state: full, values: {attack: 8, movement: 4}}, {state: half, values: {attack: 4, movement: 4}}]}"
)
"""One Soviet army, shown at half strength on the Soviet cards: its half attack is edited."""


pytestmark = pytest.mark.slow  # whole builds, again and again


def _project(dst: Path) -> Path:
    for part in ("counters", "maps", "scenarios"):
        shutil.copytree(ROOT / part / GAME, dst / part / GAME)
    main_map = dst / "maps" / GAME / "main.yaml"
    east = (
        main_map.read_text()
        .replace("\nid: main\n", "\nid: east\n")
        .replace("\nname: Battle for Moscow\n", "\nname: East\n")
    )
    (dst / "maps" / GAME / "east.yaml").write_text(east)
    return dst


def _build(project: Path, *extra: str) -> None:
    r = CliRunner().invoke(main, [*BUILD, "--project", str(project), *extra])
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output


def _files(project: Path) -> dict[str, tuple[int, int]]:
    """Every output of the game (stamps and the module's manifest left out): (inode, mtime_ns) by path."""
    folder = project / "build" / GAME
    out = {}
    for top, _dirs, names in os.walk(folder):
        for name in names:
            if not name.startswith(".") and not name.endswith(".manifest.json"):
                st = os.lstat(os.path.join(top, name))
                out[os.path.relpath(os.path.join(top, name), folder)] = (st.st_ino, st.st_mtime_ns)
    return out


def _rewritten(before: dict, after: dict) -> set[str]:
    return {k for k in after if before.get(k) != after[k]}


def _digests(project: Path) -> dict[str, str]:
    folder = project / "build" / GAME
    return {k: hashlib.sha256((folder / k).read_bytes()).hexdigest() for k in _files(project)}


@pytest.fixture(scope="module")
def steps(tmp_path_factory) -> dict:
    """The build folder's files after each step, and the clean build's bytes of the final data."""
    project = _project(tmp_path_factory.mktemp("incremental") / "project")
    _build(project)
    seen = {"first": _files(project)}
    _build(project)
    seen["unchanged"] = _files(project)
    counters = project / "counters" / GAME / "counters.yaml"
    assert SOVIET_3 in counters.read_text()
    counters.write_text(counters.read_text().replace(SOVIET_3, SOVIET_3.replace("{attack: 4,", "{attack: 5,")))
    _build(project)
    seen["counter"] = _files(project)
    east = project / "maps" / GAME / "east.yaml"
    east.write_text(east.read_text().replace('forest: [\n    "0201",', 'forest: [\n    "0101", "0201",'))
    _build(project)
    seen["map"] = _files(project)
    seen["incremental"] = _digests(project)
    clean = tmp_path_factory.mktemp("clean") / "project"
    for part in ("counters", "maps", "scenarios"):
        shutil.copytree(project / part / GAME, clean / part / GAME)
    _build(clean)
    seen["clean"] = _digests(clean)
    return seen


def test_unchanged_data_rewrites_nothing(steps: dict) -> None:
    assert steps["first"] == steps["unchanged"]


def test_a_counter_edit_redraws_only_what_shows_the_counter(steps: dict) -> None:
    changed = _rewritten(steps["unchanged"], steps["counter"])
    assert not {k for k in changed if k.startswith(("maps/", "charts/"))}, changed
    assert not {k for k in changed if k.startswith("cards/") and ".german." in k}, changed  # sov-3 is on no German card
    assert {"counters.bfm.letter.pdf", "bfm.vmod"} <= changed
    assert {
        f"cards/setup.{s}.soviet.{f}" for s in ("campaign", "seven-turn") for f in ("png", "letter.pdf", "a4.pdf")
    } <= changed


def test_a_map_edit_redraws_only_that_maps_files(steps: dict) -> None:
    changed = _rewritten(steps["counter"], steps["map"])
    assert {"maps/map-east.png", "maps/tiles-east.letter.pdf", "maps/tiles-east.a4.pdf"} <= changed, changed
    assert not {k for k in changed if "-main." in k}, changed
    assert not {k for k in changed if k.startswith(("cards/", "charts/")) or k.startswith("counters.")}, changed


def test_every_output_equals_a_clean_build_of_the_same_data(steps: dict) -> None:
    assert steps["incremental"].keys() == steps["clean"].keys()
    differ = sorted(k for k in steps["clean"] if steps["clean"][k] != steps["incremental"][k])
    assert not differ, differ
