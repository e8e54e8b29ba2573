"""Always-on placement checks: no enemy units in a hex, no prohibited terrain, units set up by their own side.

The loader already refuses hexes that are on no map in play (HW-HEX-001/002), so placements
without a hex are skipped here (one mistake, one error).
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_PLACE_002, HW_PLACE_003, HW_SIDE_001
from authoring.model import RuleSpec
from authoring.rules.board import Board, Use
from authoring.rules.selectors import selects


def check_enemy_units(board: Board) -> Iterator[Diagnostic]:
    """No hex holds units of two sides at set-up: each unit that enters a hex another side holds is one
    finding (three intruders, three findings); the holding side's units get none."""
    for u, held_by in intruders(board):
        yield HW_PLACE_003.at(
            f"{u.unit} ({u.owner}) is set up in hex {u.label}, which holds enemy unit {held_by.unit} ({held_by.owner})",
            u.loc,
            help=f"set {u.unit} up in a hex free of enemy units",
            rule=board.game.cite(""),
            hex=u.label,
        )


def intruders(board: Board) -> Iterator[tuple[Use, Use]]:
    """Each unit set up in a hex another side holds, with the first unit of the holding side there."""
    for h in board.stacked:  # a hex holding one unit holds no enemy
        units = [u for u in board.by_cell[h] if u.counts]
        holder = _holder(board, units)
        if holder is None:
            continue
        held_by = next(u for u in units if u.owner == holder)
        for u in units:
            if u.owner != holder:
                yield u, held_by


def _holder(board: Board, units: list[Use]) -> str | None:
    """The side that holds a hex of several sides (None: one side only): with a card, a side the card
    does not replace (the scenario's set-up holds the hex the card's units enter); else the first listed."""
    sides = list(dict.fromkeys(u.owner for u in units))
    if len(sides) < 2:
        return None
    kept = [s for s in sides if board.card_sides is not None and s not in board.card_sides]
    return kept[0] if kept else sides[0]


def prohibited_terrain(board: Board) -> dict[str, str]:
    """Terrain no unit may start in -> the rule that says so ('' = declared `prohibited: true`)."""
    return {t.id: "" for t in board.game.terrain if t.extra.get("prohibited")}


def _terrain_findings(board: Board, banned: dict[str, str], spec: RuleSpec | None) -> Iterator[Diagnostic]:
    for u, h in board.on_map():
        if spec is not None and not selects(spec.params, u.counter):
            continue
        if spec is None and (u.counter is None or u.counter.marker):
            continue
        cell = board.cells.get(h)
        bad = [t for t in (cell.terrain if cell else ()) if t in banned]
        if bad:
            rule = spec.rule if spec is not None else banned[bad[0]]
            yield HW_PLACE_002.at(
                f"{u.unit} may not start in hex {board.describe(h, u.label)}: {bad[0]} terrain is prohibited",
                u.loc,
                help=f"pick a hex without {', '.join(bad)} terrain",
                rule=board.game.cite(rule),
                hex=u.label,
            )


def check_declared_prohibited_terrain(board: Board) -> Iterator[Diagnostic]:
    """Terrain declared `prohibited: true` in game.yaml is closed to every unit."""
    banned = prohibited_terrain(board)
    if banned:
        yield from _terrain_findings(board, banned, None)


def check_prohibited_terrain(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """Rule type prohibited-terrain: no selected unit starts in these terrain types."""
    yield from _terrain_findings(board, {t: spec.rule for t in spec.params["terrain"]}, spec)


def check_sides(board: Board) -> Iterator[Diagnostic]:
    """A unit is set up, held off-map, scheduled or pooled by the side it belongs to."""
    declared = {s.id for s in board.game.sides}
    for u in board.strangers:
        owner = u.owner
        if not u.counts or u.side not in declared or owner not in declared:
            continue  # an undeclared side is the loader's finding (HW-REF-001)
        yield HW_SIDE_001.at(
            f"{u.unit} belongs to side {owner} but is listed under side {u.side}",
            u.loc,
            help=f"move {u.unit} to the {owner} entries, or pick a {u.side} unit",
            rule=board.game.cite(""),
            hex=u.label,
        )
