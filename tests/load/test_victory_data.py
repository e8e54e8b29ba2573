"""Victory, box groups, secret draws and markers at start as the bundled games' data gives them, loaded into the
model with every value located (game.yaml `victory`, `box_groups`; scenario `draws`, `markers`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.load import discover, load_game
from authoring.model import Game

ROOT = Path(__file__).resolve().parents[2]


def _game(game_id: str) -> Game:
    result = load_game(next(f for f in discover(ROOT) if f.id == game_id))
    assert result.game is not None and result.ok, [str(d) for d in result.diagnostics][:5]
    return result.game


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {g: _game(g) for g in ("bfm", "1941", "typhoon")}


def test_1941_counts_the_losses_left_in_the_boxes_at_the_end_with_the_thresholds_of_18_2(games) -> None:
    losses = {x.side: x for x in games["1941"].victory.losses}
    assert {side: (x.ever, x.thresholds[0][0], x.rule) for side, x in losses.items()} == {
        "soviet": (False, 40, "18.2 B"),
        "axis": (False, 25, "18.2 B"),
    }
    assert all(x.loc is not None and x.loc.file.endswith("scenarios/1941/game.yaml") for x in losses.values())


def test_battle_for_moscow_counts_every_elimination_and_keeps_a_vp_counter_per_side(games) -> None:
    v = games["bfm"].victory
    assert sorted((x.side, x.ever) for x in v.losses) == [("german", True), ("soviet", True)]
    assert sorted(t.side for t in v.points) == ["german", "soviet"]
    assert {c.rule for c in v.conditions} >= {"Victory", "Clarifications: Always Use Victory Points"}


def test_typhoon_counts_soviet_hqs_ever_eliminated_and_armor_and_artillery_in_the_boxes(games) -> None:
    losses = {x.id: x for x in games["typhoon"].victory.losses}
    assert losses["soviet-hq-losses"].ever and losses["soviet-hq-losses"].unit_types == ("hq",)
    assert not losses["axis-armor-losses"].ever and "armor" in losses["axis-armor-losses"].unit_types
    assert [t.side for t in games["typhoon"].victory.points] == ["axis"]
    assert all(c.rule.startswith("17.") for c in games["typhoon"].victory.conditions)


def test_typhoon_air_operations_boxes_come_as_a_group(games) -> None:
    (group,) = games["typhoon"].box_groups
    assert group.boxes == ("ready", "flown", "damaged", "destroyed") and group.rule == "11.1.2"


def test_typhoon_victory_plans_are_a_secret_draw_of_five_markers_for_the_axis(games) -> None:
    game = games["typhoon"]
    (draw,) = game.scenarios["campaign"].draws
    assert draw.side == "axis" and draw.rule == "17.3"
    assert sum(game.counters[c].quantity for c in draw.counters) == 5  # two Hitler Plans (17.3.5)
    assert not game.scenarios["moscow-gates"].draws  # 17.3: Scenario #5 only


def test_battle_for_moscow_places_a_city_control_marker_on_each_soviet_held_city(games) -> None:
    game = games["bfm"]
    cities = {label for m in game.maps.values() for label, f in _cities(m)}
    for scenario in game.scenarios.values():
        placed = {p.label for p in scenario.markers if p.units == ("mk-city-control",)}
        assert placed == cities - {"0204", "0307"}, scenario.id  # Smolensk, Roslavl: under German crosses
        assert all(p.hex is not None for p in scenario.markers)
        assert not any("mk-city-control" in p.units for p in scenario.setup)  # no side's set-up card shows them


def _cities(m):
    return [(m.grid.hex_to_label(h), f) for h, info in m.hexes.items() for f in info.features if f.type == "city"]
