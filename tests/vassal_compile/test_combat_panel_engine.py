"""The hand-worked combat panel (tests/rules/combat_panel/<game>.yaml) in the real VASSAL engine: each attack
the module can be set up for is resolved by the module's own action (attacker marks, resolve on the defender)
and its chat report (totals, final column, DRM, the result at the roll the engine made) must be what
`hexwright combat` answers for that roll. The driver steps the turn tracker to each attack's turn (its weather
is the module's) and puts the markers the attack names in their units' hexes. A weather the players roll
(Typhoon 5.1.2, a case's `weather`) is one the module cannot know: there it must answer as the calculator does
without --weather, naming what the weather decides as not applied."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import ROOT, Built
from play_driver import compile_driver, missing, play
from test_combat_engine import REPORT

from authoring.vassal.combat import ATTACKER, RESOLVE
from authoring.vassal.turns import turn_label

sys.path.insert(0, str(ROOT / "tests" / "rules"))
from panel_support import GAMES, cli, panel  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing() is not None, reason=f"the engine driver cannot run: {missing()}"),
]  # slow: the VASSAL engine


@pytest.fixture(scope="session")
def panel_driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_driver(tmp_path_factory.mktemp("combat-panel"))


def _split(text: str) -> tuple[str, str, str, list[str]]:
    """`UNIT@HEX[:STATE[+MARKER...]]` as (unit, hex, state, markers)."""
    unit, _, rest = text.partition("@")
    hex_, _, tail = rest.partition(":")
    state, *markers = tail.split("+") if tail else ("",)
    return unit, hex_, state, markers


def _script(game, p: dict, cases: list[dict]) -> str:
    """The driver's lines, in the cases' order: `@turn LABEL` where an attack's turn is not the tracker's, then
    each attack's line (`_line`)."""
    scenario = game.scenarios[p["scenario"]]
    by_turn = {t.turn: t for t in scenario.turns}
    lines, turn = [], scenario.turns[0].turn if scenario.turns else None
    for case in cases:
        if case["turn"] != turn and case["turn"] in by_turn:
            lines.append(f"@turn {turn_label(by_turn[case['turn']])}")
            turn = case["turn"]
        lines.append(_line(game, case))
    return "\n".join(lines)


def _line(game, case: dict) -> str:
    """One attack's line: `UNIT[~]@HEX` (`~`: its second face), the first defender first, the others after '=',
    then the attackers, then the markers on any of them (`+MARKER@HEX`)."""

    def item(text: str) -> str:
        unit, hex_, state, _markers = _split(text)
        faces = game.counters[unit].faces
        return f"{unit}{'~' if state and len(faces) > 1 and faces[1].state == state else ''}@{hex_}"

    defenders = [item(u) for u in case["defenders"]]
    markers = [f"+{m}@{_split(u)[1]}" for u in case["defenders"] + case["attackers"] for m in _split(u)[3]]
    return " ".join([defenders[0], *(f"={d}" for d in defenders[1:]), *(item(u) for u in case["attackers"]), *markers])


def test_the_module_resolves_each_panel_attack_as_the_cli_does(built: Built, panel_driver: Path, tmp_path: Path):
    game = built.game
    if game.id not in GAMES:
        pytest.skip(f"no hand-worked panel for {game.id}")
    p = panel(game.id)
    cases = sorted(p["cases"], key=lambda c: c["turn"])  # the tracker steps forward
    script = tmp_path / "attacks.txt"
    script.write_text(_script(game, p, cases))
    report = play(
        panel_driver, "combat", str(built.path), f"setup_{p['scenario']}.vsav", str(script), ATTACKER, RESOLVE
    )
    assert report["problems"] == []
    assert len(report["attacks"]) == len(cases)
    for case, seen in zip(cases, report["attacks"], strict=True):
        m = REPORT.match(seen["report"] or "")
        assert m, (case["id"], seen)
        roll = int(m["roll"])
        got = cli(p, {k: v for k, v in case.items() if k != "weather"}, roll)  # a rolled weather: not the module's
        where = (case["id"], seen["report"])
        assert (float(m["attack"]), float(m["defence"])) == (got["attack"], got["defence"]), where
        assert m["final"] == got["column"], where
        assert int(m["drm"] or 0) == got["drm"], where
        assert m["result"] == got["results"][0]["result"], where
        print(
            f"{case['id']}: roll {roll}: module {m['final']} {m['result']}, cli {got['column']} {got['results'][0]['result']}"
        )
    print(f"{game.id}: all {len(cases)} panel attacks resolved in the engine as the calculator resolves them")
