"""The counter mix: no unit used more often than its copies, at any time; steps that follow printed values.

Uses are replayed in turn order (set-up, off-map boxes and pools at the start; then per turn,
withdrawals before arrivals), so a unit withdrawn and brought back later is not a double use.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterator
from operator import itemgetter
from types import MappingProxyType

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_MIX_001, HW_MIX_002, HW_SCHED_003
from authoring.model import Counter, Game, RuleSpec, face_values
from authoring.rules.board import Board, Use
from authoring.rules.selectors import selects

_ORDER = MappingProxyType({"setup": 0, "off_map": 0, "pool": 0, "withdrawal": 1, "reinforcement": 2})


def _timeline(uses: list[Use]) -> list[Use]:
    start = [u for u in uses if _ORDER[u.kind] == 0]
    later = sorted((u for u in uses if _ORDER[u.kind] > 0), key=lambda u: (u.turn, _ORDER[u.kind]))
    return start + later


def _replayed(board: Board) -> list[Use]:
    """The uses whose replay can find something: those of units used more than once, and withdrawals.

    A unit used once, and not withdrawn, is within any counter mix (the schema asks for a quantity of
    at least 1), so most set-ups need no replay at all: the ids are compared in C, and only a set-up
    that repeats one, or withdraws units, is looked at further."""
    units = list(map(itemgetter(0), board.uses))
    if len(set(units)) == len(units) and not board.scenario.withdrawals:
        return []
    times = Tally(units)
    return [u for u in board.uses if u.kind == "withdrawal" or times[u.unit] > 1]


def check_counter_mix(board: Board) -> Iterator[Diagnostic]:
    """Copies in play never exceed a counter's quantity; a withdrawn unit is in play when it leaves."""
    in_play: dict[str, list[Use]] = {}
    for u in _timeline(_replayed(board)):
        c = u.counter
        if c is None:
            continue  # unknown ids are the loader's (HW-REF-002)
        held = in_play.setdefault(u.unit, [])
        if u.kind == "withdrawal":
            if held:
                held.pop()
            else:
                yield HW_SCHED_003.at(
                    f"{u.unit} is withdrawn on turn {u.turn} but is not in play by then",
                    u.loc,
                    help=f"set {u.unit} up, or bring it in on or before turn {u.turn}, or drop the withdrawal",
                    rule=board.game.cite(""),
                )
            continue
        if len(held) >= c.quantity:
            yield _overuse(board, c, u, held)
            continue
        held.append(u)


def _overuse(board: Board, c: Counter, u: Use, held: list[Use]) -> Diagnostic:
    copies = f"{c.quantity} cop{'y' if c.quantity == 1 else 'ies'}"
    where = "; ".join(f"{x.kind.replace('_', '-')} at {x.loc}" for x in held if x.loc)
    return HW_MIX_001.at(
        f"{u.unit} is used {len(held) + 1} times but the counter mix has {copies}",
        u.loc,
        help=f"remove this use or another one ({where})",
        rule=board.game.cite(""),
        related=tuple(x.loc for x in held if x.loc),
        hex=u.label,
    )


def steps_for(table, value: float, faces: int, unit_type: str | None = None) -> int | None:
    """Steps the first matching row gives: value inside [min, max] and, where the row says, that many faces
    and one of those unit types (Typhoon 8.5.2: values on one side only give one step)."""
    for row in table:
        types = row.get("unit_type")
        types = (types,) if isinstance(types, str) else types
        if (
            ("min" not in row or value >= row["min"])
            and ("max" not in row or value <= row["max"])
            and ("faces" not in row or faces == row["faces"])
            and (types is None or unit_type in types)
        ):
            return int(row["steps"])
    return None


def check_steps_from_value(game: Game, spec: RuleSpec) -> Iterator[Diagnostic]:
    """A counter's steps equal what its printed value gives (e.g. Typhoon 8.5.2); a counter-mix rule."""
    name = spec.params["value"]
    for c in game.counters.values():
        if not selects(spec.params, c) or not c.faces:
            continue
        value = face_values(game, c, c.faces[0]).get(name)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        want = steps_for(spec.params["table"], value, len(c.faces), c.type)
        if want is None:
            yield HW_MIX_002.at(
                f"{c.id}'s {name} {value:g} is in no row of the steps table",
                c.loc,
                help="add a row covering this value to the rule's table",
                rule=game.cite(spec.rule),
            )
        elif c.steps != want:
            faces = f"{len(c.faces)} printed face{'s' * (len(c.faces) != 1)}"
            yield HW_MIX_002.at(
                f"{c.id} has {c.steps} step{'s' * (c.steps != 1)}, but {name} {value:g} with {faces} gives {want}",
                c.loc,
                help=f"set `steps: {want}` for {c.id}",
                rule=game.cite(spec.rule),
            )
