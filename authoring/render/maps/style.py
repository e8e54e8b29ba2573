"""How a map looks: colours, symbols and line styles resolved from the game's data, with defaults.

A game's `TypeDef`s (terrain, hex features, hexside features, paths) may give a colour, a symbol,
a style and a width; whatever they leave out comes from the defaults below, looked up by the
type's symbol or style first and its id second, so a game that writes only ``{id: forest}`` still
gets green hexes with trees. All lengths are fractions of the hex width across the flats.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from PIL import ImageColor

from authoring.model import Game, TypeDef
from authoring.model.game import frozen_map

RGB = tuple[int, int, int]

PAPER = "#f4efe1"
"""Margin and background colour."""
INK = "#2b2620"
"""Text and outlines."""
GRID = "#4a4237"
"""Hex grid lines."""

TERRAIN_DEFAULTS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        # key (symbol or id) -> (colour, symbol)
        "clear": ("#ebe3c3", "none"),
        "trees": ("#86a95e", "trees"),
        "forest": ("#86a95e", "trees"),
        "woods": ("#a9c07d", "woods"),
        "hills": ("#d7bf8a", "hills"),
        "mountains": ("#b99c6e", "mountains"),
        "mountain": ("#b99c6e", "mountains"),
        "swamp": ("#a9c3a0", "swamp"),
        "marsh": ("#c3d5b2", "marsh"),
        "rough": ("#d5c6a0", "rough"),
        "waves": ("#9cc6e4", "waves"),
        "sea": ("#8fbde0", "waves"),
        "lake": ("#a7d0ec", "waves"),
        "water": ("#9cc6e4", "waves"),
        "city": ("#d9b7a2", "city"),
        "urban": ("#d9b7a2", "city"),
        "town": ("#e3cdb4", "none"),
    }
)

FEATURE_DEFAULTS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        # key (symbol or id) -> (colour, symbol)
        "city": ("#b2302a", "city"),
        "major-city": ("#9c2521", "major-city"),
        "town": ("#2b2620", "town"),
        "star": ("#c0392b", "star"),
        "cross": ("#1d1d1d", "cross"),
        "fort": ("#6b3416", "fort"),
        "fortification": ("#6b3416", "fort"),
        "supply": ("#1f6f3a", "supply"),
        "victory": ("#c9971c", "victory"),
        "arrow": ("#7a1f1a", "arrow"),
        "arrow3": ("#7a1f1a", "arrow3"),
        "dot": ("#2b2620", "dot"),
        "none": ("#000000", "none"),
    }
)

HEXSIDE_DEFAULTS: Mapping[str, tuple[str, float]] = MappingProxyType(
    {
        # style -> (colour, width)
        "river": ("#3b7ec4", 0.055),
        "major-river": ("#2c67ad", 0.11),
        "lake": ("#6fa9da", 0.13),
        "sea": ("#5d9bd3", 0.15),
        "fortified-line": ("#5b2e12", 0.035),
        "border": ("#7a2d83", 0.04),
        "line": ("#2b2620", 0.035),
    }
)

PATH_DEFAULTS: Mapping[str, tuple[str, float]] = MappingProxyType(
    {
        # style -> (colour, width)
        "rail": ("#1b1b1b", 0.03),
        "road": ("#b24a2a", 0.045),
        "minor-road": ("#8f6a3b", 0.03),
        "track": ("#6b5a3e", 0.025),
    }
)

HEXSIDE_ORDER = ("sea", "lake", "border", "line", "river", "major-river", "fortified-line")
"""Drawing order of hexside styles (later on top)."""
PATH_ORDER = ("track", "minor-road", "road", "rail")
"""Drawing order of path styles (later on top)."""


@dataclass(frozen=True)
class Look:
    """Resolved look of one declared type."""

    id: str
    name: str
    color: str
    symbol: str = "none"
    style: str = ""
    width: float = 0.04


@dataclass(frozen=True)
class MapStyle:
    """Every look a map drawing needs, keyed by type id."""

    terrain: Mapping[str, Look]
    features: Mapping[str, Look]
    hexsides: Mapping[str, Look]
    paths: Mapping[str, Look]
    side_colors: Mapping[str, str]
    paper: str = PAPER
    ink: str = INK
    grid: str = GRID
    grid_width: float = 0.012
    """Grid line width, fraction of the hex width."""
    edge_width: float = 0.03
    """Map-edge line width."""

    def terrain_look(self, terrain_id: str) -> Look:
        return self.terrain.get(terrain_id) or _fallback(terrain_id)

    def feature_look(self, feature_id: str) -> Look:
        return self.features.get(feature_id) or Look(feature_id, feature_id, "#000000", "dot")


SIDE_COLOURED = frozenset({"arrow", "arrow3", "supply"})
"""Feature symbols drawn in the colour of the side a map gives the hex (an entry arrow, a supply source)."""


def map_style(game: Game) -> MapStyle:
    """The style of ``game``'s maps: its declared looks over the defaults. A side-coloured feature that every
    map gives to one side takes that side's colour, so the legend shows it as the map does."""
    sides = _feature_sides(game)
    colours = {s.id: s.color for s in game.sides}
    return MapStyle(
        terrain=frozen_map({t.id: _terrain(t) for t in game.terrain}),
        features=frozen_map({f.id: _sided(_feature(f), f, sides.get(f.id, set()), colours) for f in game.hex_features}),
        hexsides=frozen_map({s.id: _line(s, HEXSIDE_DEFAULTS, "line") for s in game.hexside_features}),
        paths=frozen_map({p.id: _line(p, PATH_DEFAULTS, "road") for p in game.paths}),
        side_colors=frozen_map({s.id: s.color for s in game.sides}),
    )


def _feature_sides(game: Game) -> dict[str, set[str]]:
    """Feature id -> the sides the maps give its hexes ('' for none)."""
    out: dict[str, set[str]] = {}
    for m in game.maps.values():
        made_from = getattr(m.hexes, "made_from", None)  # the hexes with features, without making every hex
        by_hex = made_from()[1].values() if made_from else (info.features for info in m.hexes.values())
        for feats in by_hex:
            for ft in feats:
                out.setdefault(ft.type, set()).add(ft.side or "")
    return out


def _sided(look: Look, f: TypeDef, sides: set[str], colours: Mapping[str, str]) -> Look:
    if f.color or look.symbol not in SIDE_COLOURED or len(sides) != 1:
        return look
    side = next(iter(sides))
    return replace(look, color=colours[side]) if side in colours else look


def _terrain(t: TypeDef) -> Look:
    colour, symbol = TERRAIN_DEFAULTS.get(t.symbol or "", TERRAIN_DEFAULTS.get(t.id, (None, "none")))
    return Look(t.id, t.name, t.color or colour or _hashed_colour(t.id), t.symbol or symbol)


def _feature(f: TypeDef) -> Look:
    colour, symbol = FEATURE_DEFAULTS.get(f.symbol or "", FEATURE_DEFAULTS.get(f.id, ("#2b2620", "dot")))
    return Look(f.id, f.name, f.color or colour, f.symbol or symbol)


def _line(t: TypeDef, defaults: dict[str, tuple[str, float]], fallback: str) -> Look:
    style = t.style or (t.id if t.id in defaults else fallback)
    colour, width = defaults.get(style, defaults[fallback])
    return Look(t.id, t.name, t.color or colour, "", style, t.width or width)


def _fallback(terrain_id: str) -> Look:
    colour, symbol = TERRAIN_DEFAULTS.get(terrain_id, (_hashed_colour(terrain_id), "none"))
    return Look(terrain_id, terrain_id, colour, symbol)


def _hashed_colour(key: str) -> str:
    """A muted, stable colour for a type nobody styled (same id, same colour, every run)."""
    h = hashlib.sha1(key.encode()).digest()
    r, g, b = (150 + h[i] % 90 for i in range(3))
    return f"#{r:02x}{g:02x}{b:02x}"


def rgb(color: str) -> RGB:
    return ImageColor.getrgb(color)[:3]


def shade(color: str, factor: float) -> RGB:
    """``color`` darkened (factor < 1) or lightened towards white (factor > 1)."""
    r, g, b = rgb(color)
    if factor <= 1:
        return (int(r * factor), int(g * factor), int(b * factor))
    t = min(1.0, factor - 1)
    return (int(r + (255 - r) * t), int(g + (255 - g) * t), int(b + (255 - b) * t))
