"""`hexwright combat` as a library function: one battle of a scenario's units, resolved by `rules.combat`.

The calculator reads the units as `UNIT@HEX[:STATE[+MARKER...]]` (the counter ids the scenario's set-up
names, a hex label of one of its maps, a face state, marker counters on the unit), checks that they make a
battle (one defending hex, attackers of another side beside it or within their printed range), and hands
them to `rules.combat.fight`, the code the module's resolve action is tested against, once per die roll (or
for the one rolled). Each mistake in the arguments is a finding (HW-CALC-001, HW-CALC-002) with a hint.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from authoring.diagnostics import Diagnostic, Loc, has_errors
from authoring.diagnostics.codes import HW_CALC_001, HW_CALC_002
from authoring.diagnostics.suggest import suggest
from authoring.load import LoadResult
from authoring.load.target import TargetError, find_target
from authoring.model import Game, Map, Scenario
from authoring.model.game import odds_ratio
from authoring.rules.combat import Battle, Fighter, fight, fighter, unit_strength

__all__ = ("Calculated", "TargetError", "Unit", "calculate", "parse_unit")

SYNTAX = "UNIT@HEX[:STATE[+MARKER...]]"


@dataclass(frozen=True)
class Unit:
    """One unit of the battle as an argument names it: the argument (`text`, `role` "defender" or
    "attacker"), the counter id, hex label, face state (None: its first face) and marker counter ids."""

    text: str
    role: str
    counter: str
    hex: str
    state: str | None = None
    markers: tuple[str, ...] = ()

    @property
    def loc(self) -> Loc:
        """Where a finding about it points: the option and its value, as typed."""
        return Loc(f"--{self.role} {self.text}")


@dataclass(frozen=True)
class Calculated:
    """What the calculator found: the findings (empty when the battle was fought) and the report (None then)."""

    root: Path
    result: LoadResult
    scenario: Scenario | None
    findings: tuple[Diagnostic, ...]
    report: dict | None

    @property
    def failed(self) -> bool:
        return has_errors(self.findings) or self.report is None


def parse_unit(text: str, role: str) -> Unit | Diagnostic:
    """`UNIT@HEX[:STATE[+MARKER...]]` as a `Unit`, or the finding that says why it is not one."""
    counter, at, rest = text.partition("@")
    place, _, state = rest.partition(":")
    state, *markers = state.split("+") if state else ("",)
    if not at or not counter.strip() or not place.strip() or "" in markers or (":" in rest and not state):
        return HW_CALC_001.at(
            f"{text!r} is not {SYNTAX}",
            Loc(f"--{role} {text}"),
            help="a counter id, '@', a hex label, then optionally ':' and a face state, '+' and marker ids "
            "(e.g. sov-3@0604:half)",
        )
    return Unit(text, role, counter.strip(), place.strip(), state.strip() or None, tuple(m.strip() for m in markers))


def calculate(
    scenario: str,
    game_id: str | None,
    project: Path | None,
    turn: int | None,
    defenders: Sequence[str],
    attackers: Sequence[str],
    roll: int | None = None,
    weather: str | None = None,
) -> Calculated:
    """`hexwright combat SCENARIO`: the scenario an argument names (`TargetError` when it names none or several),
    the battle of `attackers` on `defenders` at `turn`, for `roll` or every roll of the die; `weather` the
    weather the players rolled (a game whose turn record does not fix it, Typhoon 5.1.2)."""
    target = find_target(scenario, game_id, project)
    result, scen = target.result, target.scenario
    if scen is None or not result.checkable:
        return Calculated(target.root, result, scen, (*result.diagnostics, *result.not_checked()), None)
    game = result.valid_game
    parsed = [parse_unit(t, "defender") for t in defenders] + [parse_unit(t, "attacker") for t in attackers]
    found = [p for p in parsed if isinstance(p, Diagnostic)]
    units = [p for p in parsed if isinstance(p, Unit)]
    if not found:
        found = _refusals(game, scen, turn, units, roll) or _weather_findings(game, weather)
    if found:
        return Calculated(target.root, result, scen, tuple(found), None)
    return Calculated(target.root, result, scen, (), _report(game, scen, turn, units, roll, weather))


def _weather_findings(game: Game, weather: str | None) -> list[Diagnostic]:
    """`--weather` names one of the weathers the combat rules know (`combat.weathers`)."""
    known = list(game.combat.weathers) if game.combat is not None else []
    if weather is None or weather in known:
        return []
    return [
        HW_CALC_001.at(
            f"no weather {weather!r} in game {game.id!r}'s combat rules",
            Loc(f"--weather {weather}"),
            help=suggest(weather, known) if known else "the game's combat rules name no weather",
        )
    ]


def _refusals(game: Game, scen: Scenario, turn: int | None, units: list[Unit], roll: int | None) -> list[Diagnostic]:
    """Why these arguments make no battle: the first kind of mistake found (each unit's own, then the battle's)."""
    if game.combat is None or game.table(game.combat.crt) is None:
        return [
            HW_CALC_002.at(
                f"game {game.id!r} declares no combat",
                Loc(f"scenarios/{game.id}/tables.yaml"),
                help="a `combat` section in tables.yaml names the CRT, the die and the strengths (docs/format.md)",
            )
        ]
    own = [d for u in units for d in _unit_findings(game, scen, u)]
    return own or _battle_findings(game, scen, turn, units, roll)


def scenario_units(scen: Scenario) -> set[str]:
    """Every counter the scenario brings into play: set up, off the map, arriving, withdrawn or in a pool."""
    held = [p.units for p in scen.setup] + [o.units for o in scen.off_map] + [p.units for p in scen.pools]
    held += [s.units for s in scen.reinforcements] + [s.units for s in scen.withdrawals]
    return {u for units in held for u in units}


def _unit_findings(game: Game, scen: Scenario, unit: Unit) -> list[Diagnostic]:
    counter = game.counters.get(unit.counter)
    if counter is None or counter.marker:
        units = [c.id for c in game.counters.values() if not c.marker]
        return [
            HW_CALC_001.at(f"no unit {unit.counter!r} in game {game.id!r}", unit.loc, help=suggest(unit.counter, units))
        ]
    if unit.counter not in scenario_units(scen):
        return [
            HW_CALC_001.at(
                f"unit {unit.counter!r} is not in scenario {scen.id!r}",
                unit.loc,
                help="name a unit the scenario sets up, brings in or holds in a pool (its set-up card lists them)",
            )
        ]
    if _map_of(game, scen, unit.hex) is None:
        labels = [i.label for m in scen.maps if m in game.maps for i in game.maps[m].hexes.values()]
        return [
            HW_CALC_001.at(
                f"no hex {unit.hex!r} on the map{'s' if len(scen.maps) > 1 else ''} of scenario {scen.id!r}",
                unit.loc,
                help=suggest(unit.hex, labels),
            )
        ]
    states = [f.state for f in counter.faces]
    if unit.state is not None and counter.face(unit.state) is None:
        return [
            HW_CALC_001.at(
                f"unit {unit.counter!r} has no face {unit.state!r}", unit.loc, help=suggest(unit.state, states)
            )
        ]
    markers = [c.id for c in game.counters.values() if c.marker]
    return [
        HW_CALC_001.at(f"no marker {m!r} in game {game.id!r}", unit.loc, help=suggest(m, markers))
        for m in unit.markers
        if m not in markers
    ]


def _map_of(game: Game, scen: Scenario, label: str) -> Map | None:
    return next(
        (game.maps[m] for m in scen.maps if m in game.maps and game.maps[m].grid.label_to_hex(label) is not None),
        None,
    )


def _battle_findings(
    game: Game, scen: Scenario, turn: int | None, units: list[Unit], roll: int | None
) -> list[Diagnostic]:
    """The battle's own mistakes: no defender or attacker, one unit twice, defenders in two hexes or of two
    sides, an attacker of the defender's side or out of reach, a strength the face does not show, the turn or
    the roll."""
    defenders = [u for u in units if u.role == "defender"]
    attackers = [u for u in units if u.role == "attacker"]
    for role, those in (("defender", defenders), ("attacker", attackers)):
        if not those:
            return [HW_CALC_002.at(f"no {role}", Loc(f"--{role}"), help=f"name at least one --{role} {SYNTAX}")]
    seen: set[str] = set()
    for u in units:
        if u.counter in seen:
            return [HW_CALC_002.at(f"unit {u.counter!r} is named twice", u.loc, help="each unit fights once")]
        seen.add(u.counter)
    return (
        _sides_and_hexes(game, defenders, attackers)
        or _reach(game, scen, defenders[0], attackers)
        or _strengths(game, units)
        or _turn_and_roll(game, scen, turn, roll)
    )


def _sides_and_hexes(game: Game, defenders: list[Unit], attackers: list[Unit]) -> list[Diagnostic]:
    first = defenders[0]
    side = game.counters[first.counter].side
    for u in defenders[1:]:
        if u.hex != first.hex:
            return [
                HW_CALC_002.at(
                    f"defenders in two hexes ({first.hex}, {u.hex})",
                    u.loc,
                    help="a battle here attacks one hex: name its units as --defender",
                )
            ]
        if game.counters[u.counter].side != side:
            return [HW_CALC_002.at(f"defenders of two sides in {u.hex}", u.loc, help="a hex holds one side's units")]
    first_side = game.counters[attackers[0].counter].side
    for u in attackers:
        own = game.counters[u.counter].side
        if own == side:
            return [
                HW_CALC_002.at(
                    f"attacker {u.counter!r} is of the defender's side ({side})",
                    u.loc,
                    help="attackers are units of the other side",
                )
            ]
        if own != first_side:
            return [
                HW_CALC_002.at(
                    f"attackers of two sides ({first_side}, {own})", u.loc, help="one side attacks in a battle"
                )
            ]
    return []


def _reach(game: Game, scen: Scenario, defender: Unit, attackers: list[Unit]) -> list[Diagnostic]:
    """An attacker must stand beside the defender's hex, on its map, or within the range its face prints."""
    game_map = _map_of(game, scen, defender.hex)
    assert game_map is not None
    target = game_map.grid.label_to_hex(defender.hex)
    for u in attackers:
        here = game_map.grid.label_to_hex(u.hex)
        if here is None or target is None:
            return [
                HW_CALC_002.at(
                    f"attacker at {u.hex} is not on map {game_map.id} with the defender at {defender.hex}",
                    u.loc,
                    help="name both hexes by the labels of one map",
                )
            ]
        distance = here.distance(target)
        reach = _range(game, u)
        if distance == 0 or distance > max(1, reach):
            within = f" or within its range {reach:g}" if reach > 1 else ""
            return [
                HW_CALC_002.at(
                    f"attacker at {u.hex} is {distance} hexes from the defender at {defender.hex}",
                    u.loc,
                    help=f"an attacker stands in a hex beside the defender's{within}",
                )
            ]
    return []


def _range(game: Game, unit: Unit) -> float:
    """How far a unit fires in support: the `range` of a unit that prints a `support` strength (artillery,
    Typhoon 10.1.3; a range is printed on both faces, given on the first, `carried`), else 1."""
    counter = game.counters[unit.counter]
    face = (counter.face(unit.state) if unit.state else None) or counter.faces[0]
    values = {**counter.faces[0].values, **face.values}
    got, support = values.get("range"), values.get("support")
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (got, support))
    return float(got) if numbers else 1.0  # type: ignore[arg-type]


def _strengths(game: Game, units: list[Unit]) -> list[Diagnostic]:
    combat = game.combat
    assert combat is not None
    for u in units:
        value = combat.defence if u.role == "defender" else combat.attack
        if _strength(game, u) is None:
            return [
                HW_CALC_002.at(
                    f"unit {u.counter!r} shows no {value} strength on its {u.state or 'first'} face",
                    u.loc,
                    help=f"pick a unit (or face) that prints a {value} strength",
                )
            ]
    return []


def _strength(game: Game, unit: Unit) -> float | None:
    combat = game.combat
    assert combat is not None
    value = combat.defence if unit.role == "defender" else combat.attack
    return unit_strength(game, game.counters[unit.counter], unit.state, value)


def _turn_and_roll(game: Game, scen: Scenario, turn: int | None, roll: int | None) -> list[Diagnostic]:
    turns = [t.turn for t in scen.turns]
    if turn is None and turns:  # the turn's weather may change the battle: never a silent guess
        return [
            HW_CALC_002.at(
                f"no --turn: scenario {scen.id!r} has a turn record (its weather may change a battle)",
                Loc("--turn"),
                help=f"give --turn N, from {min(turns)} to {max(turns)}",
            )
        ]
    if turn is not None and turns and turn not in turns:
        return [
            HW_CALC_002.at(
                f"scenario {scen.id!r} has no turn {turn}",
                Loc(f"--turn {turn}"),
                help=f"its turns run from {min(turns)} to {max(turns)}",
            )
        ]
    low, high = _die_range(game)
    if roll is not None and not low <= roll <= high:
        return [
            HW_CALC_002.at(
                f"a roll of {roll} is off the die",
                Loc(f"--roll {roll}"),
                help=f"the {game.combat.die if game.combat else ''} rolls {low} to {high}",
            )
        ]
    return []


def _die_range(game: Game) -> tuple[int, int]:
    combat = game.combat
    assert combat is not None
    die = next((d for d in game.dice if d.name == combat.die), None)
    return (1, die.sides) if die is not None else (1, 6)


def _fighter(game: Game, unit: Unit) -> Fighter:
    """The unit as it fights (`rules.combat.fighter`): its strength for its role, and its support strength."""
    role = "attack" if unit.role == "attacker" else "defence"
    return fighter(game, game.counters[unit.counter], unit.state, unit.hex, role)


def _markers(units: list[Unit]) -> dict[str, list[str]]:
    """The markers on the units, by the hex they stand in (a marker counts for the units of its hex)."""
    out: dict[str, list[str]] = {}
    for u in units:
        out.setdefault(u.hex, []).extend(m for m in u.markers if m not in out.get(u.hex, ()))
    return out


def _report(
    game: Game, scen: Scenario, turn: int | None, units: list[Unit], roll: int | None, weather: str | None = None
) -> dict:
    combat = game.combat
    assert combat is not None
    defenders = [u for u in units if u.role == "defender"]
    attackers = [u for u in units if u.role == "attacker"]
    game_map = _map_of(game, scen, defenders[0].hex)
    assert game_map is not None
    d_fighters = [_fighter(game, u) for u in defenders]
    a_fighters = [_fighter(game, u) for u in attackers]
    low, high = _die_range(game)
    rolls = [roll] if roll is not None else list(range(low, high + 1))
    markers = _markers(units)
    battles = [
        fight(game, game_map, d_fighters, a_fighters, r, scenario=scen.id, turn=turn, weather=weather, markers=markers)
        for r in rolls
    ]
    first = battles[0]
    return {
        "game": game.id,
        "scenario": scen.id,
        "map": game_map.id,
        "hex": defenders[0].hex,
        "turn": turn,
        "weather": first.weather,
        "defenders": [_unit_entry(u, f) for u, f in zip(defenders, d_fighters, strict=True)],
        "attackers": [_unit_entry(u, f) for u, f in zip(attackers, a_fighters, strict=True)],
        "attack": _number(first.attack),
        "defence": _number(first.defence),
        "odds": _odds(game, first.base),
        "modifiers": [_effect(e) for e in first.shifts],
        "column": _odds(game, first.column) if first.column is not None else _odds(game, -1),
        "drm": first.drm,
        "results": [{"roll": b.roll, "row": b.row, "result": b.result} for b in battles],
        "not_applied": _not_applied(first),
    }


def _unit_entry(unit: Unit, fighter: Fighter) -> dict:
    entry: dict[str, object] = {"unit": unit.counter, "hex": unit.hex, "state": unit.state, "side": fighter.side}
    entry["type"] = fighter.type
    entry["strength"] = _number(fighter.strength)
    if unit.markers:
        entry["markers"] = list(unit.markers)
    return entry


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _odds(game: Game, column: int) -> str:
    """A column's label, or `below X` under the table's first odds column."""
    combat = game.combat
    assert combat is not None
    crt = game.table(combat.crt)
    assert crt is not None
    labels = [c for c in crt.columns[1:] if odds_ratio(c)]
    return labels[column] if column >= 0 else f"below {labels[0]}"


def _effect(effect) -> dict:
    """A shift, DRM or strength multiplier with its rule, as the module's report names it."""
    entry: dict[str, object] = {"name": effect.name, "label": effect.label(), "rule": effect.rule}
    for key in ("columns", "drm", "attack", "defence"):
        value = getattr(effect, key, None)
        if value not in (None, 0) and not (key in ("attack", "defence") and value == 1):
            entry[key] = _number(value)
    return entry


def _not_applied(battle: Battle) -> list[dict]:
    """What the battle leaves out (`Battle.not_applied`, each `"<name> (<rule>): <what the players do>"`) and the
    shifts it could not total from the tables (`CombatEffect.computed`), each with its rule."""
    out = [_named(text) for text in battle.not_applied]
    out += [{"name": e.name, "label": e.label(), "rule": e.rule} for e in battle.shifts if not e.computed]
    named: dict[str, dict] = {}
    for entry in out:  # each named once, where it first comes
        named.setdefault(str(entry["label"]), entry)
    return list(named.values())


_UNAPPLIED = re.compile(r"^(?P<name>.*?)(?: \((?P<rule>[^()]*)\))?: ")


def _named(text: str) -> dict:
    """A not-applied entry as name, label (the whole text) and rule, read from `CombatEffect.unapplied`'s words."""
    found = _UNAPPLIED.match(text)
    name, rule = (found.group("name"), found.group("rule") or "") if found else (text, "")
    return {"name": name, "label": text, "rule": rule}
