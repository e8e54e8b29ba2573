"""The main map's range aids, the turn briefings and old saved games, in the real VASSAL engine
(`java/MapAids.java` drives it; `vassal-check` loads saved games): the LOS thread reads the range in hexes, a
unit's Show range shades the hexes within its range value, entering a turn posts its schedule and lights its
box, and a game saved with a counter the data later drops loads with no error."""

from __future__ import annotations

import json
import subprocess
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import PX_PER_HEX, Built, load
from play_driver import compile_driver, missing, play
from test_engine_check import CHECKER

from authoring.model import reach_values
from authoring.pipeline.module import write_module as build_module
from authoring.vassal.art import KEPT_IMAGES
from authoring.vassal.briefing import turn_briefing
from authoring.vassal.pieces import SHOW_RANGE
from authoring.vassal.setups import turn_box
from authoring.vassal.turns import turn_label

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing() is not None, reason=f"the engine driver cannot run: {missing()}"),
]  # slow: the VASSAL engine


@pytest.fixture(scope="session")
def map_aids(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_driver(tmp_path_factory.mktemp("mapaids"), "MapAids.java", "PlayAids.java")


def aids(classes: Path, *args: str) -> dict:
    report = play(classes, *args, main="MapAids")
    assert report["problems"] == []
    return report


def first_scenario(built: Built):
    return built.game.scenarios[sorted(built.game.scenarios)[0]]


def middle(board):
    """The map's hexes and the one nearest their middle (axial coordinates, cube distance)."""
    hexes = sorted(board.hexes, key=lambda h: (h.q, h.r))
    mq, mr = sum(h.q for h in hexes) / len(hexes), sum(h.r for h in hexes) / len(hexes)
    centre = min(hexes, key=lambda h: abs(h.q - mq) + abs(h.r - mr) + abs(h.q + h.r - mq - mr))
    return hexes, centre


def test_the_los_thread_reads_n_between_two_hexes_n_apart(built: Built, map_aids: Path) -> None:
    """From the hex in the middle of the scenario's first map to hexes 1, 2, 5 and as far as the map goes
    (the first and last of each ring): the range the thread shows and reports is the count of hexes, not of
    pixels."""
    game, scenario = built.game, first_scenario(built)
    board = game.maps[scenario.maps[0]]
    hexes, centre = middle(board)
    pairs = []
    for n in (1, 2, 5, max(centre.distance(h) for h in hexes)):
        far = [h for h in hexes if centre.distance(h) == n]
        assert far, f"no hex {n} from {board.label(centre)} on {board.id}"
        pairs += [(board.label(centre), board.label(far[0]), n), (board.label(centre), board.label(far[-1]), n)]
    report = aids(
        map_aids, "los", str(built.path), f"setup_{scenario.id}.vsav", *[x for a, b, _ in pairs for x in (a, b)]
    )
    assert [r["range"] for r in report["los"]] == [str(n) for _, _, n in pairs], pairs


def test_show_range_shades_the_hexes_within_the_units_range_value(built: Built, map_aids: Path) -> None:
    """Each kind of reach a unit has (Typhoon: an HQ's command range 4, artillery's support range 2): put on
    an interior hex and shown, its area holds every hex within that many hexes and none farther."""
    game, scenario = built.game, first_scenario(built)
    reach = reach_values(game)
    if not reach:
        pytest.skip(f"{game.id} declares no value with a reach in hexes")
    board = game.maps[scenario.maps[0]]
    hexes, centre = middle(board)
    units: dict[int, str] = {}
    for counter in sorted(game.counters.values(), key=lambda c: c.id):
        values = counter.faces[0].values if counter.faces else {}
        if not counter.marker and reach[0] in values:
            units.setdefault(int(values[reach[0]]), counter.id)
    assert len(units) >= 2  # Typhoon: HQs (4) and artillery (2)
    for radius, unit in sorted(units.items()):
        near = [h for h in hexes if centre.distance(h) <= radius + 1]
        report = aids(
            map_aids,
            "reach",
            str(built.path),
            f"setup_{scenario.id}.vsav",
            unit,
            board.label(centre),
            SHOW_RANGE,
            *[board.label(h) for h in near],
        )
        assert report["has_area"] and report["shown"], unit
        expected = sorted(board.label(h) for h in near if centre.distance(h) <= radius)
        assert sorted(report["inside"]) == expected, (unit, radius)


def test_entering_a_turn_posts_its_schedule_and_lights_its_box(built: Built, map_aids: Path) -> None:
    """Every scenario: the set-up posts turn 1's briefing and lights the Turn 1 box; stepping the tracker
    through turns 2 and 3, entering each posts exactly that scenario's briefing of the turn (its arrivals,
    withdrawals, turn-record values, weather and special rules) and lights that turn's box alone."""
    game = built.game
    steps = len(game.phases) * 2 if game.phases else 2
    for sid in sorted(game.scenarios):
        scenario = game.scenarios[sid]
        if len(scenario.turns) < 3:
            continue
        report = aids(map_aids, "turns", str(built.path), f"setup_{sid}.vsav", str(steps))
        assert report["setup_chat"] == "* " + turn_briefing(game, scenario, scenario.turns[0])
        assert report["highlighted_at_start"] == [turn_box(scenario.turns[0].turn)]
        entered = [s for i, s in enumerate(report["steps"]) if not game.phases or s["phase"] == game.phases[0]]
        assert [s["turn"] for s in entered] == [turn_label(t) for t in scenario.turns[1:3]]
        for step, turn in zip(entered, scenario.turns[1:3]):
            briefing = "* " + turn_briefing(game, scenario, turn)
            assert [line for line in step["chat"] if line.startswith("* Turn")] == [briefing]
            assert step["highlighted"] == [turn_box(turn.turn)]
        others = [s for s in report["steps"] if s not in entered]
        assert all(not any(line.startswith("* Turn") for line in s["chat"]) for s in others)


def _check(module: Path, *saves: Path) -> dict:
    run = subprocess.run([str(CHECKER), str(module), *map(str, saves)], capture_output=True, text=True, timeout=900)
    assert run.returncode in (0, 1), run.stderr[-2000:]
    return json.loads(run.stdout)


@pytest.mark.skipif(not CHECKER.exists(), reason="../shared/tools/vassal-check not found")
@pytest.mark.parametrize("game_id", ["bfm", "1941", "typhoon"])
def test_a_game_saved_with_a_counter_the_data_later_drops_loads_clean(game_id: str, tmp_path: Path) -> None:
    """Build the module, keep its first set-up as a saved game, drop one of the units it places from the
    data and build again into the same folder: the engine loads the old save with the new module with no
    error (no "Image not found"), the dropped unit's art being kept; a third build keeps it on."""
    game = load(game_id)
    out, cache = tmp_path / "out", tmp_path / "cache"
    v1 = build_module(game, out, px_per_hex=PX_PER_HEX, cache_dir=cache)
    scenario = game.scenarios[sorted(game.scenarios)[0]]
    saved = tmp_path / "old.vsav"
    with zipfile.ZipFile(v1) as z:
        saved.write_bytes(z.read(f"setup_{scenario.id}.vsav"))
    gone = next(u for p in scenario.setup for u in p.units)
    v2 = build_module(_without(game, gone, "1.1"), out, px_per_hex=PX_PER_HEX, cache_dir=cache)
    report = _check(v2, saved)
    assert report["errors"] == [] and report["ok"] is True
    with zipfile.ZipFile(v2) as z:
        kept = z.read(KEPT_IMAGES).decode().split("\n")
    assert kept and all(gone in name for name in kept)  # its faces' art, nothing else
    v3 = build_module(_without(game, gone, "1.2"), out, px_per_hex=PX_PER_HEX, cache_dir=cache)
    with zipfile.ZipFile(v3) as z:
        assert z.read(KEPT_IMAGES).decode().split("\n") == kept
        assert all(f"images/{name}" in z.namelist() for name in kept)


def _without(game, unit: str, version: str):
    """`game` with the counter `unit` removed from the data and from every scenario."""

    def scenario(s):
        placements = tuple(replace(p, units=tuple(u for u in p.units if u != unit)) for p in s.setup)
        return replace(s, setup=tuple(p for p in placements if p.units))

    counters = {k: v for k, v in game.counters.items() if k != unit}
    return replace(
        game, counters=counters, scenarios={k: scenario(s) for k, s in game.scenarios.items()}, version=version
    )
