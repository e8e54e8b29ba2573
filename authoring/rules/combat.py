"""A battle resolved from the tables: odds column, terrain shifts and modifiers, die roll and CRT result.

The reference computation of `combat` in tables.yaml. The module's resolve action computes the same in the
engine (`vassal/combat.py`); the engine test compares the two. Game-specific behaviour is all in the data."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from authoring.model import Combat, CombatEffect, Game, Table
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
    say (below the table without a `below` result, or an effect the module does not compute)."""

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


def effect_label(effect: CombatEffect) -> str:
    """`forest -1 column`, `hills +1 DRM`, `fortification defence x2`: how a report names an effect."""
    parts = []
    if effect.columns:
        parts.append(f"{effect.columns:+d} column" + ("s" if abs(effect.columns) > 1 else ""))
    if effect.drm:
        parts.append(f"{effect.drm:+d} DRM")
    if effect.defence != 1:
        parts.append(f"defence x{_num(effect.defence)}")
    if effect.attack != 1:
        parts.append(f"attack x{_num(effect.attack)}")
    return f"{effect.name} " + ", ".join(parts)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def resolve(
    game: Game, attack: float, defence: float, applied: Sequence[CombatEffect], roll: int
) -> Battle:
    """The battle of `attack` against `defence` strength points (as printed on the faces shown), with the
    effects that apply to it, at die roll `roll`."""
    combat = game.combat
    assert combat is not None
    crt = game.table(combat.crt)
    assert crt is not None
    labels = [c for c in crt.columns[1:] if odds_ratio(c)]
    ratios = odds_columns(crt)
    multiplier = math.prod(e.defence for e in applied)
    defence_total = rounded(defence * multiplier, combat.fractions) if multiplier != 1 else float(defence)
    attack_mult = math.prod(e.attack for e in applied)
    attack_total = rounded(attack * attack_mult, combat.fractions) if attack_mult != 1 else float(attack)
    base = min(base_column(attack_total, defence_total, ratios), len(ratios) - 1)
    shift = sum(e.columns for e in applied)
    column: int | None = None if base < 0 else min(base + shift, len(ratios) - 1)
    if column is not None and column < 0:
        column = None
    drm = sum(e.drm for e in applied)
    if combat.drm_limit is not None:
        drm = max(-combat.drm_limit, min(combat.drm_limit, drm))
    keys = [int(r[0]) for r in crt.rows]
    row = max(min(keys), min(max(keys), roll + drm))
    if column is None:
        result = combat.below
    else:
        result = str(crt.cell(row, labels[column]))
    return Battle(
        attack_total,
        defence_total,
        base,
        tuple(applied),
        column,
        None if column is None else labels[column],
        drm,
        roll,
        row,
        result,
    )


def crt_of(game: Game) -> tuple[Combat, Table] | None:
    """The game's combat spec and its CRT, or None when the tables do not declare combat."""
    if game.combat is None:
        return None
    crt = game.table(game.combat.crt)
    return None if crt is None else (game.combat, crt)


@dataclass(frozen=True)
class Fighter:
    """A unit in a battle: where it stands, its side and unit type."""

    hex: str
    side: str
    type: str = ""


def _hex_has(game_map, label: str, effect: CombatEffect) -> bool:
    info = next((i for i in game_map.hexes.values() if i.label == label), None)
    if info is None:
        return False
    if effect.where == "terrain":
        return effect.id in info.terrain
    return info.has_feature(effect.id)


def _across(game_map, a: str, b: str, feature: str) -> bool:
    """Whether the hexside between the hexes labelled `a` and `b` has the hexside feature."""
    pair = {a, b}
    return any(
        {game_map.label(s.side[0]), game_map.label(s.side[1])} == pair
        for s in game_map.hexsides
        if s.type == feature
    )


def applies(game_map, effect: CombatEffect, defender: Sequence[Fighter], attackers: Sequence[Fighter]) -> bool:
    """Whether `effect` applies to the battle (sides and unit types as the effect names them)."""
    if not defender or not attackers:
        return False
    if effect.defender_side and defender[0].side != effect.defender_side:
        return False
    if effect.attacker_side and attackers[0].side != effect.attacker_side:
        return False
    if effect.unit_types and not any(u.type in effect.unit_types for u in defender):
        return False
    if effect.where == "hexside":
        across = [_across(game_map, a.hex, defender[0].hex, effect.id) for a in attackers]
        return all(across) if effect.across == "all" else any(across)
    if effect.of == "attacker":
        return any(_hex_has(game_map, a.hex, effect) for a in attackers)
    return _hex_has(game_map, defender[0].hex, effect)


def computed_in_module(effect: CombatEffect) -> bool:
    """Effects the module's resolve action computes: on the defender's hex (shifts, DRMs, a multiplier of the
    whole defence) or on a hexside all attackers are across. The others (an attacker's hex, each attacker
    across, per unit type, attack multipliers) make the report leave the result out when they apply."""
    if effect.attack != 1 or effect.unit_types or effect.of == "attacker":
        return False
    return effect.where != "hexside" or (effect.across == "all" and effect.defence == 1)
