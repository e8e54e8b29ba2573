"""Combat from the tables in the module: mark attackers, resolve on a defender, read the report.

Every unit carries the "Combat" prototype (outside its side's restricted access, so the attacking side
resolves on an enemy unit): an Attacker layer toggled by ATTACKER, and on RESOLVE a die roll (a Dynamic
Property set to `{Random(sides)}`) and a chat report computed by Calculated Properties from the marked
attackers' and the defender hex's current values, the terrain effects of the data and the CRT. The data the
expressions look up (CRT cells, odds headings, the hexes and hexsides of each effect, the selections the
counts use) are module Global Properties, so a piece in a saved game holds only short expressions.

Strength multipliers count unit by unit (an attacker across a major river or out of a swamp, a defender of
the unit types a fortification doubles): the units each set of multipliers touches are summed by a selection
of their own. A shift the tables cannot total (`CombatEffect.computed`) makes the report name it and leave the
result out rather than give a wrong one. Same odds rule as `rules.combat`:
the highest column the attack reaches, the top column above it, shifts after, below the first column the
data's `below` result (none given: no result)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from authoring.model import Combat, CombatEffect, Game
from authoring.model.game import odds_ratio
from authoring.vassal import elements as el
from authoring.vassal.codec import key_stroke
from authoring.vassal.traits import BasicPiece, CalculatedProperty, DynamicProperty, Layer, Piece, Report

PROTOTYPE = "Combat"
ATTACKER = key_stroke(ord("A"), ctrl=True, alt=True)
RESOLVE = key_stroke(ord("K"), ctrl=True, alt=True)
CLEAR_ATTACKERS = key_stroke(ord("A"), ctrl=True, alt=True, shift=True)
ATTACKER_LAYER = "Attacker"
ATTACKER_IMAGE = "combat-attacker.png"
MARKED = f"{ATTACKER_LAYER}_Active==true"
MAIN = '"Map"'
HERE = "CurrentX==$CurrentX$ && CurrentY==$CurrentY$"
"""A selection's test for the defender's stack (a numeric hex label reads as a number in BeanShell, as text in
$...$: compare positions, not names)."""
NOT_COMPUTED = "result not computed"
BELOW_TABLE = "below the table"
REPORT = "Combat at $LocationName$: $CombatReport$"
"""The chat line of a resolve: the hex as the map names it, then the computed report."""
ROW_SEP = ","


@dataclass(frozen=True)
class Plan:
    """What the module needs from the game's combat data, or nothing when it has none usable."""

    columns: tuple[str, ...]
    ratios: tuple[tuple[int, int], ...]
    first_row: int
    rows: int
    cells: tuple[str, ...]
    sides: int
    rules: Combat
    """The game's combat data: strengths summed, odds bounds, rounding, effects."""


def plan(game: Game) -> Plan | None:
    """The game's CRT and effects as the module uses them; None without combat data or a CRT whose rows are
    not consecutive die rolls (the report looks a cell up by position)."""
    combat = game.combat
    crt = game.table(combat.crt) if combat else None
    die = next((d for d in game.dice if combat and d.name == combat.die), None)
    if combat is None or crt is None or die is None:
        return None
    keep = [i for i, c in enumerate(crt.columns) if i > 0 and odds_ratio(c)]
    keys = [int(r[0]) for r in crt.rows]
    if keys != list(range(keys[0], keys[0] + len(keys))):
        return None
    return Plan(
        tuple(crt.columns[i] for i in keep),
        tuple(odds_ratio(crt.columns[i]) for i in keep),  # type: ignore[misc]
        keys[0],
        len(keys),
        tuple(str(r[i]) for r in crt.rows for i in keep),
        die.sides,
        combat,
    )


# ------------------------------------------------------------------ global properties
def as_read(label: str) -> str:
    """A hex label as a BeanShell expression reads `LocationName`: the engine turns a numeric property value
    into a number, so `0504` reads `504` (a `$LocationName$` put into a selection's text stays `0504`)."""
    return str(int(label)) if label.isdigit() else label


def _hexes(game: Game, effect: CombatEffect) -> str:
    labels = []
    for m in game.maps.values():
        hexes = m.hexes_with_terrain(effect.id) if effect.where == "terrain" else m.hexes_with_feature(effect.id)
        labels += [as_read(m.label(h)) for h in hexes]
    return "|" + "|".join(sorted(labels)) + "|"


def _sides(game: Game, effect: CombatEffect) -> str:
    pairs = []
    for m in game.maps.values():
        for s in m.hexsides:
            if s.type == effect.id:
                a, b = m.label(s.side[0]), m.label(s.side[1])
                if s.faces is None or s.faces == s.side[0]:  # a directed side (a fortified line) counts from the
                    pairs.append(f"{as_read(a)}>{b}")  # hex it faces, the attacker's
                if s.faces is None or s.faces == s.side[1]:
                    pairs.append(f"{as_read(b)}>{a}")
    return "|" + "|".join(sorted(pairs)) + "|"


def _at_attacker_hex(i: int) -> str:
    return f'CombatWhere{i}.indexOf("|"+LocationName+"|")>=0'


def global_values(game: Game, p: Plan) -> list[tuple[str, str, str]]:
    """(name, value, description) of the module's combat properties."""
    out = [
        ("CombatCRT", ROW_SEP.join(p.cells), "CRT cells, row by row (die roll first row first)"),
        ("CombatColumns", ROW_SEP.join(p.columns), "CRT odds columns"),
        ("CombatMarked", "{" + MARKED + "}", "selection: the marked attackers"),
    ]
    for i, e in enumerate(p.rules.effects):
        if e.where == "hexside":
            out.append((f"CombatWhere{i}", _sides(game, e), f"{e.name}: attacker>defender hexsides"))
            across = f'CombatWhere{i}.indexOf("|"+LocationName+">$LocationName$|")>=0'
            out.append((f"CombatSel{i}", "{" + f"{MARKED} && {across}" + "}", f"{e.name}: marked attackers across"))
        else:
            out.append((f"CombatWhere{i}", _hexes(game, e), f"{e.name}: hexes"))
            out.append(
                (f"CombatSel{i}", "{" + f"{MARKED} && {_at_attacker_hex(i)}" + "}", f"{e.name}: marked attackers in")
            )
        if e.attacker_side:
            out.append((f"CombatSide{i}", "{" + f'{MARKED} && SideId=="{e.attacker_side}"' + "}", "attacker side"))
        if e.unit_types:
            whose = MARKED if e.attack != 1 else HERE
            out.append((f"CombatTypes{i}", "{" + f"{whose} && {_types(e)}" + "}", f"{e.name}: unit types"))
    for role, base in (("attack", MARKED), ("defence", HERE)):
        for k, group in enumerate(_groups(p, role)):
            terms = [_member(i, e, role) if i in group else f"!({_member(i, e, role)})" for i, e in _touching(p, role)]
            out.append((_group_name(role, k), "{" + " && ".join([base, *terms]) + "}", f"{role}: units so multiplied"))
    return out


def _types(e: CombatEffect) -> str:
    return "(" + " || ".join(f'TypeId=="{t}"' for t in e.unit_types) + ")"


def _touching(p: Plan, role: str) -> list[tuple[int, CombatEffect]]:
    """The effects multiplying `role` strengths, with their indexes."""
    return [(i, e) for i, e in enumerate(p.rules.effects) if (e.attack if role == "attack" else e.defence) != 1]


def _groups(p: Plan, role: str) -> list[frozenset[int]]:
    """Every non-empty set of the `role` multipliers: the units one set touches (and no other) are summed
    together and multiplied by its factors, so each unit's strength is multiplied by its own effects only."""
    idx = [i for i, _ in _touching(p, role)]
    return [frozenset(i for b, i in enumerate(idx) if mask >> b & 1) for mask in range(1, 1 << len(idx))]


def _group_name(role: str, k: int) -> str:
    return f"Combat{role.capitalize()}Group{k}"


def _member(i: int, e: CombatEffect, role: str) -> str:
    """Whether effect `i` (when it applies) touches the unit a selection looks at: its unit types; for an
    attacker, across the effect's hexside from the defender or in the effect's hex when it is the attacker's."""
    terms = [_types(e)] if e.unit_types else []
    if role == "attack" and e.where == "hexside":
        terms.append(f'CombatWhere{i}.indexOf("|"+LocationName+">$LocationName$|")>=0')
    elif role == "attack" and e.of == "attacker":
        terms.append(_at_attacker_hex(i))
    return "(" + " && ".join(terms) + ")" if terms else "true"


# ------------------------------------------------------------------ the expressions
def _hit(i: int, e: CombatEffect) -> str:
    """Whether effect `i` applies, evaluated on the defender."""
    terms = []
    if e.where == "hexside":
        count = f"Count(CombatSel{i},{MAIN})"
        terms.append(f"(CombatAttackers>0 && {count}==CombatAttackers)" if e.across == "all" else f"{count}>0")
    elif e.of == "attacker":
        terms.append(f"Count(CombatSel{i},{MAIN})>0")
    else:
        terms.append(f'CombatWhere{i}.indexOf("|"+LocationName+"|")>=0')
    if e.defender_side:
        terms.append(f'SideId=="{e.defender_side}"')
    if e.attacker_side:
        terms.append(f"Count(CombatSide{i},{MAIN})>0")
    if e.unit_types:
        terms.append(f"Count(CombatTypes{i},{MAIN})>0")
    return "{" + " && ".join(terms) + "}"


def _round(expr: str, fractions: str) -> str:
    if fractions == "up":
        return f"(int)Math.ceil({expr}-0.000001)"
    if fractions == "down":
        return f"(int)Math.floor({expr}+0.000001)"
    return expr


def _strength(p: Plan, role: str, total: str) -> str:
    """`total` plus, for each group of units (`_groups`), its strength times its factors less one; the sum
    rounded as the game says, once, after every multiplier (1941 7.5 A, C)."""
    field = p.rules.attack if role == "attack" else p.rules.defence
    terms = [total]
    for k, group in enumerate(_groups(p, role)):
        factor = "*".join(
            f"(CombatHit{i}?{float(getattr(e, role))!r}:1.0)" for i, e in _touching(p, role) if i in group
        )
        terms.append(f'({factor}-1.0)*Sum("{field}",{_group_name(role, k)},{MAIN})')
    if len(terms) == 1:
        return "{" + total + "}"
    rounded = _round("+".join(terms), p.rules.fractions)
    if p.rules.least:  # never below `least`, nor above the total unmultiplied
        rounded = f"Math.max({rounded},Math.min({float(p.rules.least)!r},{total}))"
    return "{" + rounded + "}"


def _whole(name: str) -> str:
    """A total shown without a trailing `.0` when it is whole."""
    return "{" + f"{name}==Math.floor({name})?(int){name}:{name}" + "}"


def _base(p: Plan) -> str:
    """The highest column the attack reaches; -1 below the first; a defence of 0 gets the last."""
    expr = "-1"
    for i, (num, den) in enumerate(p.ratios):
        expr = f"(CombatAttack*{den}>={num}*CombatDefence?{i}:{expr})"
    return "{" + f"CombatDefence<=0?{len(p.ratios) - 1}:{expr}" + "}"


def _sum(p: Plan, field: str) -> str:
    terms = [
        f"(CombatHit{i}?{getattr(e, field)}:0)"
        for i, e in enumerate(p.rules.effects)
        if e.computed and getattr(e, field)
    ]
    return "+".join(["0", *terms])


def _braced(expr: str) -> str:
    """A BeanShell expression; a bare constant as the engine writes it (`0`, not `{0}`)."""
    return expr if expr.lstrip("-").isdigit() else "{" + expr + "}"


def _text_of(effects: Sequence[tuple[int, CombatEffect]]) -> str:
    terms = [f'(CombatHit{i}?", {e.label()}":"")' for i, e in effects]
    return "{" + "+".join(['""', *terms]) + "}"


def _report(p: Plan) -> str:
    col = 'GetProperty("CombatColumns").split(",")'
    first = p.columns[0]
    odds = f'(CombatBase<0?"below {first}":{col}[CombatBase])'
    shifts = '(CombatNotes.length()>0?" ("+CombatNotes.substring(2)+")":"")'
    final = f'(CombatColumn<0?"below {first}":{col}[CombatColumn])'
    drm = '(CombatDRM!=0?(CombatDRM>0?" +":" ")+CombatDRM+" = "+CombatRow:"")'
    known = '" = "+CombatResult'
    if p.rules.below is None:  # the tables give no result below the first column
        known = f'(CombatColumn<0?": {NOT_COMPUTED} ({BELOW_TABLE})":{known})'
    result = f'(CombatUnknown.length()>0?": {NOT_COMPUTED} ("+CombatUnknown.substring(2)+")":{known})'
    return (
        '{"attack "+CombatAttack+" to defence "+CombatDefence+" = "+'
        f'{odds}+{shifts}+" -> "+{final}+", roll "+CombatRoll+{drm}+{result}' + "}"
    )


def _result(p: Plan) -> str:
    below = f'"{p.rules.below}"' if p.rules.below is not None else '""'
    n = len(p.ratios)
    cell = f'GetProperty("CombatCRT").split(",")[(CombatRow-({p.first_row}))*{n}+CombatColumn]'
    return "{" + f"CombatColumn<0?{below}:{cell}" + "}"


def prototype_piece(p: Plan) -> Piece:
    """The traits every unit gets: roll and report on RESOLVE, the Attacker layer, the computed values."""
    indexed = list(enumerate(p.rules.effects))
    limit = p.rules.drm_limit
    drm = _sum(p, "drm")
    if limit is not None and drm != "0":
        drm = f"Math.max(-{limit},Math.min({limit},{drm}))"
    last_row = p.first_row + p.rows - 1
    n = len(p.ratios)
    calcs = [
        CalculatedProperty("CombatAttackers", "{" + f"Count(CombatMarked,{MAIN})" + "}"),
        CalculatedProperty("CombatAttackTotal", _strength(p, "attack", f'Sum("{p.rules.attack}",CombatMarked,{MAIN})')),
        CalculatedProperty("CombatDefenceTotal", _strength(p, "defence", f'SumStack("{p.rules.defence}")')),
        CalculatedProperty("CombatAttack", _whole("CombatAttackTotal")),
        CalculatedProperty("CombatDefence", _whole("CombatDefenceTotal")),
        *[CalculatedProperty(f"CombatHit{i}", _hit(i, e)) for i, e in indexed],
        CalculatedProperty("CombatBase", _base(p)),
        CalculatedProperty("CombatShift", _braced(_sum(p, "columns"))),
        CalculatedProperty(
            "CombatColumn", "{" + f"CombatBase<0?-1:Math.max(-1,Math.min({n - 1},CombatBase+CombatShift))" + "}"
        ),
        CalculatedProperty("CombatDRM", _braced(drm)),
        CalculatedProperty(
            "CombatRow", "{" + f"Math.max({p.first_row},Math.min({last_row},CombatRoll+CombatDRM))" + "}"
        ),
        CalculatedProperty("CombatNotes", _text_of([(i, e) for i, e in indexed if e.computed])),
        CalculatedProperty("CombatUnknown", _text_of([(i, e) for i, e in indexed if not e.computed])),
        CalculatedProperty("CombatResult", _result(p)),
        CalculatedProperty("CombatReport", _report(p)),
    ]
    return Piece(
        (
            DynamicProperty(
                "CombatRoll",
                (("Resolve attack on this hex", RESOLVE, "{" + f"Random({p.sides})" + "}"),),
                value="0",
                description="the combat die roll",
            ),
            Report(keys=(RESOLVE,), report_format=REPORT, description="combat report"),
            Layer(
                images=(ATTACKER_IMAGE,),
                name=ATTACKER_LAYER,
                activate_command="Attacker",
                activate_keystroke=ATTACKER,
                always_active=False,
                level=-1,  # an Embellishment's state: negative = inactive (unmarked) at that level
                description="marked as an attacker",
            ),
            *calcs,
            BasicPiece(),
        )
    )


def clear_attackers_button() -> el.Element:
    """A toolbar button taking the attacker marks off every marked unit."""
    return el.global_key_command(
        "Clear attacker marks",
        el.LaunchButton("Clear attackers", "Take the attacker marks off", "", CLEAR_ATTACKERS),
        ATTACKER,
        f"{ATTACKER_LAYER}_Active=true",
    )
