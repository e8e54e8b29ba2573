"""The turn track of each set-up: its own turns only, rolling over after its last one.

The module has one TurnTracker; each scenario's saved game restores its state with only the
scenario's turns active. `_advance` is the engine's `ListTurnLevel.advance()` (VASSAL 3.6), so
walking it from the restored state gives what the Turn button shows turn after turn.
"""

from __future__ import annotations

import io
import zipfile

import pytest
from conftest import Built

from authoring.vassal import elements as el
from authoring.vassal.codec import decode, deobfuscate, split_commands
from authoring.vassal.compile import setup_title
from authoring.vassal.turns import COMMAND_PREFIX, TRACKER_ID, end_label, turn_label

pytestmark = pytest.mark.slow  # whole module builds of the bundled games


def _restored_turn_level(built: Built, setup_file: str) -> tuple[int, int, list[bool]]:
    """(current, first, active) of the Turn level as the set-up restores it."""
    with zipfile.ZipFile(io.BytesIO(built.read(setup_file))) as vsav:
        text = deobfuscate(vsav.read("savedGame").decode("utf-8"))
    (command,) = [c for c in split_commands(text) if c.startswith(COMMAND_PREFIX + TRACKER_ID + "\t")]
    _, state = decode(command, "\t")
    current_level, level = decode(state, "|")
    assert current_level == "0"
    fields = decode(level, ";")
    return int(fields[0]), int(fields[2]), [f == "true" for f in decode(fields[3], ",")]


def _advance(current: int, first: int, active: list[bool]) -> tuple[int, bool]:
    """ListTurnLevel.advance() of VASSAL 3.6: next active item; rolled over when passing `first`."""
    idx, rolled, done = current, False, False
    for _ in range(len(active)):
        idx = (idx + 1) % len(active)
        if idx == first:
            rolled = True
        done = active[idx]
        if done:
            break
    return idx, rolled or not done


def test_each_setup_shows_its_own_turns_then_rolls_over(built: Built) -> None:
    (tracker,) = built.tree.iter(el.TURN_TRACKER)
    assert tracker.get("hotkey")
    (level,) = tracker.findall(el.LIST_TURN_LEVEL)
    items = decode(level.get("list"), ",")
    files = {p.get("name"): p.get("file") for p in built.tree.iter(el.PREDEFINED_SETUP)}
    for scenario in built.game.scenarios.values():
        current, first, active = _restored_turn_level(built, files[setup_title(built.game, scenario)])
        shown, rolled = [items[current]], False
        while not rolled:
            current, rolled = _advance(current, first, active)
            if not rolled:
                shown.append(items[current])
        assert shown == [*(turn_label(t) for t in scenario.turns), end_label(scenario)], scenario.id
        assert items[current] == turn_label(scenario.turns[0])
