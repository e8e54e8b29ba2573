"""Secret random draws (scenario `draws`; Typhoon 17.3's Victory Plans) as VASSAL decks.

Each draw is a DrawPile in its scenario's reinforcement window: face down and shuffled, so a player draws at
random and nobody sees what is in it. Its pieces carry a mask for the draw's side: the engine masks a piece
drawn from a face-down deck for the drawer's side (`Deck.pieceRemoved` sets ObscuredToOthers), so the players
of that side read it and the other side sees only the mask, until a player of the side unmasks it. The deck is
filled from its slots as the set-up starts (a generated set-up is a game new to the engine).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from authoring.model import Counter, Game, Scenario
from authoring.model.scenario import Draw
from authoring.names import file_name
from authoring.vassal import elements as el
from authoring.vassal.boxes import BoxSpec
from authoring.vassal.pieces import MASK
from authoring.vassal.traits import Obscurable


def mask_image(draw: Draw) -> str:
    """The image a masked piece of `draw` shows the other side."""
    return file_name("draw", draw.id, ext="png")


def draw_of(game: Game, counter: Counter) -> Draw | None:
    """The first draw of any scenario (by scenario id) holding `counter`."""
    for sid in sorted(game.scenarios):
        for draw in game.scenarios[sid].draws:
            if counter.id in draw.counters:
                return draw
    return None


def mask(game: Game, draw: Draw) -> Obscurable:
    """The mask of a drawn piece: its side's players see it, the others see the draw's name."""
    return Obscurable(
        key=MASK,
        image=mask_image(draw),
        sides=(game.side(draw.side).name,),
        command="Mask / unmask",
        mask_name=draw.name,
        description=f"secret draw ({draw.rule}): only its side reads it" if draw.rule else "secret draw",
    )


def deck_box(draw: Draw) -> str:
    """The reinforcement window's box (Region) the deck sits in."""
    return f"{draw.name} (deck)"


def boxes(scenario: Scenario) -> list[BoxSpec]:
    return [BoxSpec(deck_box(d), deck_box(d)) for d in scenario.draws]


def copies(game: Game, draw: Draw) -> list[str]:
    """The deck's counter ids, each as many times as its quantity."""
    return [cid for cid in draw.counters for _ in range(max(1, game.counters[cid].quantity))]


def slot_key(scenario_id: str, draw: Draw, index: int) -> str:
    """The slot id key of the deck's `index`-th piece (no counter key starts `draw:`)."""
    return f"draw:{scenario_id}:{draw.id}:{index}"


def slot_keys(game: Game) -> list[str]:
    return [
        slot_key(sid, d, i)
        for sid in sorted(game.scenarios)
        for d in game.scenarios[sid].draws
        for i in range(len(copies(game, d)))
    ]


def draw_pile(name: str, board: str, at: tuple[int, int], slots: Sequence[el.Element], size: int) -> el.Element:
    """A face-down, always shuffled deck of `slots` on `board` at `at` (board pixels), filled as a set-up of that
    board starts; one piece at a time, none picked by name."""
    attrs: Mapping[str, el.Attr] = {
        "name": name,
        "owningBoard": board,
        "x": at[0],
        "y": at[1],
        "width": size,
        "height": size,
        "allowMultiple": False,
        "allowSelect": False,
        "faceDown": el.ALWAYS,
        "drawFaceUp": False,
        "shuffle": el.ALWAYS,
        "reversible": False,
        "draw": True,
        "color": "0,0,0",
        "reshufflable": False,
        "canSave": False,
        "hotkeyOnEmpty": False,
    }
    return el.element(el.DRAW_PILE, attrs, list(slots))
