"""At least 20 deliberately wrong Battle for Moscow set-up cards (CSV and YAML), each caught with the right
findings pinned in cards/bfm/expected.yaml; the correct cards pass clean."""

from __future__ import annotations

import pytest
import yaml
from rules_support import HERE, finding_key

from authoring.diagnostics import sorted_diagnostics
from authoring.load import load_card
from authoring.rules import check_scenario

CARDS = HERE / "cards" / "bfm"
EXPECTED = yaml.safe_load((CARDS / "expected.yaml").read_text(encoding="utf-8"))


def run_card(bfm, name: str, side: str | None = None) -> list:
    game = bfm.game
    scenario = game.scenarios["seven-turn"]
    card, diags = load_card(CARDS / name, bfm, scenario, side)
    if card is not None:
        diags += check_scenario(game, scenario, card)
    return sorted_diagnostics(diags)


def test_there_are_at_least_twenty_wrong_cards_in_both_formats():
    wrong = [n for n, e in EXPECTED.items() if not e["mistake"].startswith("none")]
    assert len(wrong) >= 20
    assert {n.rsplit(".", 1)[1] for n in wrong} == {"csv", "yaml"}
    assert all(EXPECTED[n]["findings"] for n in wrong)
    on_disk = {p.name for p in CARDS.iterdir() if p.suffix in (".csv", ".yaml") and p.name != "expected.yaml"}
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_card(bfm, name):
    assert [finding_key(d) for d in run_card(bfm, name)] == EXPECTED[name]["findings"]


def test_card_findings_point_at_card_lines(bfm):
    d = run_card(bfm, "german-half-strength.csv")[0]
    assert (d.code, d.rule, d.hex) == ("HW-STATE-002", "BfM Starting the Game", "0201")
    assert d.loc.file.endswith("german-half-strength.csv") and d.loc.line == 4
    assert d.message == "ger-viii starts at state 'half'; german units start at 'full'"


def test_an_absence_points_at_the_rule_and_names_the_card(bfm):
    d = run_card(bfm, "soviet-star-left-empty.yaml")[0]
    assert d.message == "star hex 0510 holds no soviet unit; it needs exactly one"
    assert d.loc.file.endswith("scenarios/bfm/game.yaml")
    assert [str(r).rsplit("/", 1)[-1] for r in d.related] == ["soviet-star-left-empty.yaml", "seven-turn.yaml"]


def test_refused_hex_names_its_terrain_and_the_nearest_free_cross(bfm):
    d = next(d for d in run_card(bfm, "german-in-moscow.csv") if d.code == "HW-PLACE-005")
    assert d.message == "ger-xx starts in hex 1103 (moscow; city), which has no cross"
    assert d.help == "german units may only start in a cross hex; did you mean 0205? (the nearest free cross hex)"


def test_side_option_overrides_inference_for_csv(bfm):
    """A German CSV card checked as the Soviet side's card: one finding for its 22 German rows (none of
    them set up, so no side, mix or stacking finding per row), and every Soviet star is then empty."""
    found = run_card(bfm, "german-correct.csv", side="soviet")
    wrong = [d for d in found if d.code == "HW-CARD-003"]
    assert len(wrong) == 1 and wrong[0].loc.line == 2
    assert wrong[0].message.endswith("22 rows hold units of side german (lines 2-23)")
    assert {d.code for d in found} == {"HW-CARD-003", "HW-PLACE-004"}
