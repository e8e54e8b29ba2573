"""A scene of drawing primitives in final-pixel coordinates, rasterised tile by tile.

Pillow draws polygons and lines without antialiasing, so vector layers are drawn
at ``ss`` times the final size one tile at a time and box-reduced; text and bitmaps
are drawn afterwards at final size (Pillow antialiases glyphs itself). Tiling keeps
memory to one supersampled tile plus the final image, whatever the map size, and
culling by bounding box keeps the work proportional to what each tile shows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from PIL import Image, ImageDraw

from authoring.render.shared.fonts import font

Point = tuple[float, float]
Color = str | tuple[int, ...]

TILE = 1024
"""Tile edge in final pixels."""


def _bbox(points: Sequence[Point], pad: float) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


@dataclass(frozen=True)
class Poly:
    points: tuple[Point, ...]
    fill: Color | None
    outline: Color | None = None
    width: float = 0.0

    @cached_property
    def bbox(self):
        return _bbox(self.points, self.width)


@dataclass(frozen=True)
class Line:
    points: tuple[Point, ...]
    color: Color
    width: float
    round_caps: bool = True
    sharp: bool = True
    """Round the joints (slow in Pillow); smoothed curves turn so little that they do not need it."""

    @cached_property
    def bbox(self):
        return _bbox(self.points, self.width)


@dataclass(frozen=True)
class Disc:
    x: float
    y: float
    r: float
    fill: Color | None
    outline: Color | None = None
    width: float = 0.0

    @cached_property
    def bbox(self):
        pad = self.r + self.width
        return (self.x - pad, self.y - pad, self.x + pad, self.y + pad)


@dataclass(frozen=True)
class Text:
    """Text anchored at (x, y) with a Pillow anchor ("mm" = middle), optional halo for legibility."""

    text: str
    x: float
    y: float
    size: float
    color: Color
    anchor: str = "mm"
    bold: bool = False
    halo: Color | None = None
    halo_width: int = 0

    @cached_property
    def bbox(self):
        return text_box(self.text, self.x, self.y, self.size, self.bold, self.anchor, self.halo_width)


@dataclass(frozen=True, eq=False)
class Bitmap:
    """An image pasted with its top-left corner at (x, y) (rounded to whole pixels)."""

    image: Image.Image
    x: float
    y: float

    @cached_property
    def bbox(self):
        return (self.x, self.y, self.x + self.image.width, self.y + self.image.height)


Item = Poly | Line | Disc | Text | Bitmap


@dataclass
class Layer:
    """Items drawn in order; ``vector`` layers are supersampled, raster layers are not."""

    vector: bool
    items: list[Item] = field(default_factory=list)

    def add(self, item: Item) -> None:
        self.items.append(item)

    def extend(self, items: Iterable[Item]) -> None:
        self.items.extend(items)


def text_box(
    text: str, x: float, y: float, size: float, bold: bool = False, anchor: str = "mm", pad: float = 0
) -> tuple[float, float, float, float]:
    """Ink box of a text item in final pixels."""
    left, top, right, bottom = font(size, bold).getbbox(text, anchor=anchor)
    return (x + left - pad, y + top - pad, x + right + pad, y + bottom + pad)


def rasterize(layers: Sequence[Layer], size: tuple[int, int], background: Color, ss: int = 2) -> Image.Image:
    """Draw ``layers`` into a new RGB image of ``size``."""
    out = Image.new("RGB", size, background)
    for y, band in raster_bands(layers, size, background, ss):
        out.paste(band, (0, y))
    return out


def raster_bands(
    layers: Sequence[Layer], size: tuple[int, int], background: Color, ss: int = 2
) -> Iterator[tuple[int, Image.Image]]:
    """The image `rasterize` draws, as (top row, band) pairs of `TILE` rows, top to bottom.

    A print map of 100 megapixels is 300 MB as one image; its tiles and PNG are made from these
    bands, so no stage holds more than a page's height of it (the pixels are those of `rasterize`,
    which joins the same bands)."""
    buckets = [bucket(layer, size) for layer in layers]
    for ty in range(0, size[1], TILE):
        band = Image.new("RGB", (size[0], min(TILE, size[1] - ty)), None)  # every pixel is a tile's
        for tx in range(0, size[0], TILE):
            box = (tx, ty, min(tx + TILE, size[0]), min(ty + TILE, size[1]))
            key = (tx // TILE, ty // TILE)
            band.paste(draw_tile(layers, [b.get(key, ()) for b in buckets], box, ss, background), (tx, 0))
        yield ty, band


def bucket(layer: Layer, size: tuple[int, int], tile: int = TILE) -> dict[tuple[int, int], list[int]]:
    """Item indices per tile of `tile` pixels, from their bounding boxes."""
    nx, ny = math.ceil(size[0] / tile), math.ceil(size[1] / tile)
    out: dict[tuple[int, int], list[int]] = {}
    for i, item in enumerate(layer.items):
        x0, y0, x1, y1 = item.bbox
        for gy in range(max(0, int(y0 // tile)), min(ny - 1, int(y1 // tile)) + 1):
            for gx in range(max(0, int(x0 // tile)), min(nx - 1, int(x1 // tile)) + 1):
                out.setdefault((gx, gy), []).append(i)
    return out


Box = tuple[int, int, int, int]


def draw_tile(
    layers: Sequence[Layer],
    picks: Sequence[Sequence[int]],
    box: Box,
    ss: int,
    background: Color,
    keep: Box | None = None,
) -> Image.Image:
    """The pixels of `box` (final pixels) drawn from the items `picks` names in each layer (`bucket`); with
    `keep` (a part of `box`, in its pixels), only that part, drawn in `box`'s frame (the same pixels) but
    reduced from the supersampled drawing alone."""
    tile = Image.new("RGB", (box[2] - box[0], box[3] - box[1]), background)
    tile = _render_tile(tile, layers, picks, box, ss, background, keep)
    return tile if keep is None else tile.crop(keep)


def _reduced(big: Image.Image, ss: int, keep: Box | None) -> Image.Image:
    """`big` reduced by `ss`; with `keep`, only that part of it (the rest of the image left black)."""
    if keep is None:
        return big.reduce(ss)
    out = Image.new("RGB", (big.width // ss, big.height // ss))
    out.paste(big.crop(tuple(v * ss for v in keep)).reduce(ss), keep[:2])
    return out


def _render_tile(
    tile: Image.Image, layers: Sequence[Layer], picks, box, ss: int, background: Color, keep: Box | None = None
) -> Image.Image:
    big: Image.Image | None = None
    fresh = True
    for layer, pick in zip(layers, picks):
        if not pick:
            continue
        if layer.vector:
            if big is None and fresh:
                big = Image.new("RGB", (tile.width * ss, tile.height * ss), background)
            elif big is None:
                big = tile.resize((tile.width * ss, tile.height * ss), Image.Resampling.NEAREST)
            draw = ImageDraw.Draw(big)
            for i in pick:
                _draw_vector(draw, layer.items[i], box[0], box[1], ss)
        else:
            if big is not None:
                tile, big = _reduced(big, ss, keep), None
            fresh = False
            draw = ImageDraw.Draw(tile)
            for i in pick:
                _draw_raster(tile, draw, layer.items[i], box[0], box[1])
    return _reduced(big, ss, keep) if big is not None else tile


def _draw_vector(draw: ImageDraw.ImageDraw, item: Item, ox: float, oy: float, ss: int) -> None:
    if isinstance(item, Poly):
        pts = [((x - ox) * ss, (y - oy) * ss) for x, y in item.points]
        if item.fill is not None:
            draw.polygon(pts, fill=item.fill)
        if item.outline is not None and item.width > 0:
            w = max(1, round(item.width * ss))
            draw.line(pts + pts[:1], fill=item.outline, width=w, joint="curve")
    elif isinstance(item, Line):
        pts = [((x - ox) * ss, (y - oy) * ss) for x, y in item.points]
        w = max(1, round(item.width * ss))
        draw.line(pts, fill=item.color, width=w, joint="curve" if item.sharp and w > 2 else None)
        if item.round_caps and w > 2:
            r = w / 2
            for x, y in (pts[0], pts[-1]):
                draw.ellipse((x - r, y - r, x + r, y + r), fill=item.color)
    elif isinstance(item, Disc):
        x, y, r = (item.x - ox) * ss, (item.y - oy) * ss, item.r * ss
        w = max(1, round(item.width * ss)) if item.outline is not None and item.width > 0 else 0
        draw.ellipse((x - r, y - r, x + r, y + r), fill=item.fill, outline=item.outline if w else None, width=w)
    elif isinstance(item, Text):  # text in a vector layer: drawn supersampled
        draw.text(
            ((item.x - ox) * ss, (item.y - oy) * ss),
            item.text,
            fill=item.color,
            font=font(item.size * ss, item.bold),
            anchor=item.anchor,
            stroke_width=item.halo_width * ss,
            stroke_fill=item.halo,
        )


def _draw_raster(tile: Image.Image, draw: ImageDraw.ImageDraw, item: Item, ox: float, oy: float) -> None:
    if isinstance(item, Text):
        draw.text(
            (item.x - ox, item.y - oy),
            item.text,
            fill=item.color,
            font=font(item.size, item.bold),
            anchor=item.anchor,
            stroke_width=item.halo_width,
            stroke_fill=item.halo,
        )
    elif isinstance(item, Bitmap):
        pos = (round(item.x - ox), round(item.y - oy))
        img = item.image
        if img.mode == "RGBA":
            tile.paste(img, pos, img)
        else:
            tile.paste(img.convert("RGB"), pos)
    else:
        raise TypeError(f"raster layers hold Text and Bitmap items, not {type(item).__name__}")
