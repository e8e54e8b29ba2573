"""Rule types about where units start: feature hexes, hex sets, named hexes, per-map limits, garrisons.

Each check takes the board and its RuleSpec and yields findings located at the offending entry
(or, for an absence, at the rule with the set-up files as related locations).
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import (
    HW_PLACE_004,
    HW_PLACE_005,
    HW_PLACE_006,
    HW_PLACE_007,
    HW_PLACE_008,
    HW_PLACE_009,
    HW_PLACE_010,
    HW_RULE_002,
    CodeInfo,
)
from authoring.diagnostics.zeros import padded, zeros_help
from authoring.hexgrid import Hex
from authoring.model import RuleSpec
from authoring.rules.board import Board, Use
from authoring.rules.codes import resolve_at
from authoring.rules.selectors import describe, selects


def _selected(board: Board, spec: RuleSpec, uses) -> list[Use]:
    return [u for u in uses if selects(spec.params, u.counter)]


def _selected_on_map(board: Board, spec: RuleSpec) -> list[tuple[Use, Hex]]:
    """The selected set-up uses in a hex of the maps in play, each with that hex."""
    return [(u, h) for u, h in board.on_map() if selects(spec.params, u.counter)]


def _sorted_hexes(board: Board, hexes) -> list[Hex]:
    return sorted(hexes, key=board.label)


def _unplaced(board: Board, spec: RuleSpec, side: str) -> bool:
    """Whether a selected unit of the side is set up in a hex no map in play has (the loader's HW-HEX-001):
    it may be meant for any hex, so an empty one is no finding of its own until that hex is fixed."""
    return any(
        u.kind == "setup" and u.hex is None and board.side_of(u) == side and selects(spec.params, u.counter)
        for u in board.uses
    )


def check_one_per_feature(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """Every hex with the feature holds exactly one selected unit of the side (BfM 'Starting the Game')."""
    feature, side = spec.params["feature"], spec.params["side"]
    cite = board.game.cite(spec.rule)
    unplaced = _unplaced(board, spec, side)
    for h in _sorted_hexes(board, (h for h, c in board.cells.items() if c.has(feature))):
        units = [u for u in _selected(board, spec, board.by_cell.get(h, ())) if board.side_of(u) == side]
        label = board.label(h)
        if not units and not unplaced:
            yield HW_PLACE_004.at(
                f"{feature} hex {label} holds no {side} unit; it needs exactly one",
                spec.loc,
                help=f"set up one {side} unit in hex {label}",
                rule=cite,
                hex=label,
                related=board.setup_files(),
            )
        elif len(units) > 1:
            extra = units[1]
            yield HW_PLACE_004.at(
                f"{feature} hex {extra.label} holds {len(units)} {side} units "
                f"({', '.join(u.unit for u in units)}); it takes exactly one",
                extra.loc,
                help=f"move {extra.unit} to another {feature} hex",
                rule=cite,
                hex=extra.label,
            )


def check_only_on_feature(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units start only on hexes with the feature."""
    feature = spec.params["feature"]
    allowed = _free_first(board, [h for h, c in board.cells.items() if c.has(feature)])
    for u, h in _selected_on_map(board, spec):
        cell = board.cells.get(h)
        if cell is None or not cell.has(feature):
            yield _refused(board, spec, HW_PLACE_005, u, h, f"which has no {feature}", allowed, f"{feature} hex")


def _free_first(board: Board, hexes) -> list[Hex]:
    """Candidates for "did you mean": the empty ones when there are any (computed once per rule)."""
    free = [h for h in hexes if h not in board.by_cell]
    return free or list(hexes)


def _refused(
    board: Board, spec: RuleSpec, code: CodeInfo, u: Use, h: Hex, why: str, allowed: list[Hex], what: str
) -> Diagnostic:
    """The finding for unit `u`, set up in hex `h`, which is not a `what`."""
    near = board.nearest(h, allowed)
    hint = (
        f"did you mean {board.label(near)}? (the nearest {'free ' if near not in board.by_cell else ''}{what})"
        if near is not None
        else f"there is no {what} on the maps in play"
    )
    return code.at(
        f"{u.unit} starts in hex {board.describe(h, u.label)}, {why}",
        u.loc,
        help=f"{describe(spec.params)} may only start in a {what}; {hint}",
        rule=board.game.cite(spec.rule),
        hex=u.label,
    )


def check_in_hex_set(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The selected units start only in hexes of the set (e.g. Finnish units in Finland)."""
    name = spec.params["hex_set"]
    hexes = board.hexsets.resolve(name) or frozenset()
    allowed = _free_first(board, hexes)
    for u, h in _selected_on_map(board, spec):
        if h not in hexes:
            yield _refused(board, spec, HW_PLACE_006, u, h, f"outside hex set {name}", allowed, f"hex of {name}")


def check_not_in_hex_set(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """No selected unit starts in the set, nor arrives in it before `until_turn`."""
    name = spec.params["hex_set"]
    hexes = board.hexsets.resolve(name) or frozenset()
    cite = board.game.cite(spec.rule)
    for u, h in _selected_on_map(board, spec):
        if h in hexes:
            yield HW_PLACE_007.at(
                f"{u.unit} starts in hex {board.describe(h, u.label)}, inside hex set {name}",
                u.loc,
                help=f"{describe(spec.params)} may not start in {name}",
                rule=cite,
                hex=u.label,
            )
    until = spec.params.get("until_turn")
    if until is None:
        return
    for u in _selected(board, spec, board.kinds("reinforcement")):
        at = resolve_at(board, u.place, board.side_of(u)) if u.place else None
        if u.turn < until and at and at <= hexes:
            yield HW_PLACE_007.at(
                f"{u.unit} arrives on turn {u.turn} at {u.place}, inside hex set {name}",
                u.loc,
                help=f"{describe(spec.params)} may not arrive in {name} before turn {until}",
                rule=cite,
            )


def check_unit_at(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """That unit starts in that hex (errata overriding a printed code)."""
    unit, label = spec.params["unit"], str(spec.params["hex"])
    uses = board.by_unit.get(unit, ())
    if not uses:
        return  # the scenario does not use this unit
    cite = board.game.cite(spec.rule)
    target = board.hexsets.label_to_hex(label)
    if target is None:
        wanted = padded(label, board.hexsets.label_to_hex)
        yield HW_RULE_002.at(
            f"rule unit-at puts {unit} in hex {label!r}, which is on no map in play",
            spec.loc,
            help=zeros_help([wanted], "hex id", spec.loc.file if spec.loc else "")
            if wanted
            else "check the hex id, or the scenario's maps",
            rule=cite,
            hex=label,
        )
        return
    placed = [u for u in uses if u.kind == "setup"]
    if any(u.hex == target for u in placed):
        return
    wrong = placed[0] if placed else uses[0]
    if placed and wrong.hex:
        where = f"starts in hex {board.describe(wrong.hex, wrong.label)}"
    else:
        where = f"is not set up on the map ({wrong.kind.replace('_', '-')})"
    yield HW_PLACE_008.at(
        f"{unit} must start in hex {label} but {where}",
        wrong.loc,
        help=f"set {unit} up in hex {label}",
        rule=cite,
        hex=wrong.label or label,
    )


def check_max_per_map(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """At most `max` selected units start on each map; a shared edge cell counts on both maps."""
    limit = spec.params["max"]
    counts: dict[str, list[Use]] = {}
    for u, h in _selected_on_map(board, spec):
        for m in board.cells[h].maps if h in board.cells else ():
            counts.setdefault(m, []).append(u)
            if len(counts[m]) == limit + 1:
                yield HW_PLACE_009.at(
                    f"{limit + 1} {describe(spec.params)} start on map {m}, at most {limit} may",
                    u.loc,
                    help=f"move {u.unit} to another map (on map {m}: {', '.join(x.unit for x in counts[m])})",
                    rule=board.game.cite(spec.rule),
                    hex=u.label,
                )


def check_garrison(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """Each hex of the set holds at least `min_units` selected units of the side at start."""
    name, side = spec.params["hex_set"], spec.params["side"]
    need = spec.params.get("min_units", 1)
    if _unplaced(board, spec, side):
        return
    for h in _sorted_hexes(board, board.hexsets.resolve(name) or ()):
        units = [u for u in _selected(board, spec, board.by_cell.get(h, ())) if board.side_of(u) == side]
        if len(units) < need:
            label = board.label(h)
            yield HW_PLACE_010.at(
                f"hex {label} of {name} holds {len(units)} {side} unit"
                f"{'s' * (len(units) != 1)}, it needs at least {need}",
                spec.loc,
                help=f"add {need - len(units)} of the {describe(spec.params)} to hex {label}",
                rule=board.game.cite(spec.rule),
                hex=label,
                related=board.setup_files(),
            )
