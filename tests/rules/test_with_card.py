"""The findings image shows the set-up as the card writes it, not the scenario's own."""

from __future__ import annotations

from pathlib import Path

from authoring.load import discover, load_card, load_game
from authoring.rules.board import with_card

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "tests" / "rules" / "cards" / "bfm"


def test_card_replaces_its_side_only():
    result = load_game(next(f for f in discover(ROOT) if f.id == "bfm"))
    scen = result.game.scenarios["seven-turn"]
    card, diags = load_card(CARDS / "german-two-in-a-cross.csv", result, scen, None)
    assert card is not None
    shown = with_card(result.game, scen, card)
    german = [p for p in shown.setup if p.side == "german"]
    assert [p.label for p in german] == [p.label for p in card.entries]
    assert sum(1 for p in german if p.label == "0103") == 2 and not any(p.label == "0104" for p in german)
    assert [p for p in shown.setup if p.side == "soviet"] == [p for p in scen.setup if p.side == "soviet"]
    assert with_card(result.game, scen, None) is scen
