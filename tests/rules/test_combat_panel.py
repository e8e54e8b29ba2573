"""The hand-worked panel through `hexwright combat --format json`: for each attack worked from a rulebook's text
(tests/rules/combat_panel/<game>.yaml), the CLI's totals, odds before and after the shifts, net DRM and the
result of every roll are the panel's. A case that needs a modifier the data does not carry yet is xfail
(strict), so it flips when the data carries it. A case whose rule the data leaves to the players
(`uncomputed`: its rule sections) must be named under "not applied", and only what the tables compute is
compared (the totals and the odds)."""

from __future__ import annotations

import pytest
from panel_support import cli, expected_results, params


@pytest.mark.parametrize(("p", "case"), params())
def test_the_cli_gives_the_hand_worked_battle(p: dict, case: dict) -> None:
    got = cli(p, case)
    assert (got["attack"], got["defence"]) == (case["attack_total"], case["defence_total"]), case["working"]
    assert (got["odds"], got["column"]) == (case["odds"], case["column"]), case["working"]
    if case.get("uncomputed"):
        named = " ".join(n["rule"] for n in got["not_applied"])
        assert all(rule in named for rule in case["uncomputed"]), got["not_applied"]
        return
    assert got["drm"] == case.get("drm", 0), case["working"]
    assert [r["roll"] for r in got["results"]] == list(range(1, p["die_sides"] + 1))
    assert [r["result"] for r in got["results"]] == expected_results(p, case), case["working"]


@pytest.mark.parametrize(
    ("p", "case"), params(keep=lambda case: not case.get("needs") and not case.get("uncomputed"))[::7]
)
def test_one_roll_is_that_roll_of_the_full_answer(p: dict, case: dict) -> None:
    roll = p["die_sides"] // 2
    got = cli(p, case, roll)
    assert [r["roll"] for r in got["results"]] == [roll]
    assert got["results"][0]["result"] == expected_results(p, case)[roll - 1]
