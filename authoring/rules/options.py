"""Scenario options as rules: the effect kinds the engine applies, the options in force, and what they change.

An option's `effects` (scenario.schema.json) name effect kinds. Each kind is registered here with what the
engine does with it; a kind that is not registered is an error (HW-OPT-001), so an option never promises a
change that no check makes. What an option changes in play that no set-up check can see is declared as
`not_checked` and reported as such (HW-OPT-002) whenever the option is on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from types import MappingProxyType

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_OPT_001, HW_OPT_002, HW_OPT_003
from authoring.diagnostics.suggest import suggest
from authoring.model import Game, Option, RuleSpec, Scenario
from authoring.model.game import frozen_map

EFFECT_KINDS: Mapping[str, str] = MappingProxyType(
    {
        "setup_rules": "adds (or, with `disable`, turns off) set-up rules while the option is on",
        "with_options": "turns the options it names on too",
        "turn_values": "changes turn-record values on the turns it names; the turn-value rules check the changed record",
        "not_checked": "names what the option changes in play; the check reports each as not checked",
    }
)
"""Effect kind -> what the engine does with it (a test keeps it equal to the schema and the model)."""


def chosen(scenario: Scenario, options: Iterable[str] = ()) -> frozenset[str]:
    """The options in force: the scenario's defaults, the ones asked for, and every option they turn on
    (`with_options`, followed to the end; an id the scenario does not offer is left out)."""
    by_id = {o.id: o for o in scenario.options}
    todo = [o.id for o in scenario.options if o.default] + [o for o in options if o in by_id]
    out: set[str] = set()
    while todo:
        oid = todo.pop()
        if oid in out:
            continue
        out.add(oid)
        todo += [w for w in by_id[oid].effects.with_options if w in by_id]
    return frozenset(out)


def in_force(scenario: Scenario, ids: frozenset[str]) -> tuple[Option, ...]:
    """The scenario's options among `ids`, in the order the scenario lists them."""
    return tuple(o for o in scenario.options if o.id in ids)


def option_rules(scenario: Scenario, ids: frozenset[str]) -> tuple[RuleSpec, ...]:
    """The rules the options in force add, in the scenario's order."""
    return tuple(r for o in in_force(scenario, ids) for r in o.effects.setup_rules)


def with_turn_values(scenario: Scenario, ids: frozenset[str]) -> Scenario:
    """The scenario with the turn-record values the options in force change (a changed turn is located at the
    option's entry, so a finding on it points at the values the option gives)."""
    changes = [c for o in in_force(scenario, ids) for c in o.effects.turn_values]
    if not changes:
        return scenario
    turns = []
    for t in scenario.turns:
        mine = [c for c in changes if c.covers(t.turn)]
        if mine:
            values = dict(t.values)
            for c in mine:
                values.update(c.values)
            t = replace(t, values=frozen_map(values), loc=mine[-1].loc or t.loc)
        turns.append(t)
    return replace(scenario, turns=tuple(turns))


def not_checked(game: Game, scenario: Scenario, ids: frozenset[str]) -> Iterator[Diagnostic]:
    """HW-OPT-002: each thing an option in force changes in play that the set-up checks do not see."""
    for o in in_force(scenario, ids):
        where = next((loc for kind, loc in o.effects.kinds if kind == "not_checked"), None)
        for what in o.effects.not_checked:
            yield HW_OPT_002.at(
                f"option {o.id!r} is on; not checked: {what}",
                where or o.loc or scenario.loc,
                help="the players apply this part of the option at the table",
                rule=game.cite(""),
            )


def effect_findings(game: Game, scenario: Scenario) -> Iterator[Diagnostic]:
    """Every option's effects, on or off: kinds the engine does not apply (HW-OPT-001) and names that are not
    the scenario's or the game's (HW-OPT-003)."""
    offered = {o.id for o in scenario.options}
    values = {name for t in scenario.turns for name in t.values}
    turns = {t.turn for t in scenario.turns}
    for o in scenario.options:
        for kind, loc in o.effects.kinds:
            if kind not in EFFECT_KINDS:
                yield HW_OPT_001.at(
                    f"option {o.id!r} declares effect {kind!r}, which no rule of hexwright applies",
                    loc or o.loc,
                    help=f"use one of: {', '.join(EFFECT_KINDS)}; what only the players apply goes under not_checked"
                    + _also(kind, EFFECT_KINDS),
                    rule=game.cite(""),
                )
        for w in o.effects.with_options:
            if w not in offered:
                yield _unknown(game, o, f"turns on option {w!r}, which the scenario does not offer", w, offered)
        for change in o.effects.turn_values:
            for name in change.values:
                if name not in values:
                    yield _unknown(
                        game, o, f"changes value {name!r}, which no turn of the turn record gives", name, values
                    )
            for t in change.turns:
                if t not in turns:
                    yield _unknown(game, o, f"changes turn {t}, which the turn record does not have", str(t), ())


def _also(kind: str, known: Iterable[str]) -> str:
    hint = suggest(kind, known)
    return f" ({hint})" if hint else ""


def _unknown(game: Game, o: Option, what: str, name: str, known: Iterable[str]) -> Diagnostic:
    return HW_OPT_003.at(
        f"option {o.id!r} {what}",
        o.loc,
        help=suggest(name, known) or "name one the scenario has",
        rule=game.cite(""),
    )
