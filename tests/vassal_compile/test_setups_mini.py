"""The fast tier's look at a module's set-ups: the 30-hex test game (not a bundled one), its units at the faces
their `state` names (the bundled games' whole modules are checked in test_setups.py, in the slow tier)."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from lxml import etree
from module_reader import expected_hex_units, read_setup

from authoring.load import discover, load_game
from authoring.pipeline.module import write_module as build_module
from authoring.vassal import elements as el
from authoring.vassal.compile import setup_title
from authoring.vassal.pieces import MAIN_MAP

MINI = Path(__file__).resolve().parents[1] / "load" / "mini"


def test_each_unit_starts_at_the_face_its_state_names(tmp_path: Path) -> None:
    project = tmp_path / "mini"
    shutil.copytree(MINI, project)
    intro = project / "scenarios/mini/intro.yaml"
    intro.write_text(
        intro.read_text().replace('{hex: "0101", units: [red-1]}', '{hex: "0101", units: [red-1], state: reduced}')
    )
    game = load_game(discover(project)[0]).game
    scenario = game.scenarios["intro"]
    path = build_module(game, tmp_path / "out", px_per_hex=40)
    with zipfile.ZipFile(path) as z:
        tree = etree.fromstring(z.read("buildFile.xml"))
        files = {p.get("name"): p.get("file") for p in tree.iter(el.PREDEFINED_SETUP)}
        _, pieces, _ = read_setup(z, files[setup_title(game, scenario)])
    levels = {p.properties["CounterId"]: p.level for p in pieces if p.map == MAIN_MAP}
    assert levels == {"red-1": 2, "blue-1": 1}
    assert {(u, lv) for (u, _, lv) in expected_hex_units(game, scenario)} == set(levels.items())
