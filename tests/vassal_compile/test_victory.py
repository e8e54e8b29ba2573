"""The victory aids in the built module, read back from buildFile.xml and the saved set-ups: one global
property per VP counter and per loss count that counts every elimination, the units' commands that add to it,
the Victory window with its scoreboard in every set-up, Typhoon's Victory Plans as a face-down deck, the box
groups' empty boxes and the city control markers at start."""

from __future__ import annotations

import zipfile
from collections import Counter

import pytest
from conftest import Built
from module_reader import read_setup

from authoring.vassal import elements as el
from authoring.vassal.codec import decode, parse_add_piece_command, unnest
from authoring.vassal.compile import setup_title, track_board_name
from authoring.vassal.draws import deck_box, mask_image
from authoring.vassal.pieces import ELIMINATE, MAIN_MAP, TRACK_MAP, loss_commands
from authoring.vassal.setups import pool_box
from authoring.vassal.victory import VICTORY_MAP, loss_property, vp_property

pytestmark = pytest.mark.slow  # whole module builds of the bundled games


def _setups(built: Built):
    files = {p.get("name"): p.get("file") for p in built.tree.iter(el.PREDEFINED_SETUP)}
    with zipfile.ZipFile(built.path) as archive:
        for scenario in built.game.scenarios.values():
            yield scenario, read_setup(archive, files[setup_title(built.game, scenario)])


def _traits(slot_text: str) -> list[str]:
    return unnest(parse_add_piece_command(slot_text)[1].type)


def test_one_global_property_per_vp_counter_and_per_loss_count_of_every_elimination(built: Built) -> None:
    game = built.game
    containers = list(built.tree.iter(el.GLOBAL_PROPERTIES))
    assert len(containers) <= 1  # the engine allows one per module
    names = {p.get("name"): p for c in containers for p in c.iter(el.GLOBAL_PROPERTY)}
    for track in game.victory.points:
        assert names[vp_property(track)].get("initialValue") == str(track.start)
    for loss in game.victory.losses:
        assert (loss_property(loss) in names) == loss.ever, loss.id
    assert game.victory.losses  # every bundled game counts its losses


def test_each_unit_a_count_of_every_elimination_concerns_adds_one_as_it_is_eliminated(built: Built) -> None:
    game = built.game
    slots = {s.get("gpid"): s.text for s in built.tree.iter(el.PIECE_SLOT) if s.getparent().tag != el.DRAW_PILE}
    eliminate = next(key for command, key, _ in loss_commands(game) if command == "Eliminate")
    assert eliminate == ELIMINATE
    for loss in game.victory.losses:
        wanted = {
            c.id
            for c in game.counters.values()
            if not c.marker and c.side == loss.side and (not loss.unit_types or c.type in loss.unit_types)
        }
        assert wanted, loss.id
        for text in slots.values():
            traits = _traits(text)
            setprop = [t for t in traits if t.startswith(f"setprop;{loss_property(loss)};")]
            mark = [t for t in traits if t.startswith("mark;") and loss_property(loss) in decode(t[5:], ",")]
            counter = _counter_id(text)
            if counter in wanted and loss.ever:
                assert len(setprop) == 1 and eliminate.replace(",", "\\,") in setprop[0], (loss.id, counter)
            elif counter in wanted:
                assert mark and not setprop, (loss.id, counter)
            else:
                assert not setprop and not mark, (loss.id, counter)


def _counter_id(slot_text: str) -> str | None:
    definition = parse_add_piece_command(slot_text)[1]
    for t, s in zip(unnest(definition.type), unnest(definition.state)):
        if t.startswith("mark;"):
            props = dict(zip(decode(t[5:], ","), decode(s, ",")))
            if "CounterId" in props:
                return props["CounterId"]
    return None


def test_every_set_up_puts_the_scoreboard_in_the_victory_window(built: Built) -> None:
    game = built.game
    windows = {m.get("mapName") for m in built.tree.iter(el.MAP)}
    assert VICTORY_MAP in windows
    expected = sorted([t.id for t in game.victory.points] + [x.id for x in game.victory.losses])
    for scenario, (boards, pieces, _) in _setups(built):
        assert boards[VICTORY_MAP] == [(VICTORY_MAP, 0, 0)]
        shown = sorted(p.properties["TrackId"] for p in pieces if p.map == VICTORY_MAP)
        assert shown == expected, scenario.id


def test_typhoon_victory_plans_are_a_face_down_shuffled_deck_masked_to_the_other_side(built: Built) -> None:
    game = built.game
    piles = list(built.tree.iter(el.DRAW_PILE))
    draws = [(s, d) for s in game.scenarios.values() for d in s.draws]
    assert len(piles) == len(draws)
    if not draws:
        pytest.skip(f"{game.id} has no secret draw")
    track = next(m for m in built.tree.iter(el.MAP) if m.get("mapName") == TRACK_MAP)
    for (scenario, draw), pile in zip(sorted(draws, key=lambda sd: sd[0].id), piles):
        assert pile.getparent() is track
        assert pile.get("owningBoard") == track_board_name(setup_title(game, scenario))
        assert (pile.get("faceDown"), pile.get("shuffle"), pile.get("allowSelect")) == ("Always", "Always", "false")
        slots = list(pile.iter(el.PIECE_SLOT))
        assert Counter(_counter_id(s.text) for s in slots) == Counter(
            {c: game.counters[c].quantity for c in draw.counters}
        )
        for s in slots:  # the mask: its side sees it, the other side the draw's name
            (obs,) = [t for t in _traits(s.text) if t.startswith("obs;")]
            fields = decode(obs[4:], ";")
            assert fields[1] == mask_image(draw) and fields[4] == draw.name
            assert fields[5] == "sides:" + game.side(draw.side).name
        board = next(b for b in track.iter(el.BOARD) if b.get("name") == pile.get("owningBoard"))
        regions = {r.get("name"): (r.get("originx"), r.get("originy")) for r in board.iter(el.REGION)}
        assert regions[deck_box(draw)] == (pile.get("x"), pile.get("y"))


def test_a_side_with_air_units_in_one_box_of_a_group_gets_the_whole_group(built: Built) -> None:
    game = built.game
    if not game.box_groups:
        pytest.skip(f"{game.id} declares no box group")
    track = next(m for m in built.tree.iter(el.MAP) if m.get("mapName") == TRACK_MAP)
    for scenario in game.scenarios.values():
        board = next(b for b in track.iter(el.BOARD) if b.get("name") == track_board_name(setup_title(game, scenario)))
        regions = {r.get("name") for r in board.iter(el.REGION)}
        for group in game.box_groups:
            for side in {o.side for o in scenario.off_map if o.box in group.boxes}:
                assert {pool_box(game, side, b) for b in group.boxes} <= regions, (scenario.id, side)
    gates = next(b for b in track.iter(el.BOARD) if "Gates" in b.get("name"))
    assert {"Axis Flown", "Axis Damaged", "Axis Destroyed", "Soviet Damaged"} <= {
        r.get("name") for r in gates.iter(el.REGION)
    }


def test_markers_at_start_are_on_their_hexes_in_every_set_up(built: Built) -> None:
    game = built.game
    for scenario, (_, pieces, _) in _setups(built):
        ids = {u for m in scenario.markers for u in m.units}
        expected = Counter(u for p in (*scenario.setup, *scenario.markers) if p.hex is not None for u in p.units)
        got = Counter(p.properties.get("CounterId") for p in pieces if p.map == MAIN_MAP)
        assert {u: got[u] for u in ids} == {u: expected[u] for u in ids}, scenario.id
    if game.id.startswith("bfm"):
        assert all(len(s.markers) == 9 for s in game.scenarios.values())


def test_help_lists_the_victory_conditions_with_their_rules(built: Built) -> None:
    game = built.game
    page = built.read("rules_summary.html").decode("utf-8")
    for condition in game.victory.conditions:
        assert f"({game.cite(condition.rule)})" in page
    for loss in game.victory.losses:
        assert loss.name in page
