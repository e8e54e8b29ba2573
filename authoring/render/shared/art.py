"""The designer's art as drawn output: map art resampled into the grid's frame, counter art scaled.

Map art: `render_map_art` turns and scales the whole image once (`plan_resample`) so that its
grid is regular at the requested hex size, with the VASSAL grid origin on whole pixels; the
print tiles, findings image and module board all start from that image, so they share one
registration. Big JPEGs are decoded at a reduced scale (libjpeg DCT scaling) when the output is
smaller anyway, and PNGs box-reduced, so memory and time follow the output size. SVG map art is drawn by
resvg straight at the output's scale (a vector board is never drawn at its own size and then scaled).

Counter art: SVG is rendered by resvg (`resvg_py`, Rust, wheels for every platform, no system
library; system fonts are skipped so that renders are the same on every machine) at the exact
pixel size; PNG/JPEG are scaled with Lanczos. Art is cut to a square face (full-face) or fitted
inside the picture slot, keeping its aspect.
"""

from __future__ import annotations

import io
import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import lru_cache

import resvg_py
from PIL import Image, ImageColor, ImageDraw

from authoring.hexgrid import Hex, MapGrid
from authoring.hexgrid.registration import Registration, ResamplePlan, plan_resample
from authoring.model import Map
from authoring.model.art import ArtImage
from authoring.readfile import MAX_ART_BYTES, read_limited
from authoring.render.counters.face import draw_face
from authoring.render.shared.fonts import font
from authoring.svgart import svg_text

PAPER = (250, 248, 240)
"""Beyond the edges of a turned scan."""
MAX_ART_PIXELS = 120_000_000
Image.MAX_IMAGE_PIXELS = max(Image.MAX_IMAGE_PIXELS or 0, MAX_ART_PIXELS)


def vassal_anchor(grid: MapGrid) -> Hex:
    """The hex at VASSAL's raw column 0, row 0 (`vassal_grid_params`): its centre is the integer x0, y0."""
    spec = grid.spec
    if spec.orientation == "pointy":
        base = spec.first_row - 1 if grid.is_shifted(spec.first_row) else spec.first_row
        return grid.offset_to_hex_unbounded(spec.first_column, base)
    base = spec.first_column - 1 if grid.is_shifted(spec.first_column) else spec.first_column
    return grid.offset_to_hex_unbounded(base, spec.first_row)


def registration(m: Map) -> Registration:
    if m.art is None or m.art.registration is None:
        raise ValueError(f"map {m.id!r} has no registered art")
    return m.art.registration


def art_plan(m: Map, px_per_hex: float) -> ResamplePlan:
    """Layout and size of map ``m``'s art redrawn at ``px_per_hex`` across the flats."""
    return plan_resample(registration(m), m.art.image.size, px_per_hex, vassal_anchor(m.grid))


def render_map_art(m: Map, px_per_hex: float) -> Image.Image:
    """The map art, turned and scaled into its grid's regular frame (RGB)."""
    plan = art_plan(m, px_per_hex)
    a, b, c, d, e, f = plan.to_image
    scale = math.sqrt(abs(a * e - b * d))  # art pixels per output pixel
    if m.art.image.format == "SVG":
        image, k = svg_at(m.art.image, 1.0 / scale)
        return _transform(_opaque(image), plan.size, _scaled((a, b, c, d, e, f), k, k))
    with _open_art(m.art.image.path) as source:
        full = source.size
        reduce = 1
        while reduce * 2 <= scale and reduce < 8:
            reduce *= 2
        if source.format == "JPEG" and reduce > 1:
            source.draft("RGB", (math.ceil(full[0] / reduce), math.ceil(full[1] / reduce)))
        source.load()
        image = _opaque(source)
    if image.size == full and reduce > 1:
        image = image.reduce(reduce)
    # both DCT scaling and box reduction map continuous coordinates x -> x / reduce exactly
    kx = ky = 1.0 if image.size == full else 1.0 / reduce
    return _transform(image, plan.size, _scaled((a, b, c, d, e, f), kx, ky))


def _scaled(to_image: tuple, kx: float, ky: float) -> tuple:
    """The affine map from output pixel indices to art pixel indices (`ResamplePlan.to_image`) as Pillow's
    continuous coordinates (pixel i spans [i, i + 1)) on the art drawn `kx`, `ky` times its own size."""
    a, b, c, d, e, f = to_image
    cx = c + 0.5 - (a + b) * 0.5
    cy = f + 0.5 - (d + e) * 0.5
    return (a * kx, b * kx, cx * kx, d * ky, e * ky, cy * ky)


def svg_at(art: ArtImage, zoom: float) -> tuple[Image.Image, float]:
    """SVG art drawn by resvg at `zoom` times its own size (at most `MAX_ART_PIXELS`), RGBA, and the zoom
    drawn: resvg scales the drawing uniformly, so art pixel x is drawn at x * zoom (the canvas is rounded up)."""

    w, h = art.size
    zoom = min(zoom, math.sqrt(MAX_ART_PIXELS / max(1, w * h)))
    svg = svg_text(read_limited(art.path, MAX_ART_BYTES))  # a string: nothing beside the file is read
    png = resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom, skip_system_fonts=True)
    image = Image.open(io.BytesIO(bytes(png)))
    image.load()
    return image, zoom


def _open_art(path: str) -> Image.Image:
    """The designer's image at `path`, read as a regular file within its size limit (never a pipe or device)."""
    return Image.open(io.BytesIO(read_limited(path, MAX_ART_BYTES)))


def _opaque(image: Image.Image) -> Image.Image:
    """RGB; transparent parts of the art on paper. An RGB scan is used as it is (no second copy)."""
    image.load()  # while its file is open
    if image.mode == "RGB":
        return image
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        out = Image.new("RGB", rgba.size, PAPER)
        out.paste(rgba, mask=rgba.getchannel("A"))
        return out
    return image.convert("RGB")


BAND = 512
"""Output rows per band of the resampling (bands run in threads: Pillow releases the GIL)."""


def _transform(image: Image.Image, size: tuple[int, int], data: tuple) -> Image.Image:
    """`Image.transform` (affine, bicubic) in horizontal bands on every core; each output pixel depends
    only on its own position, so the result is the same as one call, pixel for pixel."""
    a, b, c, d, e, f = data

    def band(top: int) -> Image.Image:
        rows = min(BAND, size[1] - top)
        return image.transform(
            (size[0], rows),
            Image.Transform.AFFINE,
            (a, b, c + b * top, d, e, f + e * top),
            Image.Resampling.BICUBIC,
            fillcolor=PAPER,
        )

    out = Image.new("RGB", size, PAPER)
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        for top, part in zip(range(0, size[1], BAND), pool.map(band, range(0, size[1], BAND))):
            out.paste(part, (0, top))
    return out


# --- registration overlay -----------------------------------------------------------------------

GRID = (255, 0, 160)
IDS = (20, 20, 20)
POINT = (0, 150, 255)


def registration_overlay(m: Map, max_side: int = 4000) -> Image.Image:
    """The art as given, with the fitted grid, every hex id and the calibration points drawn on it."""
    reg = registration(m)
    size = m.art.image.size
    k = min(1.0, max_side / max(size))
    if m.art.image.format == "SVG":
        art, _ = svg_at(m.art.image, k)
        art = _opaque(art)
    else:
        with _open_art(m.art.image.path) as source:
            if source.format == "JPEG" and k < 0.5:
                source.draft("RGB", (round(source.width * k * 2), round(source.height * k * 2)))
            art = _opaque(source)
    size = (max(1, round(size[0] * k)), max(1, round(size[1] * k)))
    image = art.resize(size, Image.Resampling.LANCZOS) if art.size != size else art
    image = Image.blend(image, Image.new("RGB", size, (255, 255, 255)), 0.25)
    draw = ImageDraw.Draw(image, "RGBA")
    hex_px = reg.hex_px * k
    line = max(1, round(hex_px / 45))
    label_font = font(max(7.0, hex_px * 0.16), bold=True)

    def at(p):
        return ((p[0] + 0.5) * k - 0.5, (p[1] + 0.5) * k - 0.5)

    for h in m.grid.hexes:
        corners = [at(p) for p in reg.corners(h)]
        draw.line(corners + corners[:1], fill=GRID + (230,), width=line)
        x, y = at(reg.hex_to_image(h))
        r = max(1.5, hex_px * 0.03)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=GRID)
        draw.text(
            (x, y - hex_px * 0.3),
            m.grid.hex_to_label(h),
            font=label_font,
            fill=IDS,
            anchor="mm",
            stroke_width=max(1, line),
            stroke_fill=(255, 255, 255),
        )
    for p in m.art.points:
        x, y = at(p.at)
        fx, fy = at(reg.hex_to_image(p.hex))
        r = max(3.0, hex_px * 0.08)
        draw.line(((x, y), (fx, fy)), fill=POINT, width=line)
        draw.ellipse((x - r, y - r, x + r, y + r), outline=POINT, width=line * 2)
    return image


# --- counter art --------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _raster(path: str, sha256: str, fmt: str, width: int, height: int) -> Image.Image:
    """The art at exactly (width, height) (RGBA). Process-wide: the hash keys the cache to the file's bytes,
    so an edited picture is a new key, never a stale one. Read-only."""
    if fmt == "SVG":
        svg = svg_text(
            read_limited(path, MAX_ART_BYTES)
        )  # a string: nothing beside the file is read (self-contained, checked at load)
        png = resvg_py.svg_to_bytes(svg_string=svg, width=width, height=height, skip_system_fonts=True)
        image = Image.open(io.BytesIO(bytes(png))).convert("RGBA")
        return image if image.size == (width, height) else image.resize((width, height), Image.Resampling.LANCZOS)
    with _open_art(path) as source:
        return source.convert("RGBA").resize((width, height), Image.Resampling.LANCZOS)


def face_image(art: ArtImage, size_px: int) -> Image.Image:
    """Full-face art: the image covering a ``size_px`` square (centred, overflow cut off), RGBA."""
    w, h = art.size
    k = size_px / min(w, h)
    sw, sh = max(size_px, round(w * k)), max(size_px, round(h * k))
    scaled = _raster(art.path, art.sha256, art.format, sw, sh)
    left, top = (sw - size_px) // 2, (sh - size_px) // 2
    return scaled.crop((left, top, left + size_px, top + size_px))


def picture_image(art: ArtImage, box: tuple[int, int]) -> Image.Image:
    """Picture-slot art: the image fitted inside ``box`` (w, h), keeping its aspect, RGBA."""
    w, h = art.size
    k = min(box[0] / w, box[1] / h)
    return _raster(art.path, art.sha256, art.format, max(1, round(w * k)), max(1, round(h * k)))


def draw_over_art(
    image_art: ArtImage,
    art,
    size_px: int,
    bleed_px: int,
    inset: int | None,
    floor: float,
    name: str,
    counter_mm: float,
    layout_px: int | None = None,
) -> tuple[Image.Image, list]:
    """A counter face drawn over the designer's full-face art (values always from data).

    The layout, without its unit symbol, is drawn once on white and once on black, which gives its
    exact coverage per pixel, and composited over the art (extended into the bleed by repeating its
    edge pixels). The layout may be drawn larger (`layout_px`, the print size, as every face is) and
    its coverage scaled down, while the art is scaled once, straight to `size_px`: where nothing is
    printed over it, the face is the designer's pixels."""
    import numpy as np

    big = layout_px or size_px
    big_bleed = round(bleed_px * big / size_px)
    dark_ink = sum(ImageColor.getrgb(art.foreground)[:3]) < 384
    plain = replace(art, symbol="marker", symbol_fill=None, halo="#ffffff" if dark_ink else "#000000")
    layers, issues = [], []
    for background in ("#ffffff", "#000000"):
        layer, found = draw_face(
            replace(plain, background=background), big, big_bleed, inset, floor, name=name, counter_mm=counter_mm
        )
        issues = issues or list(found)
        side = size_px + 2 * bleed_px
        layers.append(layer if layer.size == (side, side) else layer.resize((side, side), Image.Resampling.LANCZOS))
    under = np.asarray(face_image(image_art, size_px).convert("RGB"), dtype=np.float32)
    under = np.pad(under, ((bleed_px, bleed_px), (bleed_px, bleed_px), (0, 0)), mode="edge")
    w, b = (np.asarray(layer.convert("RGB"), dtype=np.float32) for layer in layers)
    image = Image.fromarray(np.clip(np.rint(b + (w - b) / 255.0 * under), 0, 255).astype(np.uint8), "RGB")
    return image, issues


def art_in_frame(m: Map, layout, px_per_hex: float) -> tuple[Image.Image, tuple[int, int]]:
    """Map ``m``'s resampled art cut to its hexes (RGBA), and where its top-left corner falls in the
    frame of ``layout`` (a joined overview or findings image drawn at the same ``px_per_hex``)."""
    plan = art_plan(m, px_per_hex)
    image = render_map_art(m, px_per_hex).convert("RGBA")
    mask = Image.new("L", image.size, 0)
    pen = ImageDraw.Draw(mask)
    for h in m.grid.hexes:
        pen.polygon(plan.layout.corners(h), fill=255)
    image.putalpha(mask)
    return image, (round(layout.origin[0] - plan.layout.origin[0]), round(layout.origin[1] - plan.layout.origin[1]))
