"""A face's values: the one answer to "what does this face say?" for print, module, preview and rules.

A face shows the values its data gives, in the game's printing order (`values:` in game.yaml), and the
carried ones it lacks from the counter's first face: a value declared `carried: true` is printed on every
face (Typhoon 10.1.3: an artillery unit's range is on both sides, though only the full face gives it).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from authoring.model.counter import Counter, Face
from authoring.model.game import Game

CARRIED = "carried"
"""The key of a value declaration (`values:` item) that makes every face show the first face's value."""
REACH = "reach"
"""The key of a value declaration that makes the value a distance in hexes (a command or support range)."""


def carried_values(game: Game) -> tuple[str, ...]:
    """Ids of the values a face lacking them takes from its counter's first face, in printing order."""
    return tuple(v.id for v in game.values if v.extra.get(CARRIED) is True)


def reach_values(game: Game) -> tuple[str, ...]:
    """Ids of the values that are distances in hexes the unit reaches (`reach: true`), in printing order."""
    return tuple(v.id for v in game.values if v.extra.get(REACH) is True)


def face_values(game: Game, counter: Counter, face: Face) -> Mapping[str, object]:
    """The values `face` of `counter` shows, in the game's printing order, carried ones filled in.

    A game that declares no values shows each face's own values in their written order; a value the game does
    not declare (a finding of its own) is not shown."""
    values = dict(face.values)
    if counter.faces and face is not counter.faces[0]:
        first = counter.faces[0].values
        for vid in carried_values(game):
            if vid not in values and vid in first:
                values[vid] = first[vid]
    order = [v.id for v in game.values] or list(values)
    return MappingProxyType({vid: values[vid] for vid in order if vid in values})


def value_text(value: object) -> str:
    """A value as every output writes it: a whole number without its `.0`, anything else as written."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def face_texts(game: Game, counter: Counter, face: Face) -> Mapping[str, str]:
    """`face_values` as text (what the sheet prints, the module's properties hold, the preview lists)."""
    return MappingProxyType({k: value_text(v) for k, v in face_values(game, counter, face).items()})
