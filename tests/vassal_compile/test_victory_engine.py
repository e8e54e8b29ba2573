"""The victory aids at work in the real VASSAL engine (`java/Outcomes.java` drives it): a unit eliminated adds to
its side's loss count (and a restore takes it back only where the data counts the units in the boxes now), the
Victory window's labels show the counts, Typhoon's Victory Plans are drawn from a face-down deck and read only
by the Axis, and the turn tracker stops on an End of game item after the scenario's last turn."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from conftest import Built
from play_driver import compile_driver, missing, play

from authoring.vassal.pieces import ELIMINATE, RESTORE
from authoring.vassal.turns import end_label, turn_label
from authoring.vassal.victory import concerns, loss_property

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing() is not None, reason=f"the engine driver cannot run: {missing()}"),
]  # slow: the VASSAL engine


@pytest.fixture(scope="session")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_driver(tmp_path_factory.mktemp("outcomes"), "Outcomes.java", "PlayAids.java")


def _chosen(game, scenario) -> list[str]:
    """One unit the scenario sets up on the map for each loss count (a count of unit types gets one of them)."""
    on_map = [u for p in scenario.setup if p.hex is not None for u in p.units]
    out: list[str] = []
    for loss in game.victory.losses:
        if not any(concerns(game, loss, game.counters[u]) for u in out):
            out.append(next(u for u in on_map if concerns(game, loss, game.counters[u])))
    return out


def test_a_unit_eliminated_adds_one_to_its_sides_loss_count(built: Built, driver: Path) -> None:
    game = built.game
    sid = sorted(game.scenarios)[0]
    units = _chosen(game, game.scenarios[sid])
    report = play(driver, "losses", str(built.path), f"setup_{sid}.vsav", ELIMINATE, RESTORE, *units, main="Outcomes")
    assert report["problems"] == []
    assert report["eliminated_to"] == {u: "Eliminated" for u in units}
    for loss in game.victory.losses:
        n = sum(concerns(game, loss, game.counters[u]) for u in units)
        assert n >= 1, loss.id
        label, after_restore = report["labels"][loss.id], report["labels_after_restore"][loss.id]
        if loss.ever:
            prop = loss_property(loss)
            assert (report["before"][prop], report["after_eliminate"][prop]) == ("0", str(n)), loss.id
            assert report["after_restore"][prop] == str(n)  # every elimination counts, even of a unit restored
            assert label.startswith(f"{loss.name}: {n}") and after_restore.startswith(f"{loss.name}: {n}")
        else:  # the units in the loss boxes now (1941 18.2 C): a restored unit no longer counts
            assert label.startswith(f"{loss.name}: {n}") and after_restore.startswith(f"{loss.name}: 0"), loss.id
        for count, what in loss.thresholds:
            assert f"{count}+: {what}" in label
    for track in game.victory.points:
        assert report["labels"][track.id] == f"{track.name}: {track.start}"


def test_the_victory_plans_deck_hides_a_drawn_plan_from_the_soviet_player(driver: Path, built: Built) -> None:
    game = built.game
    draws = [(sid, d) for sid in sorted(game.scenarios) for d in game.scenarios[sid].draws]
    if not draws:
        pytest.skip(f"{game.id} has no secret draw")
    for sid, draw in draws:
        side = game.side(draw.side).name
        report = play(driver, "deck", str(built.path), f"setup_{sid}.vsav", side, main="Outcomes")
        assert report["problems"] == []
        (deck,) = report["decks"]
        copies = [c for c in draw.counters for _ in range(game.counters[c].quantity)]
        assert sorted(deck["counters"]) == sorted(copies) and deck["face_down"] is True
        assert deck["map"] == "Reinforcements" and deck["left_in_deck"] == len(copies) - 1
        drawn = game.counters[deck["drawn"]]
        seen = deck["drawn_seen_by"]
        assert seen[side].startswith(drawn.display_name)  # the drawer's side reads it
        others = {s: name for s, name in seen.items() if s != side}
        assert others and all(name == draw.name for name in others.values())  # the others see only the mask


def test_the_turn_tracker_ends_after_the_scenarios_last_turn(driver: Path, built: Built) -> None:
    """Every phase of every turn stepped, and one more round: the scenario's turns, End of game, then turn 1."""
    game = built.game
    if game.id != "bfm":
        pytest.skip("one game is enough: the tracker is built the same way for all")
    scenario = game.scenarios["seven-turn"]
    steps = (len(scenario.turns) + 1) * len(game.phases) + 1
    report = play(driver, "turns", str(built.path), "setup_seven-turn.vsav", str(steps), main="Outcomes")
    assert report["problems"] == []
    shown = [k for k, _ in itertools.groupby(report["turns"])]
    assert shown == [*(turn_label(t) for t in scenario.turns), end_label(scenario), turn_label(scenario.turns[0])]
    assert not any(label.startswith("8 ") for label in report["turns"])  # never on into the campaign's turns
