"""Hex geometry and numbering: axial `Hex` inside, printed ids and pixels at the edges.

Follows Red Blob Games' hex guide (https://www.redblobgames.com/grids/hexagons/).
"""

from .coords import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Hex,
    Hexside,
    direction_index,
    direction_name,
    hex_line,
    hex_ring,
    hex_spiral,
    opposite,
)
from .grid import EDGES, GridSpec, MapGrid
from .labels import LabelFormat, alpha_to_int, int_to_alpha
from .layout import PixelLayout
from .multimap import MultiMapLayout
from .vassal import (
    HEX_GRID_KEYS,
    NUMBERING_KEYS,
    vassal_attributes,
    vassal_grid_params,
    vassal_label,
    vassal_snap,
)

__all__ = (
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "EDGES",
    "GridSpec",
    "HEX_GRID_KEYS",
    "Hex",
    "Hexside",
    "LabelFormat",
    "MapGrid",
    "MultiMapLayout",
    "NUMBERING_KEYS",
    "PixelLayout",
    "alpha_to_int",
    "direction_index",
    "direction_name",
    "hex_line",
    "hex_ring",
    "hex_spiral",
    "int_to_alpha",
    "opposite",
    "vassal_attributes",
    "vassal_grid_params",
    "vassal_label",
    "vassal_snap",
)
