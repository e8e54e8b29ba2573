"""Values the rules fix: per turn on the turn record (turn-value, e.g. BfM replacement points) and per
scenario (scenario-value, e.g. Typhoon 7.6.3 rail capacity and 12.4 conversion points)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_VALUE_001, HW_VALUE_002
from authoring.model import RuleSpec
from authoring.model.scenario import value_text
from authoring.rules.board import Board

_TESTS = (
    ("equals", "equal {x:g}", lambda v, x: v == x),
    ("at_most", "be at most {x:g}", lambda v, x: v <= x),
    ("at_least", "be at least {x:g}", lambda v, x: v >= x),
)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _mixes(value: Any) -> frozenset | None:
    """A mix ({kind: count}) or a list of mixes to choose from, in a form that compares equal whatever the order
    of kinds and choices; None for anything else."""
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value or not all(isinstance(v, Mapping) for v in value):
        return None
    return frozenset(frozenset(v.items()) for v in value)


def breaks(row: Mapping, value: Any) -> str | None:
    """What the row requires and the value does not give, in words; None when the value obeys the row."""
    if row.get("absent"):
        return None if value is None else "be absent"
    if _mixes(row.get("equals")) is not None:
        if value is None:
            return "be stated"
        return None if _mixes(value) == _mixes(row["equals"]) else f"be {value_text(row['equals'])}"
    tests = [(key, text, test) for key, text, test in _TESTS if key in row]
    if value is None:
        return "be stated" if tests or row.get("present") else None
    if tests and not _number(value):
        return "be a number"
    for key, text, test in tests:
        if not test(value, row[key]):
            return text.format(x=row[key])
    return None


def _shown(name: str, value: Any) -> str:
    if value is None:
        return f"no {name}"
    return f"{name} {value_text(value)}" if _mixes(value) is not None else f"{name} {value!r}"


def check_turn_value(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """Each turn of the turn record gives the named value as the first row covering that turn requires."""
    name = spec.params["name"]
    for t in board.scenario.turns:
        row = next((r for r in spec.params["table"] if r.get("from", t.turn) <= t.turn <= r.get("to", t.turn)), None)
        if row is None:
            continue
        value = t.values.get(name)
        wrong = breaks(row, value)
        if wrong:
            yield HW_VALUE_001.at(
                f"turn {t.turn} gives {_shown(name, value)}, but it must {wrong}",
                t.loc,
                help=f"set {name} of turn {t.turn} as rule {spec.rule or 'the rule'} fixes it",
                rule=board.game.cite(spec.rule),
            )


def check_scenario_value(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """The scenario's `values` gives the named value as the rule requires (stated, a number, a bound)."""
    name = spec.params["name"]
    value = board.scenario.values.get(name)
    wrong = breaks(spec.params, value)
    if wrong:
        yield HW_VALUE_002.at(
            f"scenario {board.scenario.id} gives {_shown(name, value)}, but it must {wrong}",
            board.scenario.loc,
            help=f"set `values: {{{name}: ...}}` in the scenario as the rule requires",
            rule=board.game.cite(spec.rule),
        )
