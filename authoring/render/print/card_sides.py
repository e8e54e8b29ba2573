"""Which set-up cards a scenario has, without the drawing stack: the VASSAL compiler lists the card
pages it takes from its image cache, and importing `cards` (canvas, PDF writer, numpy) for that
would cost more than the rest of a build from cached images."""

from __future__ import annotations

from authoring.model import Game, Scenario


def card_sides(game: Game, scenario: Scenario) -> list[str]:
    """Sides with anything on their card, in the game's side order."""
    used = {p.side for p in scenario.setup} | {o.side for o in scenario.off_map}
    used |= {r.side for r in scenario.reinforcements} | {w.side for w in scenario.withdrawals}
    used |= {p.side for p in scenario.pools}
    return [s.id for s in game.sides if s.id in used]
