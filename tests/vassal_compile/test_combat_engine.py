"""Combat from the tables in the real VASSAL engine: 20 scripted attacks per game on a bundled set-up (the last
six in a turn of other weather), and the modifiers the rulebooks state (weather, unit types, markers,
support), each resolved by the module's own action (attacker marks, resolve on the defender), its chat report
checked against `authoring.rules.combat` computing the same battle from the same data: odds, shifts, roll,
result and what is left to the players."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import Built
from play_driver import compile_driver, missing, play

from authoring.rules.combat import Fighter, applies, fight, fighter, unit_strength
from authoring.vassal.combat import ATTACKER, BELOW_TABLE, NOT_APPLIED, NOT_COMPUTED, RESOLVE
from authoring.vassal.pieces import hidden_back
from authoring.vassal.turns import turn_label

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing() is not None, reason=f"the engine driver cannot run: {missing()}"),
]  # slow: the VASSAL engine
ATTACKS = 20
WEATHER_ATTACKS = 6
"""The last attacks are fought in a turn of other weather (mud halves BfM's attacks: fewer would reach the
table's results)."""
REPORT = re.compile(
    r"^\* Combat at (?P<hex>\S+): attack (?P<attack>[\d.]+) to defence (?P<defence>[\d.]+) = (?P<base>.+?)"
    r"(?: \((?P<notes>.*)\))? -> (?P<final>.+?), roll (?P<roll>-?\d+)(?: \+?(?P<drm>-?\d+) = (?P<row>-?\d+))?"
    r"(?:: " + NOT_COMPUTED + r" \((?P<unknown>.*?)\)| = (?P<result>.*?))(?:; " + NOT_APPLIED + r": (?P<left>.*))?$"
)


@pytest.fixture(scope="session")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_driver(tmp_path_factory.mktemp("combat"))


def _strength(game, counter, flipped: bool, value: str) -> int | None:
    v = unit_strength(game, counter, counter.faces[1 if flipped else 0].state, value)
    return int(v) if v is not None and v.is_integer() else None


def _effect_cases(game, game_map, effect) -> list[tuple[str, list[str]]]:
    """(defender hex, attacker hexes) exercising `effect` on `game_map`: across a hexside every attacker and
    one of two (that first when it changes each attacker across); out of an attacker's hex one attacker of two; in the defender's hex two attackers."""
    labels = game_map.grid.labels()
    around = {h: [n for n in h.neighbours() if n in labels] for h in labels}
    cases = []
    inner = {h for h in labels if len(around[h]) == 6}  # an edge hex may be another board's (Typhoon's maps
    # overlap: the engine names a shared hex by the board drawn over it)
    if effect.where == "hexside":
        sides = [s.side.hexes() for s in game_map.hexsides if s.type == effect.id]
        for a, d in [(a, d) for a, d in sides if a in inner and d in inner][:2]:
            others = [n for n in around[d] if n != a and n in inner]
            pair = [(labels[d], [labels[a]]), (labels[d], [labels[a], labels[others[0]]])]
            cases += pair[::-1] if effect.across == "each" else pair  # one attacker across of two first
        return cases
    hexes = (
        game_map.hexes_with_terrain(effect.id) if effect.where == "terrain" else game_map.hexes_with_feature(effect.id)
    )
    for h in [h for h in hexes if h in inner and all(n in inner for n in around[h])][:2]:
        if effect.of == "attacker":
            d = around[h][0]
            cases.append((labels[d], [labels[h], labels[next(n for n in around[d] if n != h)]]))
        else:
            cases.append((labels[h], [labels[n] for n in around[h][:2]]))
    return cases


def _cases(game, game_map) -> list[tuple[str, list[str]]]:
    """The cases of every effect on `game_map`, the first of each effect first, then plain hexes."""
    per_effect = [_effect_cases(game, game_map, e) for e in game.combat.effects]
    cases = [c[k] for k in range(max(map(len, per_effect), default=0)) for c in per_effect if k < len(c)]
    labels = game_map.grid.labels()
    around = {h: [n for n in h.neighbours() if n in labels] for h in labels}
    inner = [h for h in sorted(labels, key=lambda h: labels[h]) if all(len(around.get(n, ())) == 6 for n in around[h])]
    plain = [h for h in inner if len(around[h]) == 6][len(inner) // 3 :: 37][:4]
    return cases + [(labels[d], [labels[n] for n in around[d][:3]]) for d in plain]


def _attacks(game) -> list[tuple[str, int, list[tuple[str, bool, str]], list[Fighter]]]:
    """ATTACKS battles, taken from every map in turn: (map id, defenders, [(counter id, flipped, hex)...] the
    defenders first, the same as Fighters with the strength each fights with); every other defender a stack."""
    rng = random.Random(f"combat-{game.id}")
    scenario = game.scenarios[sorted(game.scenarios)[0]]
    placed = sorted({u for p in scenario.setup for u in p.units})
    combat = game.combat
    usable = [
        game.counters[c]
        for c in placed
        if game.counters[c].side and not game.counters[c].marker and not hidden_back(game, game.counters[c])
    ]
    per_map = {m: _cases(game, game.maps[m]) for m in sorted(game.maps)}
    maps = sorted(game.maps)
    out = []
    for i in range(ATTACKS):
        map_id = maps[i % len(maps)]
        d_hex, a_hexes = per_map[map_id][(i // len(maps)) % len(per_map[map_id])]
        side = game.sides[i % len(game.sides)].id
        defenders = [c for c in usable if c.side == side and _strength(game, c, False, combat.defence) is not None]
        attackers = [c for c in usable if c.side != side and _strength(game, c, False, combat.attack) is not None]
        stack = [rng.choice(defenders)]
        if i % 2:  # a stack of two, of two unit types where the side has them (a multiplier of some types)
            others = [c for c in defenders if c.type != stack[0].type] or [c for c in defenders if c != stack[0]]
            stack.append(rng.choice(others))
        picked = [*stack, *rng.sample(attackers, len(a_hexes))]
        hexes = [d_hex] * len(stack) + a_hexes
        units = [(c.id, len(c.faces) > 1 and rng.random() < 0.3, h) for c, h in zip(picked, hexes)]
        roles = ["defence"] * len(stack) + ["attack"] * len(a_hexes)
        fighters = [
            fighter(game, game.counters[c], game.counters[c].faces[1 if f else 0].state, h, role)
            for (c, f, h), role in zip(units, roles)
        ]
        out.append((map_id, len(stack), units, fighters))
    return out


def _weather_turn(game):
    """The first scenario's first turn whose weather an effect multiplying strengths names (else any effect),
    other than its first turn's weather: None when the weather is rolled or no effect names one."""
    scenario = game.scenarios[sorted(game.scenarios)[0]]
    if game.combat.weather_rolled or not scenario.turns:
        return None
    first = scenario.turns[0].weather
    for wanted in (
        [w for e in game.combat.effects if e.attack != 1 or e.defence != 1 for w in e.weather],
        [w for e in game.combat.effects for w in (*e.weather, *e.not_weather)],
    ):
        turn = next((t for t in scenario.turns if t.weather in wanted and t.weather != first), None)
        if turn is not None:
            return turn
    return None


def _script(battles) -> str:
    """The driver's attack file: per battle its units (defenders, then "=" stacked ones, then attackers) and
    its markers ("+"), a turn change ("@turn LABEL") before the first battle of another turn."""
    lines, turn = [], None
    for b in battles:
        if b["turn"] is not None and b["turn"] != turn:
            lines.append(f"@turn {b['label']}")
            turn = b["turn"]
        n = b["n"]
        units = " ".join(
            f"{'=' if 0 < k < n else ''}{c}{'~' if f else ''}@{h}" for k, (c, f, h) in enumerate(b["units"])
        )
        lines.append(" ".join([units, *(f"+{c}@{h}" for c, h in b.get("markers", ()))]))
    return "\n".join(lines)


def _checked(game, battles, report) -> tuple[set, set, set]:
    """Each battle's chat report against `rules.combat`; the results, the effects applied and the maps fought on."""
    combat = game.combat
    scenario = game.scenarios[sorted(game.scenarios)[0]]
    assert report["problems"] == []
    assert len(report["attacks"]) == len(battles)
    results, effects, maps = set(), set(), set()
    for b, seen in zip(battles, report["attacks"]):
        map_id, n, units, fighters = b["map"], b["n"], b["units"], b["fighters"]
        m = REPORT.match(seen["report"] or "")
        assert m, seen
        assert seen["marked"] == ["false"] * n + ["true"] * (len(units) - n), seen  # the attackers, no defender
        roll = int(m["roll"])
        die = next(d for d in game.dice if d.name == combat.die)
        assert 1 <= roll <= die.sides
        game_map = game.maps[map_id]
        markers: dict[str, list[str]] = {}
        for c, h in b.get("markers", ()):
            markers.setdefault(h, []).append(c)
        turn = b["turn"] if b["turn"] is not None else (scenario.turns[0].turn if scenario.turns else None)
        battle = fight(
            game, game_map, fighters[:n], fighters[n:], roll, scenario=scenario.id, turn=turn, markers=markers
        )
        applied = [
            e
            for e in combat.effects
            if applies(game_map, e, fighters[:n], fighters[n:], game=game, weather=battle.weather, markers=markers)
        ]
        where = (seen["line"], seen["report"])
        assert m["hex"] == units[0][2], where
        assert (float(m["attack"]), float(m["defence"])) == (battle.attack, battle.defence), where
        labels = [c for c in game.table(combat.crt).columns[1:]]
        assert m["base"] == (labels[battle.base] if battle.base >= 0 else f"below {labels[0]}"), where
        assert (m["notes"] or "") == ", ".join(e.label() for e in battle.shifts), where
        assert m["final"] == (battle.column_label or f"below {labels[0]}"), where
        assert int(m["drm"] or 0) == battle.drm and int(m["row"] or roll) == battle.row, where
        assert m["result"] == battle.result, where
        unknown = ", ".join(e.label() for e in applied if not e.computed)
        if not unknown and battle.column is None and combat.below is None:
            unknown = BELOW_TABLE
        assert (m["unknown"] or "") == unknown, where
        assert (m["left"] or "") == "; ".join(battle.not_applied), where
        for name in b.get("expect", ()):  # the modifier the battle is scripted for is applied or named
            assert name in [e.name for e in applied] or any(t.startswith(name + " (") for t in battle.not_applied), (
                name,
                where,
            )
        results.add(battle.result)
        effects.update(e.name for e in applied)
        maps.add(map_id)
    return results, effects, maps


def test_twenty_attacks_report_the_odds_shifts_roll_and_result_the_tables_give(
    built: Built, driver: Path, tmp_path: Path
) -> None:
    game = built.game
    if game.combat is None:
        pytest.skip(f"{game.id} declares no combat")
    combat = game.combat
    later = _weather_turn(game)
    battles = [
        {
            "map": map_id,
            "n": n,
            "units": units,
            "fighters": fighters,
            "turn": later.turn if later is not None and k >= ATTACKS - WEATHER_ATTACKS else None,
            "label": turn_label(later) if later is not None else "",
        }
        for k, (map_id, n, units, fighters) in enumerate(_attacks(game))
    ]
    script = tmp_path / "attacks.txt"
    script.write_text(_script(battles))
    report = play(
        driver, "combat", str(built.path), f"setup_{sorted(game.scenarios)[0]}.vsav", str(script), ATTACKER, RESOLVE
    )
    results, effects, maps = _checked(game, battles, report)
    assert len(results) >= 3  # the attacks reach several CRT results, not one
    assert maps == set(game.maps)  # every map is fought on
    multipliers = {e.name for e in combat.effects if e.attack != 1 or e.defence != 1}
    assert multipliers <= effects | _rare(game), multipliers - effects  # each strength multiplier is exercised


def _rare(game) -> set[str]:
    """Multipliers random attacks seldom meet (a unit type into a terrain), each scripted in the modifier test."""
    return {
        e.name
        for e in game.combat.effects
        if (e.attack != 1 and e.where == "terrain" and e.of == "defender") or e.markers
    }


def _open_ground(game_map) -> tuple[str, list[str]]:
    """A hex of the map's plain terrain, no feature and no hexside feature around it, and three of its neighbours
    like it (inner hexes: an edge hex may be another board's)."""
    labels = game_map.grid.labels()
    around = {h: [n for n in h.neighbours() if n in labels] for h in labels}
    sided = {h for s in game_map.hexsides for h in s.side.hexes()}
    info = game_map.hexes

    def plain(h) -> bool:
        return len(around[h]) == 6 and h not in sided and len(info[h].terrain) == 1 and not info[h].features

    for h in sorted(labels, key=lambda h: labels[h])[len(labels) // 3 :]:
        near = [n for n in around[h] if plain(n)]
        if plain(h) and info[h].terrain == ("clear",) and len(near) >= 3:
            return labels[h], [labels[n] for n in near[:3]]
    raise AssertionError("no open ground")


def _modifier_battles(game) -> list[dict]:
    """Battles scripted for the modifiers each bundled game's rulebook states (a unit type among the attackers,
    the weather, the armor bonus, markers on attacker and defender, artillery support)."""
    scenario = game.scenarios[sorted(game.scenarios)[0]]
    by_turn = {t.turn: t for t in scenario.turns}
    map_id = sorted(game.maps)[-1] if game.id == "typhoon" else sorted(game.maps)[0]
    d, (a1, a2, a3) = _open_ground(game.maps[map_id])
    specs: list[tuple] = []  # (turn, defenders, attackers, markers, expected effect names)
    if game.id in ("bfm", "bfm-art"):
        specs = [
            (1, ["ger-xli"], [("sov-tank", a1), ("sov-29", a2)], [], ["Tank unit"]),
            (3, ["sov-29"], [("ger-xxiv", a1), ("ger-vi", a2)], [], ["mud"]),
        ]
    elif game.id == "1941":
        specs = [
            (1, ["sov-11"], [("ger-pzg4", a1)], [], ["armor bonus", "supply", "air points"]),
            (1, ["sov-11"], [("ger-pzg4", a1), ("ger-9a", a2)], [], ["supply"]),
            (7, ["sov-11"], [("ger-pzg4", a1), ("ger-9a", a2)], [], ["snow"]),
        ]
    elif game.id == "typhoon":
        specs = [
            (
                None,
                ["sov-1rd"],
                [("ger-1pz-pz", a1), ("ger-1pz-m1", a2)],
                [("mk-step-loss", a1)],
                ["step loss", "combined arms"],
            ),
            (
                None,
                ["sov-2rd"],
                [("ger-5id", a1), ("ger-art-1", a2)],
                [("mk-oos", d), ("mk-step-loss", d)],
                ["artillery support", "defender out of supply", "step loss"],
            ),
            (
                None,
                ["sov-2rd", "sov-art-1"],
                [("ger-6id", a1), ("ger-art-1", a3)],
                [("mk-no-retreat", d)],
                ["no retreat", "artillery in the stack"],
            ),
        ]
    out = []
    for turn, defenders, attackers, markers, expect in specs:
        placed = [(c, d) for c in defenders] + attackers
        roles = ["defence"] * len(defenders) + ["attack"] * len(attackers)
        state = lambda c: game.counters[c].faces[0].state  # noqa: E731
        out.append(
            {
                "map": map_id,
                "n": len(defenders),
                "units": [(c, False, h) for c, h in placed],
                "fighters": [fighter(game, game.counters[c], state(c), h, r) for (c, h), r in zip(placed, roles)],
                "markers": markers,
                "turn": turn,
                "label": turn_label(by_turn[turn]) if turn in by_turn else "",
                "expect": expect,
            }
        )
    return out


def test_the_modifiers_the_rulebooks_state_resolve_in_the_engine_as_rules_combat_computes(
    built: Built, driver: Path, tmp_path: Path
) -> None:
    """BfM: the campaign's Tank unit, mud; 1941: the armor bonus, snow, supply and air points named; Typhoon:
    Step Loss markers on attacker and defender, Out of Supply and No Retreat markers, artillery support, combined
    arms named while the weather is not known."""
    game = built.game
    battles = _modifier_battles(game)
    if not battles:
        pytest.skip(f"no modifier battles scripted for {game.id}")
    script = tmp_path / "modifiers.txt"
    script.write_text(_script(battles))
    report = play(
        driver, "combat", str(built.path), f"setup_{sorted(game.scenarios)[0]}.vsav", str(script), ATTACKER, RESOLVE
    )
    _checked(game, battles, report)
