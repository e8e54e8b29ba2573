"""Play aids the toolbar offers every turn: clearing a side's moved marks and trails (by a button or as the
turn tracker enters a phase the data names), the inventory of units, the notes window and the LOS thread.

Everything comes from the game's data: sides from `sides`, the phases that clear marks from
`phase_actions`, grouping properties from the pieces' own properties (`pieces`)."""

from __future__ import annotations

from authoring.model import Game
from authoring.vassal import elements as el
from authoring.vassal.codec import key_stroke
from authoring.vassal.pieces import MOVED
from authoring.vassal.turns import PHASE_LEVEL

CLEAR_REPORT = "* {side}: moved marks and movement trails cleared"


def clear_key(game: Game, side_id: str) -> str:
    """The hotkey of a side's clear-moved button: Ctrl+Alt+<its 1-based rank among the sides>."""
    rank = [s.id for s in game.sides].index(side_id) + 1
    return key_stroke(ord("0") + rank % 10, ctrl=True, alt=True)


def moved_filter(side_name: str) -> str:
    """The pieces of a side marked moved (the key toggles the mark, so only those get it)."""
    return f"Side={side_name} && Moved=true"


def clear_moved_buttons(game: Game) -> list[el.Element]:
    """A toolbar button per side clearing its units' moved marks and trails."""
    out = []
    for side in game.sides:
        button = el.LaunchButton(
            f"Unmark {side.name}",
            f"Clear the moved marks and trails of {side.name} units",
            "",
            clear_key(game, side.id),
        )
        out.append(
            el.global_key_command(
                f"Clear moved: {side.name}", button, MOVED, moved_filter(side.name), CLEAR_REPORT.format(side=side.name)
            )
        )
    return out


def phase_hotkeys(game: Game) -> list[el.Element]:
    """The turn tracker's keys: entering a phase with `clear_moved` presses those sides' clear buttons."""
    out = []
    for action in game.phase_actions:
        for side_id in action.clear_moved:
            name = game.side(side_id).name
            out.append(
                el.turn_global_hotkey(
                    f"{action.phase}: clear {name} moved", clear_key(game, side_id), f"{PHASE_LEVEL}={action.phase}"
                )
            )
    return out


UNIT_FILTER = "Side!="
"""Units only: every unit has its side's `Side` property; markers and reminders have none."""
INVENTORY_GROUPS = ("Side", "Type", "CurrentMap", "LocationName")
"""Side, unit type, then where: the window (map, eliminated, reinforcements) and the hex or box."""
LOS_REPORT = "LOS $FromLocation$ -> $ToLocation$: range $Range$"


def windows(game: Game) -> list[el.Element]:
    """The inventory of units and the notes window (toolbar buttons)."""
    inventory = el.inventory(
        "Inventory",
        el.LaunchButton(
            "Inventory", "Units by side, type and location", "", key_stroke(ord("I"), ctrl=True, shift=True)
        ),
        UNIT_FILTER,
        INVENTORY_GROUPS,
    )
    notes = el.notes_window(
        el.LaunchButton("Notes", "Scenario, public and private notes", "", key_stroke(ord("N"), ctrl=True, shift=True))
    )
    return [inventory, notes]


def los_thread() -> el.Element:
    """The main map's line-of-sight thread (drag from hex to hex; the range shows in hexes)."""
    return el.los_thread(
        "LOS",
        el.LaunchButton(
            "LOS", "Line of sight and range: drag from hex to hex", "", key_stroke(ord("L"), ctrl=True, shift=True)
        ),
        LOS_REPORT,
    )
