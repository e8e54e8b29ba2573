"""A set-up card held to its scenario (card-matches-scenario, e.g. Typhoon 3.1.1: "place your units in the
hexes indicated on the Set-up Card").

Where the scenario sets a unit up on a hex, the card must put it there, unless the data gives it freedom:
an entry of the rule's `free` list (e.g. the Moscow Garrison, Typhoon 13.6.4), or another rule in force that
answers for the unit's hex itself (a unit-at rule, a printed code that follow-setup-codes enforces, a
substitute-for rule) or a unit set up among enemy units (HW-PLACE-003), so that one misplaced unit is one
finding.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from authoring.diagnostics import Diagnostic, Loc
from authoring.diagnostics.codes import HW_PLACE_014
from authoring.hexgrid import Hex
from authoring.model import OffMap, Pool, RuleSpec, Scheduled
from authoring.rules.board import Board
from authoring.rules.codes import parse_on
from authoring.rules.placement import intruders
from authoring.rules.selectors import describe, selects

SETUP_MEANINGS = ("hex", "hex-set")


def check_card_matches_scenario(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """Each unit of the card starts in a hex the scenario sets it up in (no card: nothing to check)."""
    if board.card is None:
        return
    fixed = _scenario_hexes(board)
    elsewhere = _used_off_map(board)
    answered = answered_elsewhere(board) | {u.unit for u, _ in intruders(board)}  # HW-PLACE-003 reports those
    for p in board.card.entries:
        if p.hex is None:
            continue  # a hex on no map in play is the loader's finding
        for i, unit in enumerate(p.units):
            c = board.counter(unit)
            if c is None or not selects(spec.params, c) or unit in answered:
                continue
            free = next((f for f in spec.params.get("free", ()) if selects(f, c)), None)
            loc = p.unit_locs[i] if i < len(p.unit_locs) and p.unit_locs[i] else p.loc
            if free is not None:
                yield from _free(board, spec, free, p.hex, p.label, unit, loc)
            elif unit in fixed and p.hex not in fixed[unit]:
                want = " or ".join(sorted({board.label(h) for h in fixed[unit]}))
                yield HW_PLACE_014.at(
                    f"{unit} starts in hex {board.describe(p.hex, p.label)}, but scenario "
                    f"{board.scenario.id!r} sets it up in hex {want}",
                    loc,
                    help=f"set {unit} up in hex {want}, as the scenario's set-up shows",
                    rule=board.game.cite(spec.rule),
                    hex=p.label,
                )
            elif unit not in fixed and unit not in elsewhere:
                yield HW_PLACE_014.at(
                    f"{unit} starts in hex {board.describe(p.hex, p.label)}, but scenario "
                    f"{board.scenario.id!r} does not use it",
                    loc,
                    help=f"remove {unit} from the card: the scenario's set-up and schedules do not name it",
                    rule=board.game.cite(spec.rule),
                    hex=p.label,
                )


def _free(
    board: Board, spec: RuleSpec, free: Mapping, h: Hex, label: str, unit: str, loc: Loc | None
) -> Iterator[Diagnostic]:
    """A freed unit, set up in hex `h` (written `label`), may start anywhere (other rules in force still apply),
    or within `within` hexes of a set."""
    name = free.get("hex_set")
    if name is None:
        return
    hexes = board.hexsets.resolve(name) or frozenset()
    reach = int(free.get("within", 0))
    if any(h.distance(x) <= reach for x in hexes):
        return
    where = f"hex set {name}" + (f" or within {reach} hex{'es' * (reach != 1)} of it" if reach else "")
    yield HW_PLACE_014.at(
        f"{unit} starts in hex {board.describe(h, label)}, outside {where}",
        loc,
        help=f"{describe(free)} may start in {where}, in place of the hex the scenario shows",
        rule=board.game.cite(str(free.get("rule") or spec.rule)),
        hex=label,
    )


def _scenario_hexes(board: Board) -> dict[str, set[Hex]]:
    """Unit -> the hexes the scenario's own set-up puts it in (for the sides the card replaces)."""
    out: dict[str, set[Hex]] = {}
    for p in board.scenario.setup:
        if p.hex is not None:
            for u in p.units:
                out.setdefault(u, set()).add(p.hex)
    return out


def _used_off_map(board: Board) -> set[str]:
    """Units the scenario holds in a box, pool or schedule: a card that also sets one up is a double use,
    which the counter-mix and schedule checks report."""
    s = board.scenario
    groups: tuple[OffMap | Scheduled | Pool, ...] = (*s.off_map, *s.reinforcements, *s.withdrawals, *s.pools)
    return {u for group in groups for u in group.units}


def answered_elsewhere(board: Board) -> set[str]:
    """Units whose starting hex another rule in force checks: unit-at and substitute-for units, and units whose
    printed hex or hex-set code follow-setup-codes enforces."""
    out = {str(r.params["unit"]) for r in board.rules if r.type in ("unit-at", "substitute-for")}
    follow = [r for r in board.rules if r.type == "follow-setup-codes"]
    meanings = {m for r in follow for m in (r.params.get("only") or SETUP_MEANINGS) if m in SETUP_MEANINGS}
    if not meanings:
        return out
    for p in board.card.entries if board.card else ():
        for u in p.units:
            c = board.counter(u)
            m = parse_on(board, c.setup_code, c.side, c) if c is not None else None
            if m is not None and m.meaning in meanings:
                out.add(u)
    return out
