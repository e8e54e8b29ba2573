"""Help: a rules summary generated from each game's data, the scenario notes, and the designer's own page."""

from __future__ import annotations

import re

import pytest
from conftest import Built

from authoring.vassal import elements as el
from authoring.vassal.help import DESIGNER_NOTES, RULES_SUMMARY, SCENARIOS, help_source
from authoring.vassal.turns import turn_label

pytestmark = pytest.mark.slow  # whole module builds of the bundled games


def _help(built: Built) -> dict[str, str]:
    return {e.get("title"): e.get("fileName") for e in built.tree.iter(el.HELP_FILE)}


def test_every_game_has_a_generated_rules_summary(built: Built) -> None:
    game = built.game
    helps = _help(built)
    assert {RULES_SUMMARY, SCENARIOS} <= set(helps)
    page = built.read(helps[RULES_SUMMARY]).decode()
    text = re.sub(r"<[^>]+>", "", page)
    for phase in game.phases:
        assert phase in text
    for table in game.tables:
        assert table.name in text
    for s in game.scenarios.values():
        assert f"{len(s.turns)} turns, {turn_label(s.turns[0])} to {turn_label(s.turns[-1])}" in text
        for v in s.victory:
            assert v.text in text
    for heading in (
        "Sequence of play",
        "Stacking",
        "Tables",
        "Turn record",
        "Set-up",
        "Reinforcements and withdrawals",
        "Victory",
    ):
        assert f"<h2>{heading}</h2>" in page, heading


def test_designer_page_is_added_when_the_game_names_one(built: Built) -> None:
    helps = _help(built)
    if built.game.rules_summary is None:
        assert DESIGNER_NOTES not in helps
        return
    assert built.read(helps[DESIGNER_NOTES]) == help_source(built.game).read_bytes()


def test_scenario_notes_say_what_each_option_changes(bfm) -> None:
    """The module's Help shows each option's effects as the checks apply them, and what is left to play."""
    from authoring.vassal.help import scenario_html

    page = scenario_html(bfm)
    text = re.sub(r"<[^>]+>", "", page)
    assert (
        "may arrive in hex set (side: Soviet; hex set: Soviet replacement edge hex (triple arrow, optional rule); "
        "turns: 1 / 2 / 3 / 13 / 14) (BfM Optional Rules: Soviet Replacement Edge)" in text
    )
    assert "turns 1, 3, 5, 7, 8, 9, 10, 11, 12, 13, 14: german replacements 0" in text
    assert "also on: Soviet Play Balance: Improved 1st Shock" in text
    assert "played, not checked: two left odds shifts instead of one" in text


def test_the_representative_part_of_published_data_is_named_and_nothing_more(bfm) -> None:
    """BfM's map is published but for its entry arrows: the Help names that part, and says nothing stands in
    for the whole map."""
    from authoring.vassal.help import rules_summary_html

    text = re.sub(r"<[^>]+>", "", rules_summary_html(bfm))
    assert "Battle for Moscow: Representative data: the entry-arrow hexes" in text
    assert "all of it, or the part it says" in text and "These maps, tables and turn records stand in" not in text
