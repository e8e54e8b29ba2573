"""The hand-worked combat panel (tests/rules/combat_panel/<game>.yaml) in the real VASSAL engine: each attack
the module can be set up for is resolved by the module's own action (attacker marks, resolve on the defender)
and its chat report (totals, final column, DRM, the result at the roll the engine made) must be what
`hexwright combat` answers for that roll. Left out, and named in the skip: attacks on a turn whose weather
differs from the set-up's first turn (the module resolves at its turn tracker's turn) and units under a marker
(the driver places none)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import ROOT, Built
from play_driver import compile_driver, missing, play
from test_combat_engine import REPORT

from authoring.vassal.combat import ATTACKER, RESOLVE

sys.path.insert(0, str(ROOT / "tests" / "rules"))
from panel_support import GAMES, cli, panel  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing() is not None, reason=f"the engine driver cannot run: {missing()}"),
]  # slow: the VASSAL engine


@pytest.fixture(scope="session")
def panel_driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_driver(tmp_path_factory.mktemp("combat-panel"))


def _playable(game, p: dict) -> tuple[list[dict], list[str]]:
    """The cases the driver can set up in the module, and why each other one is left out."""
    scenario = game.scenarios[p["scenario"]]
    first = scenario.turns[0].weather if scenario.turns else ""
    weather = {t.turn: t.weather for t in scenario.turns}
    cases, left = [], []
    for case in p["cases"]:
        units = case["defenders"] + case["attackers"]
        if weather.get(case["turn"], first) != first:
            left.append(f"{case['id']} ({weather[case['turn']]})")
        elif any("+" in u for u in units):
            left.append(f"{case['id']} (a marker)")
        else:
            cases.append(case)
    return cases, left


def _line(game, case: dict) -> str:
    """The driver's line: `UNIT[~]@HEX`, the first defender first, the others after '=', then the attackers."""

    def item(text: str) -> str:
        unit, _, rest = text.partition("@")
        hex_, _, state = rest.partition(":")
        faces = game.counters[unit].faces
        return f"{unit}{'~' if state and len(faces) > 1 and faces[1].state == state else ''}@{hex_}"

    defenders = [item(u) for u in case["defenders"]]
    return " ".join([defenders[0], *(f"={d}" for d in defenders[1:]), *(item(u) for u in case["attackers"])])


def test_the_module_resolves_each_panel_attack_as_the_cli_does(built: Built, panel_driver: Path, tmp_path: Path):
    game = built.game
    if game.id not in GAMES:
        pytest.skip(f"no hand-worked panel for {game.id}")
    p = panel(game.id)
    cases, left = _playable(game, p)
    script = tmp_path / "attacks.txt"
    script.write_text("\n".join(_line(game, c) for c in cases))
    report = play(
        panel_driver, "combat", str(built.path), f"setup_{p['scenario']}.vsav", str(script), ATTACKER, RESOLVE
    )
    assert report["problems"] == []
    assert len(report["attacks"]) == len(cases)
    for case, seen in zip(cases, report["attacks"], strict=True):
        m = REPORT.match(seen["report"] or "")
        assert m, (case["id"], seen)
        roll = int(m["roll"])
        got = cli(p, case, roll)
        where = (case["id"], seen["report"])
        assert (float(m["attack"]), float(m["defence"])) == (got["attack"], got["defence"]), where
        assert m["final"] == got["column"], where
        assert int(m["drm"] or 0) == got["drm"], where
        assert m["result"] == got["results"][0]["result"], where
        print(
            f"{case['id']}: roll {roll}: module {m['final']} {m['result']}, cli {got['column']} {got['results'][0]['result']}"
        )
    print(f"{game.id}: {len(cases)} panel attacks in the engine; left out: {', '.join(left) or 'none'}")
