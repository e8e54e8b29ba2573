"""The play aids at work in the real VASSAL engine (`java/PlayAids.java` drives it): moved marks and trails
cleared as the turn tracker enters the phases the game's data names, and a saved game that keeps every
piece's definition, face and position through a module update and the engine's Refresh Counters."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import PX_PER_HEX, Built, load
from play_driver import compile_driver, missing, play

from authoring.pipeline.module import write_module as build_module

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing() is not None, reason=f"the engine driver cannot run: {missing()}"),
]  # slow: the VASSAL engine


@pytest.fixture(scope="session")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_driver(tmp_path_factory.mktemp("playaids"))


def expected_moved(game, phases: list[str]) -> list[dict[str, str]]:
    """Each side's Moved flag after each step: set before the first, cleared from a phase that clears it on."""
    moved = {s.name: "true" for s in game.sides}
    out = [dict(moved)]
    for phase in phases[1:]:
        for action in game.phase_actions:
            if action.phase == phase:
                moved.update({game.side(side).name: "false" for side in action.clear_moved})
        out.append(dict(moved))
    return out


def test_entering_a_phase_clears_the_moved_marks_and_trails_of_the_sides_its_data_names(
    built: Built, driver: Path
) -> None:
    game = built.game
    if not game.phase_actions:
        pytest.skip(f"{game.id} declares no phase actions")
    setup = f"setup_{sorted(game.scenarios)[0]}.vsav"
    report = play(driver, "phases", str(built.path), setup, str(len(game.phases)))  # a whole turn round
    assert report["problems"] == []
    steps = report["steps"]
    assert set(steps[0]["moved"]) == {s.name for s in game.sides}  # a unit of each side moved on the main map
    phases = [s["phase"] for s in steps]
    assert phases[: len(game.phases)] == list(game.phases) and phases[-1] == game.phases[0]
    assert [s["moved"] for s in steps] == expected_moved(game, phases)
    for step in steps:  # a trail holds where the unit started and where it went, until its side's clear
        for side, trail in step["trail"].items():
            points = int(trail.split(";")[2])
            assert points == (2 if step["moved"][side] == "true" else 1), (step["phase"], side, trail)


def test_a_saved_game_keeps_each_piece_through_a_module_update_and_refresh(tmp_path: Path, driver: Path) -> None:
    """Save a game in the engine with units moved and flipped; add and remove counters and change a unit
    side's name (its units' access and loss-box commands change); rebuild; refresh the saved game in the engine: every piece has the new module's definition
    of its own counter, and its slot id, face and position from the saved game."""
    game = load("bfm")
    v1 = build_module(game, tmp_path / "v1", px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache")
    setup = f"setup_{sorted(game.scenarios)[0]}.vsav"
    saved = play(driver, "save", str(v1), setup, str(tmp_path / "game.vsav"))
    assert saved["problems"] == [] and saved["moved"] >= 10 and saved["flipped"] >= 10
    placed = {u for s in game.scenarios.values() for p in s.setup for u in p.units}
    gone = next(cid for cid in sorted(game.counters) if cid not in placed)
    template = game.counters[sorted(placed)[0]]
    counters = {
        **{k: v for k, v in game.counters.items() if k != gone},
        **{cid: replace(template, id=cid, designation=cid) for cid in ("aaa-new", "zzz-new")},
    }
    sides = tuple(replace(s, name=s.name + " (v2)") if s.id == "german" else s for s in game.sides)
    v2 = build_module(
        replace(game, counters=counters, sides=sides, version="1.1"),
        tmp_path / "v2",
        px_per_hex=PX_PER_HEX,
        cache_dir=tmp_path / "cache",
    )
    refreshed = play(driver, "refresh", str(v2), str(tmp_path / "game.vsav"))
    fresh = play(driver, "pieces", str(v2), _setup_file(v2, setup, tmp_path))
    assert refreshed["problems"] == [] and fresh["problems"] == []
    where = ("counter", "gpid", "map", "x", "y", "level")  # a marker placed at start may be on several hexes
    before = sorted(saved["pieces"], key=lambda p: [p[k] for k in where])
    after = sorted(refreshed["pieces"], key=lambda p: [p[k] for k in where])
    definitions = {p["counter"]: p["type"] for p in fresh["pieces"]}
    assert [[p[k] for k in where] for p in after] == [[p[k] for k in where] for p in before]
    assert [p["type"] for p in after] == [definitions[p["counter"]] for p in after]
    assert sum("(v2)" in p["type"] for p in after) > 10  # the refresh did bring the new definitions


def _setup_file(module: Path, name: str, tmp_path: Path) -> str:
    """A predefined set-up of `module`, copied out (the driver reads saved games from files)."""
    import zipfile

    out = tmp_path / f"fresh-{name}"
    with zipfile.ZipFile(module) as z:
        out.write_bytes(z.read(name))
    return str(out)


def test_hidden_back_units_show_only_their_back_to_a_player_of_no_side(
    built: Built, driver: Path, tmp_path: Path
) -> None:
    """Typhoon 11.1.6: the engine names a masked air unit or dummy by its back ("Air unit") to anyone not of
    its side (here: no side at all), and every other unit by its own name."""
    from authoring.vassal.pieces import hidden_back, unit_name

    game = built.game
    hidden = {c.id for c in game.counters.values() if hidden_back(game, c)}
    if not hidden:
        pytest.skip(f"{game.id} has no unit with a hidden back")
    setup = f"setup_{sorted(game.scenarios)[0]}.vsav"
    report = play(driver, "pieces", str(built.path), _setup_file(built.path, setup, tmp_path))
    assert report["problems"] == []
    masked = [p for p in report["pieces"] if p["counter"] in hidden]
    assert masked and all(p["name"] == "Air unit" for p in masked)
    assert all(
        p["name"].startswith(unit_name(game, game.counters[p["counter"]]))  # "+ (half strength)" may follow
        for p in report["pieces"]
        if p["counter"] not in hidden
    )


def test_a_player_moves_and_commands_only_the_units_of_the_side_he_joined(driver: Path, tmp_path: Path) -> None:
    """Restricted access once the game has started: the German player cannot move or eliminate a Soviet unit,
    but moves and eliminates his own; the other side's clear button (pressed when his phase change enters a
    Soviet movement phase) still clears the Soviet moved marks, which sit outside the restriction."""
    from authoring.vassal.aids import clear_key
    from authoring.vassal.pieces import ELIMINATE

    game = load("bfm")
    module = build_module(game, tmp_path / "m", px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache")
    report = play(
        driver,
        "access",
        str(module),
        f"setup_{sorted(game.scenarios)[0]}.vsav",
        "German",
        ELIMINATE,
        clear_key(game, "soviet"),
    )
    assert report["problems"] == [] and report["my_side"] == "German"
    assert report["restricted_movement"] == {"Soviet": "true", "German": "false"}
    assert report["map_after_eliminate"] == {"Soviet": "Map", "German": "Eliminated"}
    assert report["moved_after_clear"] == {"Soviet": "false", "German": "true"}


def test_the_inventory_window_groups_each_unit_by_side_type_and_hex_of_its_setup(built: Built, driver: Path) -> None:
    """The engine's inventory tree (its window opened as the toolbar button does): every unit the set-up puts
    in a hex is one leaf, named as the unit, under its side, its unit type, the main map and its hex."""
    from authoring.vassal.pieces import hidden_back, unit_name

    game = built.game
    scenario = sorted(game.scenarios)[0]
    report = play(driver, "inventory", str(built.path), f"setup_{scenario}.vsav")
    assert report["problems"] == []
    leaves = report["inventory"]
    types = {t.id: t.name for t in game.unit_types}
    expected = {
        unit: [game.side(game.counters[unit].side).name, types[game.counters[unit].type], "Map", p.label]
        for p in game.scenarios[scenario].setup
        if p.hex is not None
        for unit in p.units
        if not game.counters[unit].marker and not hidden_back(game, game.counters[unit])
    }
    assert expected
    seen = {leaf["counter"]: leaf for leaf in leaves if leaf["counter"] in expected}
    assert set(seen) == set(expected) and sum(leaf["counter"] in expected for leaf in leaves) == len(expected)
    assert {c: leaf["path"] for c, leaf in seen.items()} == expected
    named = [leaf["leaf"].startswith(unit_name(game, game.counters[c])) for c, leaf in seen.items()]
    assert all(named)  # "+ (half strength)" may follow, as the face shown says
