"""Linked placements (substitute-for, e.g. 1941 20.6.3 B): a unit may start in a hex set only by taking the
place of one of the units named, which then enters as a reinforcement on the given turn; and one of those
units may leave its place only when the substitute takes it."""

from __future__ import annotations

from collections.abc import Iterator

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_PLACE_015
from authoring.model import RuleSpec
from authoring.rules.board import Board, Use


def substitutes_set_up(board: Board) -> set[str]:
    """The substitute-for units that start on the map: the rule, not their printed arrival code, answers
    for them."""
    out = set()
    for r in board.rules:
        if r.type == "substitute-for" and any(u.kind == "setup" for u in board.by_unit.get(r.params["unit"], ())):
            out.add(str(r.params["unit"]))
    return out


def check_substitute_for(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    unit, name, turn = str(spec.params["unit"]), spec.params["hex_set"], int(spec.params["turn"])
    replaced = [str(u) for u in spec.params["replaces"]]
    hexes = board.hexsets.resolve(name) or frozenset()
    cite = board.game.cite(spec.rule)
    placed = [u for u in board.by_unit.get(unit, ()) if u.kind == "setup"]
    inside = [(u, u.hex) for u in placed if u.hex is not None and u.hex in hexes]
    for u in placed:
        if u.hex is not None and u.hex not in hexes:
            yield HW_PLACE_015.at(
                f"{unit} starts in hex {board.describe(u.hex, u.label)}; it may start only in "
                f"hex set {name}, in place of {_one_of(replaced)}",
                u.loc,
                rule=cite,
                hex=u.label,
                help=f"bring {unit} in as its code says, or set it up in {name} and move "
                f"{_one_of(replaced)} to the turn {turn} reinforcements",
            )
    left = [r for r in replaced if board.by_unit.get(r) and not any(x.kind == "setup" for x in board.by_unit[r])]
    for r in left[len(inside) :]:
        use = board.by_unit[r][0]
        yield HW_PLACE_015.at(
            f"{r} does not start on the map, but only {unit} set up in {name} may take its place",
            use.loc,
            rule=cite,
            hex=use.label,
            help=f"set {r} up on the map" + ("" if inside else f", or set {unit} up in {name} in its place"),
        )
    for r in left:
        yield from _enters(board, spec, r, turn)
    if inside and not left:
        u, h = inside[0]
        yield HW_PLACE_015.at(
            f"{unit} starts in hex {board.describe(h, u.label)} of {name}, but "
            f"{'none of ' if len(replaced) > 1 else ''}{', '.join(replaced)} leaves its place to enter on turn "
            f"{turn}",
            u.loc,
            rule=cite,
            hex=u.label,
            help=f"move {_one_of(replaced)} to the turn {turn} reinforcements, or bring {unit} in as its code says",
        )


def _enters(board: Board, spec: RuleSpec, unit: str, turn: int) -> Iterator[Diagnostic]:
    """A replaced unit enters as a reinforcement on the rule's turn."""
    arrivals: list[Use] = [u for u in board.by_unit[unit] if u.kind == "reinforcement"]
    if any(u.turn == turn for u in arrivals):
        return
    use = arrivals[0] if arrivals else board.by_unit[unit][0]
    how = f"enters on turn {use.turn}" if arrivals else f"is in {use.kind.replace('_', '-')} {use.place}".rstrip()
    yield HW_PLACE_015.at(
        f"{unit} {how}, but a unit {spec.params['unit']} replaces enters on turn {turn}",
        use.loc,
        help=f"bring {unit} in as a reinforcement on turn {turn}",
        rule=board.game.cite(spec.rule),
        hex=use.label,
    )


def _one_of(units: list[str]) -> str:
    return units[0] if len(units) == 1 else f"one of {', '.join(units)}"
