"""A battle resolved from the tables: odds column, terrain shifts and modifiers, die roll and CRT result.

The reference computation of `combat` in tables.yaml. The module's resolve action computes the same in the
engine (`vassal/combat.py`); the engine test compares the two. Game-specific behaviour is all in the data."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

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
    say (below the table without a `below` result, or an effect no resolve computes, `CombatEffect.computed`)."""

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
    """A unit in a battle: where it stands, its side, unit type and strength (attack or defence, as it fights)."""

    hex: str
    side: str
    type: str = ""
    strength: float = 0.0


def unit_strength(game: Game, counter: Counter, state: str | None, value: str) -> float | None:
    """The strength `value` (the combat's attack or defence value id) that `counter` fights with at `state`
    (default its first face), as its face shows it (`model.face_values`); None when the face shows no number."""
    face = (counter.face(state) if state else None) or (counter.faces[0] if counter.faces else None)
    got = face_values(game, counter, face).get(value) if face is not None else None
    return None if isinstance(got, bool) or not isinstance(got, (int, float)) else float(got)


def _hex_has(game_map, label: str, effect: CombatEffect) -> bool:
    info = next((i for i in game_map.hexes.values() if i.label == label), None)
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


def applies(game_map, effect: CombatEffect, defender: Sequence[Fighter], attackers: Sequence[Fighter]) -> bool:
    """Whether `effect` applies to the battle: sides as it names them; its unit types among the units it
    multiplies (the attackers for an attack multiplier, else the defenders); its hex or hexside."""
    if not defender or not attackers:
        return False
    if effect.defender_side and defender[0].side != effect.defender_side:
        return False
    if effect.attacker_side and attackers[0].side != effect.attacker_side:
        return False
    typed = attackers if effect.attack != 1 else defender
    if effect.unit_types and not any(u.type in effect.unit_types for u in typed):
        return False
    if effect.where == "hexside":
        across = [_across(game_map, a.hex, defender[0].hex, effect.id) for a in attackers]
        return all(across) if effect.across == "all" else any(across)
    if effect.of == "attacker":
        return any(_hex_has(game_map, a.hex, effect) for a in attackers)
    return _hex_has(game_map, defender[0].hex, effect)


def _attack_factor(game_map, effect: CombatEffect, unit: Fighter, defender_hex: str) -> float:
    """How `effect` (applied) multiplies one attacker: only one of the types it names, across its hexside or
    out of its hex when it says so (Typhoon 8.3.6 a, b)."""
    if not effect.touches("attack", unit.type):
        return 1.0
    if effect.where == "hexside" and not _across(game_map, unit.hex, defender_hex, effect.id):
        return 1.0
    if effect.of == "attacker" and not _hex_has(game_map, unit.hex, effect):
        return 1.0
    return effect.attack


def strength(combat: Combat, factors: Sequence[float], units: Sequence[Fighter]) -> float:
    """The units' strengths, each multiplied by its own factor, summed and the total rounded as the game says
    (`fractions`: rounded once, after every multiplier, 1941 7.5 A, C; Typhoon 8.3.2 keeps fractions, and a
    halved total is never below one, `least`)."""
    total = sum(u.strength * f for u, f in zip(units, factors, strict=True))
    if all(f == 1 for f in factors):
        return float(total)
    least = min(combat.least, sum(u.strength for u in units))  # never below `least`, nor raised by it
    return max(rounded(total, combat.fractions), least)


def fight(game: Game, game_map, defender: Sequence[Fighter], attackers: Sequence[Fighter], roll: int) -> Battle:
    """The battle of `attackers` on the `defender` stack, its effects found on `game_map`, at die roll `roll`."""
    combat = game.combat
    assert combat is not None
    applied = [e for e in combat.effects if applies(game_map, e, defender, attackers)]
    target = defender[0].hex
    attack_factors = [math.prod(_attack_factor(game_map, e, a, target) for e in applied) for a in attackers]
    defence_factors = [math.prod(e.defence for e in applied if e.touches("defence", d.type)) for d in defender]
    attack = strength(combat, attack_factors, attackers)
    defence = strength(combat, defence_factors, defender)
    return resolve(game, attack, defence, applied, roll)
