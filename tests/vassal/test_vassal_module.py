"""A hand-built module loaded by the real VASSAL engine (vassal-check): it must load clean."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
import vassal_sample_module as sample
from lxml import etree

CHECKER = Path(__file__).resolve().parents[2] / ".." / "shared" / "tools" / "vassal-check" / "vassal-check"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHECKER.exists(), reason="../shared/tools/vassal-check not found: the real-engine check cannot run"
    ),
]  # slow: the VASSAL engine


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, dict[str, Any]]:
    """Build once, check once (the engine takes seconds): (module path, exit code, report)."""
    module, extra = sample.write_sample_module(tmp_path_factory.mktemp("vassal"))
    run = subprocess.run([str(CHECKER), str(module), str(extra)], capture_output=True, text=True, timeout=300)
    return module, run.returncode, json.loads(run.stdout)


def test_engine_loads_module_without_errors_or_warnings(built: tuple[Path, int, dict[str, Any]]) -> None:
    _, code, report = built
    assert (code, report["errors"], report["warnings"]) == (0, [], [])
    assert report["ok"] is True


def test_engine_built_every_component(built: tuple[Path, int, dict[str, Any]]) -> None:
    counts = built[2]["counts"]
    assert {
        k: counts[k]
        for k in (
            "maps",
            "hex_grids",
            "grid_numberings",
            "piece_slots",
            "prototypes",
            "predefined_setups",
            "dice_buttons",
            "turn_trackers",
            "chart_windows",
        )
    } == {
        "maps": 3,
        "hex_grids": 1,
        "grid_numberings": 1,
        "piece_slots": len(sample.UNITS),
        "prototypes": 1,
        "predefined_setups": 1,
        "dice_buttons": 2,
        "turn_trackers": 1,
        "chart_windows": 1,
    }


def test_every_piece_decodes_canonically(built: tuple[Path, int, dict[str, Any]]) -> None:
    definitions = built[2]["piece_definitions"]
    assert len(definitions) == len(sample.UNITS) + 1
    assert all(d["canonical"] and d["ok"] for d in definitions), definitions
    prototype = next(d for d in definitions if d["kind"] == "Prototype")
    assert prototype["traits"] == [
        "ReportState(report;)",
        "SendToLocation(sendto;)",
        "MovementMarkable(markmoved;)",
        "Clone(clone;)",
        "Delete(delete;)",
        "Marker(mark;)",
        "BasicPiece",
    ]


def test_setup_pieces_land_on_intended_hexes(built: tuple[Path, int, dict[str, Any]]) -> None:
    (setup,) = built[2]["setups"]
    assert setup["ok"] and setup["pieces_outside_boards"] == 0
    located = {p["name"]: (p["map"], p["location"]) for p in setup["pieces"]}
    assert located == {u.name: (sample.MAIN_MAP, sample.LOCATION_PREFIX + u.label) for u in sample.UNITS}
    assert located["Blue Infantry"][1] == "Hex 0203"  # leading zero kept


def test_hostile_piece_name_survives_xml_and_codec(built: tuple[Path, int, dict[str, Any]]) -> None:
    module, _, report = built
    names = {d["name"]: d["piece_name"] for d in report["piece_definitions"] if d["kind"] == "PieceSlot"}
    assert names[sample.HOSTILE_NAME] == sample.HOSTILE_NAME
    with zipfile.ZipFile(module) as z:
        slots = etree.fromstring(z.read("buildFile.xml")).iter("VASSAL.build.widget.PieceSlot")
        assert sample.HOSTILE_NAME in {slot.get("entryName") for slot in slots}


def test_dead_pile_regions_name_locations(built: tuple[Path, int, dict[str, Any]]) -> None:
    (game,) = built[2]["saved_games"]
    assert game["ok"]
    assert [(p["name"], p["map"], p["location"]) for p in game["pieces"]] == [
        ("Red Infantry", sample.DEAD_MAP, "Red dead")
    ]


def test_module_bytes_are_reproducible(built: tuple[Path, int, dict[str, Any]], tmp_path: Path) -> None:
    again, _ = sample.write_sample_module(tmp_path)
    assert again.read_bytes() == built[0].read_bytes()
