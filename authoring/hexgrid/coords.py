"""Axial hex coordinates, the one internal hex type (Red Blob Games' hex guide).

Everything inside the toolchain speaks `Hex(q, r)`; printed ids and pixels are
converted at the edges (`grid.py`, `layout.py`).
See https://www.redblobgames.com/grids/hexagons/#coordinates-axial.

Direction order (fixed, clockwise on screen with y pointing down):

====  =========  ==========  ===========
 d    (dq, dr)   flat-top    pointy-top
====  =========  ==========  ===========
 0    ( 0, -1)   N           NW
 1    (+1, -1)   NE          NE
 2    (+1,  0)   SE          E
 3    ( 0, +1)   S           SE
 4    (-1, +1)   SW          SW
 5    (-1,  0)   NW          W
====  =========  ==========  ===========

The opposite of direction ``d`` is ``(d + 3) % 6``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

__all__ = (
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "Hex",
    "Hexside",
    "direction_index",
    "direction_name",
    "hex_line",
    "hex_ring",
    "hex_spiral",
    "opposite",
)

ORIENTATIONS = ("flat", "pointy")

DIRECTION_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "flat": ("N", "NE", "SE", "S", "SW", "NW"),
        "pointy": ("NW", "NE", "E", "SE", "SW", "W"),
    }
)
"""Compass name of each direction index, per orientation (see module docstring)."""

_LONG_NAMES = MappingProxyType(
    {
        "NORTH": "N",
        "SOUTH": "S",
        "EAST": "E",
        "WEST": "W",
        "NORTHEAST": "NE",
        "NORTHWEST": "NW",
        "SOUTHEAST": "SE",
        "SOUTHWEST": "SW",
    }
)


class _HexFields(NamedTuple):
    q: int
    r: int


class Hex(_HexFields):
    """A hex in axial coordinates; the third cube coordinate is ``s = -q - r``.

    A tuple ``(q, r)`` underneath: hexes are dict keys in every hot loop (labels, cells, stacks),
    and a tuple hashes and compares in C, five times faster than a dataclass's Python ``__hash__``
    and ``__eq__``. The hash is ``hash((q, r))`` as before, so set and dict orders are unchanged.
    Unlike a plain tuple, ``+`` and ``-`` are vector sums and ``*`` is refused (see `scale`).
    """

    __slots__ = ()

    def __new__(cls, q: int, r: int) -> Hex:
        if type(q) is not int or type(r) is not int:
            raise TypeError(f"Hex coordinates must be int, got q={q!r}, r={r!r}")
        return tuple.__new__(cls, (q, r))

    @property
    def s(self) -> int:
        return -self[0] - self[1]

    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]
        return Hex(self[0] + other[0], self[1] + other[1])

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self[0] - other[0], self[1] - other[1])

    def __mul__(self, other: object):  # type: ignore[override]
        return NotImplemented  # a tuple would repeat itself: use `scale`

    __rmul__ = __mul__

    def scale(self, k: int) -> Hex:
        """This vector multiplied by ``k`` (Red Blob "hex_scale")."""
        return Hex(self.q * k, self.r * k)

    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex in ``direction`` (0..5, order in the module docstring)."""
        d = DIRECTIONS[direction]
        return Hex(self.q + d.q, self.r + d.r)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in direction order."""
        q, r = self.q, self.r
        return tuple(Hex(q + d.q, r + d.r) for d in DIRECTIONS)

    def distance(self, other: Hex) -> int:
        """Number of steps between the hexes (#distances-axial)."""
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def direction_to(self, other: Hex) -> int:
        """Direction index from this hex to an adjacent ``other``; ValueError otherwise."""
        try:
            return _DIRECTION_OF[(other.q - self.q, other.r - self.r)]
        except KeyError:
            raise ValueError(f"{other} is not adjacent to {self}") from None


DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
)
"""Unit vectors for directions 0..5 (clockwise, see module docstring)."""

_DIRECTION_OF = MappingProxyType({(d.q, d.r): i for i, d in enumerate(DIRECTIONS)})


def opposite(direction: int) -> int:
    """The direction pointing back."""
    return (direction + 3) % 6


def direction_name(orientation: str, direction: int) -> str:
    """Compass name ("N", "NE", ...) of a direction index for an orientation."""
    return DIRECTION_NAMES[_check_orientation(orientation)][direction]


def direction_index(orientation: str, name: str) -> int:
    """Direction index of a compass name ("ne", "North-East", "SE" ...); ValueError if none."""
    key = name.strip().upper().replace("-", "").replace(" ", "").replace("_", "")
    key = _LONG_NAMES.get(key, key)
    names = DIRECTION_NAMES[_check_orientation(orientation)]
    if key not in names:
        raise ValueError(f"Expected one of: {list(names)} but received: {name!r}")
    return names.index(key)


def _check_orientation(orientation: str) -> str:
    if orientation not in ORIENTATIONS:
        raise ValueError(f"Expected one of: {list(ORIENTATIONS)} but received: {orientation!r}")
    return orientation


def cube_round(fq: float, fr: float) -> Hex:
    """Nearest hex to fractional axial coordinates (#rounding)."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from ``a`` to ``b``, both included (#line-drawing).

    The start is nudged by a tiny epsilon so that lines running exactly along
    hexsides fall consistently on one side.
    """
    n = a.distance(b)
    if n == 0:
        return [a]
    aq, ar = a.q + 1e-6, a.r + 2e-6
    bq, br = b.q + 1e-6, b.r + 2e-6
    step = 1.0 / n
    return [cube_round(aq + (bq - aq) * step * i, ar + (br - ar) * step * i) for i in range(n + 1)]


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """The 6 * radius hexes at exactly ``radius`` from ``center``, clockwise (#rings)."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    h = center + DIRECTIONS[4].scale(radius)  # the SW corner; walk N, NE, SE ...
    ring: list[Hex] = []
    for d in DIRECTIONS:
        for _ in range(radius):
            ring.append(h)
            h = h + d
    return ring


def hex_spiral(center: Hex, radius: int) -> list[Hex]:
    """``center`` then rings 1..radius: every hex within ``radius`` (#spiral-rings)."""
    result = [center]
    for k in range(1, radius + 1):
        result.extend(hex_ring(center, k))
    return result


class _HexsideFields(NamedTuple):
    a: Hex
    b: Hex


class Hexside(_HexsideFields):
    """The side shared by two adjacent hexes; one canonical object (``a < b``).

    Build it with `Hexside.between`, which orders the pair, so the side seen
    from either hex is the same (equal, same hash) value. A pair of hexes
    underneath, like `Hex` (a large map lists thousands of sides).
    """

    __slots__ = ()

    def __new__(cls, a: Hex, b: Hex) -> Hexside:
        if not a < b:
            raise ValueError(f"Hexside needs a < b, got {a} and {b}; use Hexside.between")
        if a.distance(b) != 1:
            raise ValueError(f"{a} and {b} are not neighbours")
        return tuple.__new__(cls, (a, b))

    def __add__(self, other: object):  # type: ignore[override]
        return NotImplemented  # no tuple concatenation or repetition: a side is not a sequence of hexes

    __mul__ = __rmul__ = __add__

    @classmethod
    def between(cls, h1: Hex, h2: Hex) -> Hexside:
        """The side between two neighbours, whatever their order; ValueError otherwise."""
        if h1 == h2 or h1.distance(h2) != 1:
            raise ValueError(f"{h1} and {h2} are not neighbours")
        return cls(h1, h2) if h1 < h2 else cls(h2, h1)

    def hexes(self) -> tuple[Hex, Hex]:
        return (self.a, self.b)

    def other(self, h: Hex) -> Hex:
        """The hex across the side from ``h``; ValueError if ``h`` is not on it."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on {self}")
