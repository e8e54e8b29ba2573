"""Physical size ranges and pixel budgets: whatever validates can be drawn (issue 17, class 3).

Every build stage draws at a scale fixed by hexwright (the stage constants below) or by the data
(`hex_size`, `counter_size`), so the size of every image is known from the model before anything
is drawn. The loader checks it here, with an error at the value that sets it, instead of letting a
stage allocate gigabytes and fail (or be killed) halfway.
"""

from __future__ import annotations

from types import MappingProxyType

from authoring.lengths import parse_length

COUNTER_SIZE_IN = (0.25, 3.0)
"""Counters from 1/4in (below any printed counter) to 3in (beyond any block or card-sized counter)."""
HEX_SIZE_IN = (0.25, 4.0)
"""Hexes from 1/4in to 4in across the flats (printed maps use 1/2in to 1 1/2in)."""

MAP_PX_PER_HEX = 150  # `build maps`: the map PNGs
TILE_DPI = 300  # `build maps`: tiled print PDFs (print-and-play: 300 dpi), hex_size_in * TILE_DPI px per hex
TILE_DPI_MIN = 150  # ... lowered down to this for a map too large to draw at TILE_DPI within the budget
MODULE_PX_PER_HEX = 72  # `build module`: the boards (vassal.compile.DEFAULT_PX_PER_HEX, pinned by a test)
PIXEL_BUDGET = 120_000_000
"""Largest image a stage may draw: 360 MB as RGB, so that drawing, encoding and the tiles fit well within
2 GB on the bundled machine size. A map of 5,000 hexes fits at 150 px per hex."""


FACE_ART_ASPECT = 4.0
"""Longest side over shortest of full-face counter art (`image`, raster or SVG). The art is scaled to cover
the square face and cut to it, so the scaled copy every stage draws is this many faces long: past 4:1
three quarters of the art are cut away anyway, and a 120,000 x 1 px image asked for a copy of 22 billion
pixels (MemoryError); at 4:1 a 3in face at 300 dpi is under 4 million."""
MAX_COUNTER_ART_PIXELS = 16_000_000
"""Pixels of raster counter art (PNG, JPEG). Every process that draws faces decodes the art whole (sheets,
module and cards each in their own workers, side by side): a 10,000 x 10,000 px face took 1.2 GB in one
process. The largest face drawn (3in at 300 dpi, with bleed) is under a million pixels; 16 million
(4,000 x 4,000) is far more than any face shows."""
MAX_SVG_ELEMENTS = 50_000
"""Elements of an SVG once every `<use>` is expanded (resvg copies what a `<use>` names): rendering takes
about 1 s per 100,000 elements, for every size a face is drawn at, so a 50,000-element image stays within
the time the rest of a counter takes; ten nested groups of ten uses would be ten billion."""
MAX_SVG_FILTER_PRIMITIVES = 256
"""Filter primitives an SVG applies, each filtered element counting its filter's (every `<use>` expanded):
each is at least one pass over the element's region at every size a face is drawn at, and 50 chained
feMorphology primitives drew for minutes."""
MAX_SVG_FILTER_WORK = 8_192
"""Work an SVG's filters cost, drawn with its longer side `SVG_FILTER_REFERENCE_PX` long, in kernel cells
over the region (about 1.2 ms each there): a feMorphology is (2 r + 1)^2 for its radius in those pixels,
a feConvolveMatrix its kernel's cells, any other primitive 16; each times its filter region's area over the
drawing's, when larger. About 10 s for the largest face; 50 chained feMorphology primitives drew for minutes."""
SVG_FILTER_REFERENCE_PX = 400
"""The size, in pixels, of the art's longer side that filter work is reckoned at (a large face)."""
MAX_SVG_IMAGE_PIXELS = 16_000_000
"""Pixels of a raster image embedded in SVG art (a data: URI). resvg decodes it whole, as RGBA, for every
size the face is drawn at, which is at most a few hundred pixels: 16 million (64 MB decoded) is far more
than any face shows, where a 20,000 x 20,000 px PNG of 500 KB took 22 s and 1.9 GB to draw."""
IMAGE_MAX_SIDE = MappingProxyType({"JPEG": 65_500, "PNG": 2**31 - 1})
"""Longest side of an image in each format a build writes (libjpeg's limit; PNG's own). A painted map's
module board is a JPEG: a 999 x 5 hex pointy map is 72,000 px wide at the module's scale, within the
pixel budget but not JPEG's side."""
MAX_PIECES = 10_000
"""Counters in a game's counter mix (each counter times its quantity). Every piece is a face drawn for the
sheets and the module, a slot of the module's piece palette and a place on a sheet: 10,000 is 60 letter
sheets of 5/8in counters and more than the largest published games hold; 100,006 took minutes to build."""


def length_problem(value, what: str, limits: tuple[float, float]) -> str | None:
    """Why a written length cannot be used (not a length, or out of `limits`), or None."""
    if value in (None, ""):
        return None
    inches = parse_length(value)
    lo, hi = limits
    if inches is None:
        return f"{what} {value!r} is not a length (a fraction with 0 below the line?)"
    if not lo <= inches <= hi:
        return (
            f"{what} {value!r} is {inches:g}in ({inches * 25.4:.1f} mm), outside the range "
            f"{lo:g}in to {hi:g}in ({lo * 25.4:.1f} to {hi * 25.4:.1f} mm)"
        )
    return None


def map_pixels(hexes: int, hex_size_in: float) -> tuple[int, str]:
    """The largest image any stage draws of a map of `hexes` hexes (pixels, and which stage): each hex takes
    about px_per_hex squared (a hex covers 0.87 of that, the rest is the frame and margins)."""
    scales = {
        "the map image (build maps)": MAP_PX_PER_HEX,
        "the tiled print map (build maps)": hex_size_in * TILE_DPI_MIN,
        "the module board (build module)": MODULE_PX_PER_HEX,
    }
    stage, px = max(scales.items(), key=lambda kv: kv[1])
    return int(hexes * px * px), stage


def map_budget_problem(hexes: int, hex_size_in: float) -> str | None:
    pixels, stage = map_pixels(hexes, hex_size_in)
    if pixels <= PIXEL_BUDGET:
        return None
    return (
        f"map of {hexes:,} hexes would be drawn as {pixels / 1e6:,.0f} million pixels for {stage}, over the "
        f"budget of {PIXEL_BUDGET / 1e6:,.0f} million"
    )


def tile_dpi(hexes: int, hex_size_in: float, dpi: float = TILE_DPI) -> float:
    """The tiled print's resolution for a map: `dpi`, or less (never below TILE_DPI_MIN) where the
    whole map at `dpi` would pass the pixel budget. A 60 x 45 hex map of 3/4in hexes prints at 300 ppi;
    a much larger one at the highest resolution that stays within memory."""
    fits = (PIXEL_BUDGET / max(1, hexes)) ** 0.5 / hex_size_in
    return float(max(min(dpi, TILE_DPI_MIN), min(dpi, int(fits))))
