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

from authoring.rules.combat import Fighter, applies, resolve
from authoring.vassal.combat import ATTACKER, BELOW_TABLE, NOT_COMPUTED, RESOLVE
from authoring.vassal.pieces import hidden_back

pytestmark = pytest.mark.skipif(missing() is not None, reason=f"the engine driver cannot run: {missing()}")
ATTACKS = 20
REPORT = re.compile(
    r"^\* Combat at (?P<hex>\S+): attack (?P<attack>[\d.]+) to defence (?P<defence>[\d.]+) = (?P<base>.+?)"
    r"(?: \((?P<notes>.*)\))? -> (?P<final>.+?), roll (?P<roll>-?\d+)(?: [+ ](?P<drm>-?\d+) = (?P<row>-?\d+))?"
    r"(?:: " + NOT_COMPUTED + r" \((?P<unknown>.*)\)| = (?P<result>.*))$"
)


@pytest.fixture(scope="session")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_driver(tmp_path_factory.mktemp("combat"))


def _strength(counter, flipped: bool, value: str) -> int | None:
    v = counter.faces[1 if flipped else 0].values.get(value)
    return int(v) if isinstance(v, (int, float)) and float(v).is_integer() else None


def _cases(game, game_map) -> list[tuple[str, list[str]]]:
    """(defender hex, attacker hexes) exercising each effect (a hexside: attackers all across, then one not),
    and plain hexes; every hex on `game_map`."""
    labels = game_map.grid.labels()
    around = {h: [n for n in h.neighbours() if n in labels] for h in labels}
    cases = []
    for effect in game.combat.effects:
        if effect.where == "hexside":
            sides = [s.side for s in game_map.hexsides if s.type == effect.id]
            for a, d in (s.hexes() for s in sides[:2]):
                cases.append((labels[d], [labels[a]]))
                others = [n for n in around[d] if n != a]
                cases.append((labels[d], [labels[a], labels[others[0]]]))
        else:
            hexes = (
                game_map.hexes_with_terrain(effect.id)
                if effect.where == "terrain"
                else game_map.hexes_with_feature(effect.id)
            )
            for d in hexes[:2]:
                cases.append((labels[d], [labels[n] for n in around[d][:2]]))
    plain = sorted(labels, key=lambda h: labels[h])[len(labels) // 3 :: 37][:4]
    cases += [(labels[d], [labels[n] for n in around[d][:3]]) for d in plain]
    return cases


def _attacks(game) -> list[tuple[list[tuple[str, bool, str]], list[Fighter]]]:
    """ATTACKS battles: [(counter id, flipped, hex)...] the defender first, and the same as Fighters."""
    rng = random.Random(f"combat-{game.id}")
    scenario = game.scenarios[sorted(game.scenarios)[0]]
    placed = sorted({u for p in scenario.setup for u in p.units})
    combat = game.combat
    usable = [
        game.counters[c]
        for c in placed
        if game.counters[c].side and not game.counters[c].marker and not hidden_back(game, game.counters[c])
    ]
    game_map = game.maps[sorted(game.maps)[0]]
    cases = _cases(game, game_map)
    out = []
    for i in range(ATTACKS):
        d_hex, a_hexes = cases[i * len(cases) // ATTACKS] if len(cases) > ATTACKS else cases[i % len(cases)]
        side = game.sides[i % len(game.sides)].id
        defenders = [c for c in usable if c.side == side and _strength(c, False, combat.defence) is not None]
        attackers = [c for c in usable if c.side != side and _strength(c, False, combat.attack) is not None]
        picked = [rng.choice(defenders), *rng.sample(attackers, len(a_hexes))]
        units = [(c.id, len(c.faces) > 1 and rng.random() < 0.3, h) for c, h in zip(picked, [d_hex, *a_hexes])]
        fighters = [Fighter(h, game.counters[c].side, game.counters[c].type or "") for c, _, h in units]
        out.append((units, fighters))
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
    script.write_text("\n".join(" ".join(f"{c}{'~' if f else ''}@{h}" for c, f, h in units) for units, _ in battles))
    report = play(
        driver, "combat", str(built.path), f"setup_{sorted(game.scenarios)[0]}.vsav", str(script), ATTACKER, RESOLVE
    )
    assert report["problems"] == []
    assert len(report["attacks"]) == ATTACKS
    game_map = game.maps[sorted(game.maps)[0]]
    results = set()
    for (units, fighters), seen in zip(battles, report["attacks"]):
        m = REPORT.match(seen["report"] or "")
        assert m, seen
        assert seen["marked"] == ["false"] + ["true"] * (len(units) - 1), seen  # the attackers, not the defender
        counters = [(game.counters[c], f) for c, f, _ in units]
        attack = sum(_strength(c, f, combat.attack) for c, f in counters[1:])
        defence = _strength(*counters[0], combat.defence)
        applied = [e for e in combat.effects if applies(game_map, e, fighters[:1], fighters[1:])]
        roll = int(m["roll"])
        die = next(d for d in game.dice if d.name == combat.die)
        assert 1 <= roll <= die.sides
        battle = resolve(game, attack, defence, applied, roll)
        where = (seen["line"], seen["report"])
        assert m["hex"] == units[0][2], where
        assert (float(m["attack"]), float(m["defence"])) == (battle.attack, battle.defence), where
        labels = [c for c in game.table(combat.crt).columns[1:]]
        assert m["base"] == (labels[battle.base] if battle.base >= 0 else f"below {labels[0]}"), where
        assert (m["notes"] or "") == ", ".join(e.label() for e in battle.shifts), where
        assert m["final"] == (battle.column_label or f"below {labels[0]}"), where
        assert int(m["drm"] or 0) == battle.drm and int(m["row"] or roll) == battle.row, where
        assert m["result"] == battle.result, where
        unknown = ", ".join(e.label() for e in applied if not e.whole_battle)
        if not unknown and battle.column is None and combat.below is None:
            unknown = BELOW_TABLE
        assert (m["unknown"] or "") == unknown, where
        results.add(battle.result)
    assert len(results) >= 3  # the attacks reach several CRT results, not one
