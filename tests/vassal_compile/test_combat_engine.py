"""Combat from the tables in the real VASSAL engine: 20 scripted attacks per game on a bundled set-up, each
resolved by the module's own action (attacker marks, resolve on the defender), its chat report checked
against `authoring.rules.combat` computing the same battle from the same data: odds, shifts, roll, result."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import Built
from play_driver import compile_driver, missing, play

from authoring.rules.combat import Fighter, applies, fight, unit_strength
from authoring.vassal.combat import ATTACKER, BELOW_TABLE, NOT_COMPUTED, RESOLVE
from authoring.vassal.pieces import hidden_back

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing() is not None, reason=f"the engine driver cannot run: {missing()}"),
]  # slow: the VASSAL engine
ATTACKS = 20
REPORT = re.compile(
    r"^\* Combat at (?P<hex>\S+): attack (?P<attack>[\d.]+) to defence (?P<defence>[\d.]+) = (?P<base>.+?)"
    r"(?: \((?P<notes>.*)\))? -> (?P<final>.+?), roll (?P<roll>-?\d+)(?: [+ ](?P<drm>-?\d+) = (?P<row>-?\d+))?"
    r"(?:: " + NOT_COMPUTED + r" \((?P<unknown>.*)\)| = (?P<result>.*))$"
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
        values = [combat.defence] * len(stack) + [combat.attack] * len(a_hexes)
        fighters = [
            Fighter(h, game.counters[c].side, game.counters[c].type or "", _strength(game, game.counters[c], f, v))
            for (c, f, h), v in zip(units, values)
        ]
        out.append((map_id, len(stack), units, fighters))
    return out


def test_twenty_attacks_report_the_odds_shifts_roll_and_result_the_tables_give(
    built: Built, driver: Path, tmp_path: Path
) -> None:
    game = built.game
    if game.combat is None:
        pytest.skip(f"{game.id} declares no combat")
    combat = game.combat
    battles = _attacks(game)
    script = tmp_path / "attacks.txt"
    script.write_text(
        "\n".join(
            " ".join(f"{'=' if 0 < k < n else ''}{c}{'~' if f else ''}@{h}" for k, (c, f, h) in enumerate(units))
            for _, n, units, _ in battles
        )
    )
    report = play(
        driver, "combat", str(built.path), f"setup_{sorted(game.scenarios)[0]}.vsav", str(script), ATTACKER, RESOLVE
    )
    assert report["problems"] == []
    assert len(report["attacks"]) == ATTACKS
    results, effects, maps = set(), set(), set()
    for (map_id, n, units, fighters), seen in zip(battles, report["attacks"]):
        m = REPORT.match(seen["report"] or "")
        assert m, seen
        assert seen["marked"] == ["false"] * n + ["true"] * (len(units) - n), seen  # the attackers, no defender
        roll = int(m["roll"])
        die = next(d for d in game.dice if d.name == combat.die)
        assert 1 <= roll <= die.sides
        game_map = game.maps[map_id]
        battle = fight(game, game_map, fighters[:n], fighters[n:], roll)
        applied = [e for e in combat.effects if applies(game_map, e, fighters[:n], fighters[n:])]
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
        results.add(battle.result)
        effects.update(e.name for e in applied)
        maps.add(map_id)
    assert len(results) >= 3  # the attacks reach several CRT results, not one
    assert maps == set(game.maps)  # every map is fought on
    multipliers = {e.name for e in combat.effects if e.attack != 1 or e.defence != 1}
    assert multipliers <= effects, multipliers - effects  # each strength multiplier is exercised
