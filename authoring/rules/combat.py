"""A battle resolved from the tables: odds column, terrain shifts and modifiers, die roll and CRT result.

The reference computation of `combat` in tables.yaml. The module's resolve action computes the same in the
engine (`vassal/combat.py`); the engine test compares the two. Game-specific behaviour is all in the data."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from authoring.model import Combat, CombatEffect, Counter, Game, Table, face_values
from authoring.model.game import odds_ratio


def odds_columns(crt: Table) -> tuple[tuple[int, int], ...]:
    """The CRT's odds columns as ratios, in the table's order (the first column holds the die roll)."""
    return tuple(r for r in (odds_ratio(c) for c in crt.columns[1:]) if r is not None)


def base_column(attack: float, defence: float, ratios: Sequence[tuple[int, int]]) -> int:
    """The highest column whose ratio the attack reaches (fractions in the defender's favour); -1 below the
    first; a defence of 0 gets the last."""
    if defence <= 0:
        return len(ratios) - 1
    best = -1
    for i, (num, den) in enumerate(ratios):
        if attack * den >= num * defence:
            best = i
    return best


def rounded(value: float, fractions: str) -> float:
    """A multiplied total as the rules round it: `up`, `down` or `keep` (fractions kept)."""
    if fractions == "up":
        return float(math.ceil(value - 1e-9))
    if fractions == "down":
        return float(math.floor(value + 1e-9))
    return value


@dataclass(frozen=True)
class Battle:
    """What a battle resolves to; `column` is None below the table, `result` None where the tables do not
    say (below the table without a `below` result, or an effect no resolve computes, `CombatEffect.computed`).

    `attack`, `defence`: the totals after every modifier (multipliers, support, marker values); `base`: the
    odds column they reach (-1 below the table); `shifts`: the effects applied; `column` / `column_label`: the
    final column; `drm`: the net DRM (limited); `roll`, `row`: the die roll and the CRT row it reads;
    `not_applied`: the modifiers whose conditions hold (or may: the weather is not known) that the result leaves
    out, each `"<name> (<rule>): <what the players apply>"` (supply, a moved shock army, air points, weather
    not known); `weather`: the weather the battle was fought in (None: not known)."""

    attack: float
    defence: float
    base: int
    shifts: tuple[CombatEffect, ...]
    column: int | None
    column_label: str | None
    drm: int
    roll: int
    row: int
    result: str | None
    not_applied: tuple[str, ...] = ()
    weather: str | None = None


def resolve(game: Game, attack: float, defence: float, applied: Sequence[CombatEffect], roll: int) -> Battle:
    """The battle of `attack` against `defence` strength points (the totals after the effects' multipliers,
    `strength`), with the effects that apply to it, at die roll `roll`. An applied effect that is not
    `computed` leaves the result out, as the module does."""
    combat = game.combat
    assert combat is not None
    crt = game.table(combat.crt)
    assert crt is not None
    labels = [c for c in crt.columns[1:] if odds_ratio(c)]
    ratios = odds_columns(crt)
    known = [e for e in applied if e.computed]
    base = min(base_column(attack, defence, ratios), len(ratios) - 1)
    column: int | None = None if base < 0 else min(base + sum(e.columns for e in known), len(ratios) - 1)
    if column is not None and column < 0:
        column = None
    drm = sum(e.drm for e in known)
    if combat.drm_limit is not None:
        drm = max(-combat.drm_limit, min(combat.drm_limit, drm))
    keys = [int(r[0]) for r in crt.rows]
    row = max(min(keys), min(max(keys), roll + drm))
    if len(known) < len(applied):
        result = None
    elif column is None:
        result = combat.below
    else:
        result = str(crt.cell(row, labels[column]))
    label = None if column is None else labels[column]
    return Battle(float(attack), float(defence), base, tuple(known), column, label, drm, roll, row, result)


def crt_of(game: Game) -> tuple[Combat, Table] | None:
    """The game's combat spec and its CRT, or None when the tables do not declare combat."""
    if game.combat is None:
        return None
    crt = game.table(game.combat.crt)
    return None if crt is None else (game.combat, crt)


@dataclass(frozen=True)
class Fighter:
    """A unit in a battle: where it stands, its side, unit type and strength (attack or defence, as it fights);
    `support` its support strength (artillery, Typhoon 10.1), when it has one."""

    hex: str
    side: str
    type: str = ""
    strength: float = 0.0
    support: float | None = None


def unit_strength(game: Game, counter: Counter, state: str | None, value: str) -> float | None:
    """The strength `value` (the combat's attack or defence value id) that `counter` fights with at `state`
    (default its first face), as its face shows it (`model.face_values`); None when the face shows no number."""
    face = (counter.face(state) if state else None) or (counter.faces[0] if counter.faces else None)
    got = face_values(game, counter, face).get(value) if face is not None else None
    return None if isinstance(got, bool) or not isinstance(got, (int, float)) else float(got)


def fighter(game: Game, counter: Counter, state: str | None, hex_label: str, role: str) -> Fighter:
    """`counter` at `state` in the hex labelled `hex_label` as it fights in `role` (`attack` / `defence`): its
    strength, and its support strength when an effect names one for its type."""
    combat = game.combat
    assert combat is not None
    value = combat.attack if role == "attack" else combat.defence
    support = next((e.support for e in combat.effects if e.support and counter.type in e.unit_types), "")
    return Fighter(
        hex_label,
        counter.side or "",
        counter.type or "",
        unit_strength(game, counter, state, value) or 0.0,
        unit_strength(game, counter, state, support) if support else None,
    )


def turn_weather(game: Game, turn: int | None, scenario: str | None = None) -> str | None:
    """The weather of `turn` in the turn record of `scenario` (else of every scenario that has that turn, when
    they agree), one of `Combat.weathers`; None when not known, or when the weather is rolled
    (`Combat.weather_rolled`), as the module reads it from the turn tracker."""
    if turn is None or game.combat is None or game.combat.weather_rolled:
        return None
    scenarios = [game.scenarios[scenario]] if scenario else list(game.scenarios.values())
    found = {t.weather for s in scenarios for t in s.turns if t.turn == turn}
    weather = found.pop() if len(found) == 1 else None
    return weather if weather in game.combat.weathers else None  # a weather the rules do not name: not known


def _hex_info(game_map, label: str):
    return next((i for i in game_map.hexes.values() if i.label == label), None)


def _hex_has(game_map, label: str, effect: CombatEffect) -> bool:
    info = _hex_info(game_map, label)
    if info is None:
        return False
    if effect.where == "terrain":
        return effect.id in info.terrain
    return info.has_feature(effect.id)


def _across(game_map, attacker: str, defender: str, feature: str) -> bool:
    """Whether an attacker in the hex labelled `attacker` attacks `defender` across the hexside feature (a
    directed one, such as a fortified line, only from the hex it faces)."""
    pair = {attacker, defender}
    return any(
        {game_map.label(s.side[0]), game_map.label(s.side[1])} == pair
        and (s.faces is None or game_map.label(s.faces) == attacker)
        for s in game_map.hexsides
        if s.type == feature
    )


def _types_hold(tests, units: Sequence[Fighter]) -> bool:
    """Whether every (`all` / `any` / `none`, types) test holds of the units' types."""
    for quantifier, types in tests:
        hits = [u.type in types for u in units]
        if quantifier == "all" and not (hits and all(hits)):
            return False
        if quantifier == "any" and not any(hits):
            return False
        if quantifier == "none" and any(hits):
            return False
    return True


def _marker_here(game: Game, entries: Sequence[str], wanted: Sequence[str]) -> bool:
    """Whether a marker of `entries` (`id` or `id:state`; no state: its first face) is one `wanted` names."""
    for entry in entries:
        cid, _, state = entry.partition(":")
        counter = game.counters.get(cid)
        state = state or (counter.faces[0].state if counter is not None and counter.faces else "")
        if any(w == cid or w == f"{cid}:{state}" for w in wanted):
            return True
    return False


def _marker_hexes(effect: CombatEffect, defender: Sequence[Fighter], attackers: Sequence[Fighter]) -> list[str]:
    hexes = [defender[0].hex] if effect.marker_on in ("defender", "any") else []
    if effect.marker_on in ("attacker", "any"):
        hexes += sorted({a.hex for a in attackers})
    return hexes


def _place(game_map, effect: CombatEffect, defender: Sequence[Fighter], attackers: Sequence[Fighter]) -> bool:
    """Whether the effect's place holds: its hexside (every attacker across, or one), an attacker's hex or the
    defender's; the defender hex's terrain allowed or barred; no attacker across a barred hexside."""
    target = defender[0].hex
    if effect.where == "hexside":
        across = [_across(game_map, a.hex, target, effect.id) for a in attackers]
        if not (all(across) if effect.across == "all" else any(across)):
            return False
    elif effect.where and effect.of == "attacker":
        if not any(_hex_has(game_map, a.hex, effect) for a in attackers):
            return False
    elif effect.where and not _hex_has(game_map, target, effect):
        return False
    if effect.terrain_only or effect.terrain_not:
        info = _hex_info(game_map, target)
        terrain = set(info.terrain) if info is not None else set()
        if effect.terrain_only and not terrain <= set(effect.terrain_only):
            return False
        if terrain & set(effect.terrain_not):
            return False
    return not any(_across(game_map, a.hex, target, f) for f in effect.not_across for a in attackers)


def _holds(
    game: Game,
    game_map,
    effect: CombatEffect,
    defender: Sequence[Fighter],
    attackers: Sequence[Fighter],
    markers: Mapping[str, Sequence[str]],
) -> bool:
    """Whether every condition of `effect` but the weather holds of the battle."""
    if not defender or not attackers:
        return False
    if effect.defender_side and defender[0].side != effect.defender_side:
        return False
    if effect.attacker_side and attackers[0].side != effect.attacker_side:
        return False
    support_role = effect.role if effect.support else ""
    typed = attackers if effect.attack != 1 or support_role == "attack" else defender
    if effect.unit_types and not any(u.type in effect.unit_types for u in typed):
        return False
    if support_role == "defence" and all(d.type in effect.unit_types for d in defender):
        return False  # alone, or with its own kind only, it defends with its defence (Typhoon 10.2.1)
    if not (_types_hold(effect.attackers, attackers) and _types_hold(effect.defenders, defender)):
        return False
    hexes = _marker_hexes(effect, defender, attackers)
    if effect.markers and not any(_marker_here(game, markers.get(h, ()), effect.markers) for h in hexes):
        return False
    if effect.no_markers and any(_marker_here(game, markers.get(h, ()), effect.no_markers) for h in hexes):
        return False
    return _place(game_map, effect, defender, attackers)


def applies(
    game_map,
    effect: CombatEffect,
    defender: Sequence[Fighter],
    attackers: Sequence[Fighter],
    *,
    game: Game | None = None,
    weather: str | None = None,
    markers: Mapping[str, Sequence[str]] | None = None,
) -> bool:
    """Whether `effect` applies to the battle: every condition holds (the weather `weather`; an effect the
    weather decides does not apply when it is None, nor one the players apply, `CombatEffect.manual`)."""
    if (effect.markers or effect.no_markers) and game is None:
        return False
    if not _holds(game, game_map, effect, defender, attackers, markers or {}):  # type: ignore[arg-type]
        return False
    if effect.manual:
        return False
    return not effect.weathered or (weather is not None and effect.in_weather(weather))


def _factor(effects: Sequence[CombatEffect], factor_of) -> float:
    """The product of the effects' factors for one unit; the `once` ones only when no other multiplies it
    (Typhoon 9.1.3: an armour unit halved attacking a city is not halved again out of a swamp)."""
    others = [factor_of(e) for e in effects if not e.once]
    if any(f != 1 for f in others):
        return math.prod(others)
    return math.prod(factor_of(e) for e in effects if e.once)


def _attack_factor(game_map, effect: CombatEffect, unit: Fighter, defender_hex: str) -> float:
    """How `effect` (applied) multiplies one attacker: only one of the types it names, across its hexside or
    out of its hex when it says so (Typhoon 8.3.6 a, b)."""
    if not effect.touches("attack", unit.type):
        return 1.0
    if effect.where == "hexside" and not _across(game_map, unit.hex, defender_hex, effect.id):
        return 1.0
    if effect.where and effect.of == "attacker" and not _hex_has(game_map, unit.hex, effect):
        return 1.0
    return effect.attack


def strength(combat: Combat, factors: Sequence[float], units: Sequence[Fighter]) -> float:
    """The units' strengths, each multiplied by its own factor, summed and the total rounded as the game says
    (`fractions`: rounded once, after every multiplier, 1941 7.5 A, C; Typhoon 8.3.2 keeps fractions, and a
    halved total is never below one, `least`)."""
    return total(combat, factors, [u.strength for u in units])


def total(combat: Combat, factors: Sequence[float], values: Sequence[float], support=(), extra: float = 0.0) -> float:
    """`strength` of plain `values`, with the support values (`support`: (value, factor) pairs) added up to
    the units' own total (Typhoon 10.1.8) and `extra` (marker values) added, then rounded once."""

    def capped(units: float, backing: float) -> float:
        return units + min(backing, max(units, 0.0)) + extra

    raw = capped(sum(values), sum(v for v, _ in support))
    summed = capped(sum(v * f for v, f in zip(values, factors, strict=True)), sum(v * f for v, f in support))
    if all(f == 1 for f in factors) and all(f == 1 for _, f in support):
        return float(summed)
    return max(rounded(summed, combat.fractions), min(combat.least, raw))  # never below `least`, nor raised


def _marker_total(game: Game, effects, hexes: Sequence[str], markers, value: str) -> float:
    """The `value` of every marker a `marker_values` effect names in `hexes`."""
    out = 0.0
    for h in hexes:
        for entry in markers.get(h, ()):
            if any(_marker_here(game, [entry], e.markers) for e in effects):
                cid, _, state = entry.partition(":")
                got = unit_strength(game, game.counters[cid], state or None, value) if cid in game.counters else None
                out += got or 0.0
    return out


def fight(
    game: Game,
    game_map,
    defender: Sequence[Fighter],
    attackers: Sequence[Fighter],
    roll: int,
    *,
    scenario: str | None = None,
    turn: int | None = None,
    weather: str | None = None,
    markers: Mapping[str, Sequence[str]] | None = None,
) -> Battle:
    """The battle of `attackers` on the `defender` stack, its effects found on `game_map`, at die roll `roll`.

    `weather` (else the weather of `turn` in the turn record of `scenario`, `turn_weather`) decides the effects
    the weather changes; not known, they are named in `Battle.not_applied`. `markers`: the marker counters in
    play by hex label (`id`, or `id:state` for one face: a Step Loss marker, an Out of Supply marker); a marker
    counts for the units of its hex."""
    combat = game.combat
    assert combat is not None
    weather = weather if weather is not None else turn_weather(game, turn, scenario)
    markers = markers or {}
    holding = [e for e in combat.effects if _holds(game, game_map, e, defender, attackers, markers)]
    applied = [e for e in holding if not e.manual and (not e.weathered or (weather and e.in_weather(weather)))]
    why = f"the weather is rolled ({combat.weather_rolled})" if combat.weather_rolled else "the weather is not known"
    unknown = [
        e.unapplied() if e.manual else e.unapplied(why)
        for e in holding
        if e.manual or (weather is None and e.weathered)
    ]  # in the data's order, as the module names them
    target = defender[0].hex
    attack = _side_total(game, game_map, applied, attackers, "attack", target, markers)
    defence = _side_total(game, game_map, applied, defender, "defence", target, markers)
    battle = resolve(game, attack, defence, applied, roll)
    return replace(battle, not_applied=tuple(unknown), weather=weather)


def _side_total(game: Game, game_map, applied, units: Sequence[Fighter], role: str, target: str, markers) -> float:
    """One side's total: each unit's strength (or support) times its own multipliers, the support capped, the
    markers' values added, rounded once."""
    combat = game.combat
    assert combat is not None
    supports = [e for e in applied if e.support and e.role == role]
    plain, backing = [], []
    for u in units:
        if role == "attack":
            factor = _factor(applied, lambda e, u=u: _attack_factor(game_map, e, u, target))
        else:
            factor = _factor(applied, lambda e, u=u: e.defence if e.touches("defence", u.type) else 1.0)
        if any(u.type in e.unit_types for e in supports):
            backing.append((u.support or 0.0, factor))
        else:
            plain.append((u.strength, factor))
    valued = [e for e in applied if e.marker_values]
    hexes = sorted({u.hex for u in units}) if role == "attack" else [target]
    value = combat.attack if role == "attack" else combat.defence
    extra = _marker_total(game, valued, hexes, markers, value) if valued else 0.0
    return total(combat, [f for _, f in plain], [v for v, _ in plain], backing, extra)
