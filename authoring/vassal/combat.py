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
data's `below` result (none given: no result).

The other conditions of an effect are read from the engine as `rules.combat` reads them from the battle: the
weather of the turn the turn tracker is on (its `Turn` label, looked up in the turn records; none when the
weather is rolled), the marked attackers' and the defender stack's unit types, the defender hex's terrain, the
hexsides attacked across, and the marker counters in the defender's hex or an attacker's (a marker in an
attacker's hex: its stack holds a marked attacker). Support strength (artillery) is a unit's `support` value
where an effect names its type, whatever the effect's other conditions. What the report cannot know it names
after the result: `; not applied: <name> (<rule>): <text>` (`CombatEffect.unapplied`, `Battle.not_applied`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from authoring.model import Combat, CombatEffect, Game
from authoring.model.game import odds_ratio
from authoring.vassal import elements as el
from authoring.vassal.codec import key_stroke
from authoring.vassal.traits import BasicPiece, CalculatedProperty, DynamicProperty, Layer, Marker, Piece, Report
from authoring.vassal.turns import turn_label

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
UNIT = 'CombatUnit=="yes"'
"""A unit (it carries the Combat prototype), not a marker."""
DEFENDERS = f"{HERE} && {UNIT}"
NOT_APPLIED = "not applied"
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


def _listed(labels) -> str:
    return "|" + "|".join(sorted(labels)) + "|"


def _hexes(game: Game, effect: CombatEffect) -> str:
    labels = []
    for m in game.maps.values():
        hexes = m.hexes_with_terrain(effect.id) if effect.where == "terrain" else m.hexes_with_feature(effect.id)
        labels += [as_read(m.label(h)) for h in hexes]
    return _listed(labels)


def _barred(game: Game, effect: CombatEffect) -> str:
    """The hexes a defender in bars the effect: a terrain outside `terrain_only`, or one of `terrain_not`."""
    terrains = set(effect.terrain_not)
    if effect.terrain_only:
        terrains |= {t.id for t in game.terrain} - set(effect.terrain_only)
    labels: set[str] = set()
    for m in game.maps.values():
        for t in sorted(terrains):
            labels |= {as_read(m.label(h)) for h in m.hexes_with_terrain(t)}
    return _listed(labels)


def _sides(game: Game, features) -> str:
    pairs = []
    for m in game.maps.values():
        for s in m.hexsides:
            if s.type in features:
                a, b = m.label(s.side[0]), m.label(s.side[1])
                if s.faces is None or s.faces == s.side[0]:  # a directed side (a fortified line) counts from the
                    pairs.append(f"{as_read(a)}>{b}")  # hex it faces, the attacker's
                if s.faces is None or s.faces == s.side[1]:
                    pairs.append(f"{as_read(b)}>{a}")
    return _listed(pairs)


def _at_attacker_hex(i: int) -> str:
    return f'CombatWhere{i}.indexOf("|"+LocationName+"|")>=0'


def _across_test(name: str) -> str:
    return f'{name}.indexOf("|"+LocationName+">$LocationName$|")>=0'


def _weathers(game: Game, p: Plan) -> list[tuple[str, str, str]]:
    """The turn labels of each weather condition, and of every turn whose weather is known (none when the
    weather is rolled)."""
    if p.rules.weather_rolled or not p.rules.weathers:
        return []
    turns = [t for s in game.scenarios.values() for t in s.turns]
    out = [
        (f"CombatTurns{k}", _listed({turn_label(t) for t in turns if t.weather == w}), f"turns of {w} weather")
        for k, w in enumerate(p.rules.weathers)
    ]
    known = {turn_label(t) for t in turns if t.weather in p.rules.weathers}
    return [*out, ("CombatTurnsKnown", _listed(known), "turns whose weather the record gives")]


def _marker_test(game: Game, entries) -> str:
    """Whether a piece is one of the marker counters `entries` (`id` or `id:state`) names."""
    terms = []
    for entry in entries:
        cid, _, state = entry.partition(":")
        counter = game.counters.get(cid)
        test = f'CounterId=="{cid}"'
        if state and counter is not None and len(counter.faces) > 1:
            name = next((s.name for s in game.strength_states if s.id == state), state)
            test += f' && Strength=="{name}"'
        terms.append(f"({test})")
    return "(" + " || ".join(terms) + ")"


def _effect_values(game: Game, i: int, e: CombatEffect) -> list[tuple[str, str, str]]:
    out = []
    if e.where == "hexside":
        out.append((f"CombatWhere{i}", _sides(game, {e.id}), f"{e.name}: attacker>defender hexsides"))
        out.append((f"CombatSel{i}", "{" + f"{MARKED} && {_across_test(f'CombatWhere{i}')}" + "}", f"{e.name}: across"))
    elif e.where:
        out.append((f"CombatWhere{i}", _hexes(game, e), f"{e.name}: hexes"))
        out.append((f"CombatSel{i}", "{" + f"{MARKED} && {_at_attacker_hex(i)}" + "}", f"{e.name}: attackers in"))
    if e.attacker_side:
        out.append((f"CombatSide{i}", "{" + f'{MARKED} && SideId=="{e.attacker_side}"' + "}", "attacker side"))
    if e.unit_types:
        whose = MARKED if _attacking(e) else DEFENDERS
        out.append((f"CombatTypes{i}", "{" + f"{whose} && {_types(e.unit_types)}" + "}", f"{e.name}: unit types"))
    if e.support and e.role == "defence":
        out.append((f"CombatOthers{i}", "{" + f"{DEFENDERS} && !{_types(e.unit_types)}" + "}", "other defenders"))
    for j, (_, types) in enumerate(e.attackers):
        out.append((f"CombatA{i}_{j}", "{" + f"{MARKED} && {_types(types)}" + "}", f"{e.name}: attacker types"))
    for j, (_, types) in enumerate(e.defenders):
        out.append((f"CombatD{i}_{j}", "{" + f"{DEFENDERS} && {_types(types)}" + "}", f"{e.name}: defender types"))
    if e.terrain_only or e.terrain_not:
        out.append((f"CombatBar{i}", _barred(game, e), f"{e.name}: hexes barring it"))
    if e.not_across:
        out.append((f"CombatNX{i}", _sides(game, set(e.not_across)), f"{e.name}: hexsides barring it"))
        sel = "{" + f"{MARKED} && {_across_test(f'CombatNX{i}')}" + "}"
        out.append((f"CombatNXSel{i}", sel, f"{e.name}: attackers across a barring hexside"))
    for tag, entries in (("Mk", e.markers), ("NoMk", e.no_markers)):
        if entries:
            test = _marker_test(game, entries)
            out.append((f"Combat{tag}{i}", "{" + f"{test} && {HERE}" + "}", f"{e.name}: markers in the hex"))
            out.append((f"Combat{tag}A{i}", "{" + f"{test} && CombatAttackerHere>0" + "}", "markers with attackers"))
    return out


def global_values(game: Game, p: Plan) -> list[tuple[str, str, str]]:
    """(name, value, description) of the module's combat properties."""
    out = [
        ("CombatCRT", ROW_SEP.join(p.cells), "CRT cells, row by row (die roll first row first)"),
        ("CombatColumns", ROW_SEP.join(p.columns), "CRT odds columns"),
        ("CombatMarked", "{" + MARKED + "}", "selection: the marked attackers"),
        ("CombatDefenderSel", "{" + DEFENDERS + "}", "selection: the units in the defender's hex"),
        *_weathers(game, p),
    ]
    for i, e in enumerate(p.rules.effects):
        out += _effect_values(game, i, e)
    for role in ("attack", "defence"):
        for part in _parts(p, role):
            test = _part_test(p, role, part)
            base = MARKED if role == "attack" else DEFENDERS
            out.append((_part_name(role, part), "{" + " && ".join([base, *test]) + "}", f"{role}: units {part}"))
            for k, group in enumerate(_groups(p, role)):
                terms = [
                    _member(i, e, role) if i in group else f"!({_member(i, e, role)})" for i, e in _touching(p, role)
                ]
                sel = "{" + " && ".join([base, *test, *terms]) + "}"
                out.append((_group_name(role, k, part), sel, f"{role}: units so multiplied"))
    return out


def _attacking(e: CombatEffect) -> bool:
    """Whether the effect's unit types are the attackers' (an attack multiplier, attack support)."""
    return e.attack != 1 or (bool(e.support) and e.role == "attack")


def _types(types) -> str:
    return "(" + " || ".join(f'TypeId=="{t}"' for t in types) + ")"


def _touching(p: Plan, role: str) -> list[tuple[int, CombatEffect]]:
    """The effects multiplying `role` strengths, with their indexes."""
    return [
        (i, e)
        for i, e in enumerate(p.rules.effects)
        if (e.attack if role == "attack" else e.defence) != 1 and not e.manual
    ]


def _support(p: Plan, role: str) -> tuple[int, CombatEffect] | None:
    return next(((i, e) for i, e in enumerate(p.rules.effects) if e.support and e.role == role and not e.manual), None)


def _parts(p: Plan, role: str) -> tuple[str, ...]:
    """The parts a side's total is summed in: all units; or, with support strength, the units of other types
    (`plain`) and those of the support types (`support`)."""
    return ("plain", "support") if _support(p, role) else ("all",)


def _part_test(p: Plan, role: str, part: str) -> list[str]:
    found = _support(p, role)
    if found is None or part == "all":
        return []
    types = _types(found[1].unit_types)
    return [types] if part == "support" else [f"!{types}"]


def _part_name(role: str, part: str) -> str:
    return f"Combat{role.capitalize()}Units{part.capitalize()}"


def _groups(p: Plan, role: str) -> list[frozenset[int]]:
    """The sets of `role` multipliers one unit can take together (their unit types meet), each non-empty: the
    units one set touches (and no other) are summed together and multiplied by its factors, so each unit's
    strength is multiplied by its own effects only."""
    touching = _touching(p, role)
    kinds = {t for _, e in touching for t in e.unit_types}
    classes = {frozenset(i for i, e in touching if not e.unit_types or t in e.unit_types) for t in kinds}
    classes.add(frozenset(i for i, e in touching if not e.unit_types))
    out: set[frozenset[int]] = set()
    for members in classes:
        idx = sorted(members)
        out |= {frozenset(i for b, i in enumerate(idx) if mask >> b & 1) for mask in range(1, 1 << len(idx))}
    return sorted(out, key=lambda g: (len(g), sorted(g)))


def _group_name(role: str, k: int, part: str = "all") -> str:
    return f"Combat{role.capitalize()}Group{k}" + ("" if part == "all" else part.capitalize())


def _member(i: int, e: CombatEffect, role: str) -> str:
    """Whether effect `i` (when it applies) touches the unit a selection looks at: its unit types; for an
    attacker, across the effect's hexside from the defender or in the effect's hex when it is the attacker's."""
    terms = [_types(e.unit_types)] if e.unit_types else []
    if role == "attack" and e.where == "hexside":
        terms.append(_across_test(f"CombatWhere{i}"))
    elif role == "attack" and e.where and e.of == "attacker":
        terms.append(_at_attacker_hex(i))
    return "(" + " && ".join(terms) + ")" if terms else "true"


# ------------------------------------------------------------------ the expressions
def _count(sel: str) -> str:
    return f"Count({sel},{MAIN})"


def _type_test(quantifier: str, sel: str, of: str) -> str:
    if quantifier == "all":
        return f"({of}>0 && {_count(sel)}=={of})"
    return f"{_count(sel)}>0" if quantifier == "any" else f"{_count(sel)}==0"


def _marker_terms(i: int, e: CombatEffect) -> list[str]:
    terms = []
    for tag, entries, present in (("Mk", e.markers, True), ("NoMk", e.no_markers, False)):
        if not entries:
            continue
        names = [f"Combat{tag}{i}"] * (e.marker_on != "attacker") + [f"Combat{tag}A{i}"] * (e.marker_on != "defender")
        counts = [_count(n) for n in names]
        terms.append(
            "(" + " || ".join(f"{c}>0" for c in counts) + ")" if present else " && ".join(f"{c}==0" for c in counts)
        )
    return terms


def _held(i: int, e: CombatEffect) -> str:
    """Whether every condition of effect `i` but the weather holds, evaluated on the defender."""
    terms = ["CombatAttackers>0"]
    if e.where == "hexside":
        count = _count(f"CombatSel{i}")
        terms.append(f"{count}==CombatAttackers" if e.across == "all" else f"{count}>0")
    elif e.where and e.of == "attacker":
        terms.append(f"{_count(f'CombatSel{i}')}>0")
    elif e.where:
        terms.append(f'CombatWhere{i}.indexOf("|"+LocationName+"|")>=0')
    if e.defender_side:
        terms.append(f'SideId=="{e.defender_side}"')
    if e.attacker_side:
        terms.append(f"{_count(f'CombatSide{i}')}>0")
    if e.unit_types:
        terms.append(f"{_count(f'CombatTypes{i}')}>0")
    if e.support and e.role == "defence":
        terms.append(f"{_count(f'CombatOthers{i}')}>0")
    terms += [_type_test(q, f"CombatA{i}_{j}", "CombatAttackers") for j, (q, _) in enumerate(e.attackers)]
    terms += [_type_test(q, f"CombatD{i}_{j}", "CombatDefenders") for j, (q, _) in enumerate(e.defenders)]
    if e.terrain_only or e.terrain_not:
        terms.append(f'CombatBar{i}.indexOf("|"+LocationName+"|")<0')
    if e.not_across:
        terms.append(f"{_count(f'CombatNXSel{i}')}==0")
    terms += _marker_terms(i, e)
    return "{" + " && ".join(terms) + "}"


def _in_weather(p: Plan, e: CombatEffect) -> str:
    """Whether the turn's weather lets effect `i` apply (its weather known)."""

    def among(ws) -> str:
        idx = [p.rules.weathers.index(w) for w in ws]
        return "(" + " || ".join(f'CombatTurns{k}.indexOf("|"+Turn+"|")>=0' for k in idx) + ")"

    terms = ["CombatWeatherKnown"]
    if e.weather:
        terms.append(among(e.weather))
    if e.not_weather:
        terms.append(f"!{among(e.not_weather)}")
    return " && ".join(terms)


def _hit(p: Plan, i: int, e: CombatEffect) -> str:
    """Whether effect `i` applies: it holds, and the weather is known and lets it."""
    if not e.weathered:
        return f"{{CombatHeld{i}}}"
    return "{" + f"CombatHeld{i} && {_in_weather(p, e)}" + "}"


def _round(expr: str, fractions: str) -> str:
    if fractions == "up":
        return f"(int)Math.ceil({expr}-0.000001)"
    if fractions == "down":
        return f"(int)Math.floor({expr}+0.000001)"
    return expr


def _factor(p: Plan, role: str, group: frozenset[int]) -> str:
    """The factor of the units a group's effects touch: the product of its effects that apply, a `once` one
    only when no other of them applies (as `rules.combat._factor`)."""
    touching = [(i, e) for i, e in _touching(p, role) if i in group]
    value = lambda e: float(getattr(e, role))  # noqa: E731
    plain = [f"(CombatHit{i}?{value(e)!r}:1.0)" for i, e in touching if not e.once]
    once = "*".join(f"(CombatHit{i}?{value(e)!r}:1.0)" for i, e in touching if e.once)
    if not once:
        return "*".join(plain)
    if not plain:
        return once
    anyhit = " || ".join(f"CombatHit{i}" for i, e in touching if not e.once)
    return "*".join(plain) + f"*(({anyhit})?1.0:{once})"


def _part(p: Plan, role: str, part: str, field: str) -> tuple[str, str]:
    """(multiplied, unmultiplied) sums of one part of a side's units, reading `field`."""
    raw = f'Sum("{field}",{_part_name(role, part)},{MAIN})'
    terms = [raw]
    for k, group in enumerate(_groups(p, role)):
        terms.append(f'({_factor(p, role, group)}-1.0)*Sum("{field}",{_group_name(role, k, part)},{MAIN})')
    return ("(" + "+".join(terms) + ")" if len(terms) > 1 else raw), raw


def _extra(p: Plan, role: str) -> str:
    """The marker values a side's total takes (a Step Loss marker's -2), of the effects that apply."""
    field = p.rules.attack if role == "attack" else p.rules.defence
    tag, skip = ("MkA", "defender") if role == "attack" else ("Mk", "attacker")
    terms = [
        f'(CombatHit{i}?Sum("{field}",Combat{tag}{i},{MAIN}):0)'
        for i, e in enumerate(p.rules.effects)
        if e.marker_values and e.markers and e.marker_on != skip and not e.manual
    ]
    return "+".join(terms)


def _capped(units: str, backing: str, extra: str) -> str:
    out = f"{units}+Math.min({backing},Math.max({units},0.0))"
    return f"{out}+{extra}" if extra else out


def _strength(p: Plan, role: str) -> str:
    """A side's total: each part's units times their factors (`_groups`), support capped at the other units'
    total (Typhoon 10.1.8), marker values added; rounded as the game says, once, after every multiplier (1941
    7.5 A, C), never below `least` nor raised by it."""
    field = p.rules.attack if role == "attack" else p.rules.defence
    extra = _extra(p, role)
    found = _support(p, role)
    if found is None:
        summed, raw = _part(p, role, "all", field)
        if extra:
            summed, raw = f"{summed}+{extra}", f"{raw}+{extra}"
    else:
        k, sup = found
        units, units_raw = _part(p, role, "plain", field)
        backing, backing_raw = _part(p, role, "support", sup.support)
        summed, raw = _capped(units, backing, extra), _capped(units_raw, backing_raw, extra)
        if role == "defence":  # alone or with its own kind, the artillery defends with its defence (10.2.1)
            own, own_raw = _part(p, role, "support", field)
            alone, alone_raw = f"{units}+{own}", f"{units_raw}+{own_raw}"
            if extra:
                alone, alone_raw = f"{alone}+{extra}", f"{alone_raw}+{extra}"
            summed, raw = f"(CombatHit{k}?{summed}:{alone})", f"(CombatHit{k}?{raw}:{alone_raw})"
    if summed == raw:
        return "{" + raw + "}"
    rounded = _round(summed, p.rules.fractions)
    return "{" + f"Math.max({rounded},Math.min({float(p.rules.least)!r},{raw}))" + "}"


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
        if e.computed and getattr(e, field) and not e.manual
    ]
    return "+".join(["0", *terms])


def _braced(expr: str) -> str:
    """A BeanShell expression; a bare constant as the engine writes it (`0`, not `{0}`)."""
    return expr if expr.lstrip("-").isdigit() else "{" + expr + "}"


def _text_of(effects: Sequence[tuple[int, CombatEffect]]) -> str:
    terms = [f'(CombatHit{i}?", {e.label()}":"")' for i, e in effects]
    return "{" + "+".join(['""', *terms]) + "}"


def _not_applied(p: Plan) -> str:
    """`; <entry>` for each effect the report leaves to the players: one the data marks so whose conditions
    hold, one the weather decides while the weather is not known."""
    why = f"the weather is rolled ({p.rules.weather_rolled})" if p.rules.weather_rolled else "the weather is not known"
    terms = []
    for i, e in enumerate(p.rules.effects):
        if e.manual:
            terms.append(f'(CombatHeld{i}?"; {e.unapplied()}":"")')
        elif e.weathered:
            terms.append(f'(CombatHeld{i} && !CombatWeatherKnown?"; {e.unapplied(why)}":"")')
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
    left = f'(CombatNotApplied.length()>0?"; {NOT_APPLIED}: "+CombatNotApplied.substring(2):"")'
    return (
        '{"attack "+CombatAttack+" to defence "+CombatDefence+" = "+'
        f'{odds}+{shifts}+" -> "+{final}+", roll "+CombatRoll+{drm}+{result}+{left}' + "}"
    )


def _result(p: Plan) -> str:
    below = f'"{p.rules.below}"' if p.rules.below is not None else '""'
    n = len(p.ratios)
    cell = f'GetProperty("CombatCRT").split(",")[(CombatRow-({p.first_row}))*{n}+CombatColumn]'
    return "{" + f"CombatColumn<0?{below}:{cell}" + "}"


def _weather_known(p: Plan) -> str:
    if p.rules.weather_rolled or not p.rules.weathers:
        return "{false}"
    return '{CombatTurnsKnown.indexOf("|"+Turn+"|")>=0}'


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
        CalculatedProperty("CombatMarkedNum", "{" + f"{MARKED}?1:0" + "}"),
        CalculatedProperty("CombatAttackers", "{" + _count("CombatMarked") + "}"),
        CalculatedProperty("CombatDefenders", "{" + _count("CombatDefenderSel") + "}"),
        CalculatedProperty("CombatWeatherKnown", _weather_known(p)),
        CalculatedProperty("CombatAttackTotal", _strength(p, "attack")),
        CalculatedProperty("CombatDefenceTotal", _strength(p, "defence")),
        CalculatedProperty("CombatAttack", _whole("CombatAttackTotal")),
        CalculatedProperty("CombatDefence", _whole("CombatDefenceTotal")),
        *[CalculatedProperty(f"CombatHeld{i}", _held(i, e)) for i, e in indexed],
        *[CalculatedProperty(f"CombatHit{i}", _hit(p, i, e)) for i, e in indexed if not e.manual],
        CalculatedProperty("CombatBase", _base(p)),
        CalculatedProperty("CombatShift", _braced(_sum(p, "columns"))),
        CalculatedProperty(
            "CombatColumn", "{" + f"CombatBase<0?-1:Math.max(-1,Math.min({n - 1},CombatBase+CombatShift))" + "}"
        ),
        CalculatedProperty("CombatDRM", _braced(drm)),
        CalculatedProperty(
            "CombatRow", "{" + f"Math.max({p.first_row},Math.min({last_row},CombatRoll+CombatDRM))" + "}"
        ),
        CalculatedProperty("CombatNotes", _text_of([(i, e) for i, e in indexed if e.computed and not e.manual])),
        CalculatedProperty("CombatUnknown", _text_of([(i, e) for i, e in indexed if not e.computed and not e.manual])),
        CalculatedProperty("CombatNotApplied", _not_applied(p)),
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
            Marker((("CombatUnit", "yes"),)),
            *calcs,
            BasicPiece(),
        )
    )


def marker_traits(p: Plan | None) -> tuple:
    """What a marker counter carries for combat: how many marked attackers its stack holds (an effect of a
    marker in an attacker's hex reads it); nothing when no effect looks there."""
    if p is None or not any((e.markers or e.no_markers) and e.marker_on != "defender" for e in p.rules.effects):
        return ()
    return (CalculatedProperty("CombatAttackerHere", '{SumStack("CombatMarkedNum")}'),)


def clear_attackers_button() -> el.Element:
    """A toolbar button taking the attacker marks off every marked unit."""
    return el.global_key_command(
        "Clear attacker marks",
        el.LaunchButton("Clear attackers", "Take the attacker marks off", "", CLEAR_ATTACKERS),
        ATTACKER,
        f"{ATTACKER_LAYER}_Active=true",
    )
