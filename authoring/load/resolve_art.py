"""Resolve the art a map or counter file names: path safety, a readable image, its fingerprint and fit.

Findings are located at the field that names the image:

* HW-PATH-010 / HW-PATH-011: the file is outside the project, or missing (errors).
* HW-ART-010: not a PNG, JPEG or SVG file, or unreadable (error).
* HW-ART-011: more pixels than `MAX_ART_PIXELS`, or for counter art `budget.MAX_COUNTER_ART_PIXELS` (error;
  memory stays bounded).
* HW-ART-012: a calibration point is off its fitted hex centre by more than 5% of a hex (warning).
* HW-ART-013: hex centres of the map fall outside the image: the registration is wrong (error).
* HW-ART-014: a map file gives calibration points but no registration yet (warning).
* HW-ART-015: raster map art with fewer pixels per hex than the tiled print needs (warning; SVG prints sharp
  at any size).
* HW-ART-016: an SVG whose elements, every `<use>` expanded, pass `budget.MAX_SVG_ELEMENTS`, a `<use>`
  that contains itself (error: resvg would expand it without end), filters past `budget.MAX_SVG_FILTER_WORK`,
  or text resvg cannot parse (an entity it does not know).
* HW-ART-020: full-face counter art that is not square (warning: it is cropped to the face).
* HW-ART-022: full-face counter art longer than `budget.FACE_ART_ASPECT` to 1 (error: no stage can draw
  the copy scaled to cover the face).
* HW-ART-021: raster counter art too small for 300 dpi at the game's counter size (warning).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from lxml import etree

from authoring.budget import FACE_ART_ASPECT, MAX_COUNTER_ART_PIXELS
from authoring.diagnostics.codes import (
    HW_ART_010,
    HW_ART_011,
    HW_ART_012,
    HW_ART_013,
    HW_ART_014,
    HW_ART_015,
    HW_ART_016,
    HW_ART_020,
    HW_ART_021,
    HW_ART_022,
    HW_HEX_001,
    HW_PATH_010,
    HW_PATH_011,
)
from authoring.diagnostics.zeros import padded, zeros_help
from authoring.hexgrid.registration import Registration
from authoring.load import raster
from authoring.load.context import Ctx
from authoring.model import Counter, Map
from authoring.model.art import ArtImage, ArtPoint, MapImage
from authoring.readfile import MAX_ART_BYTES, read_limited
from authoring.safepath import UnsafePath, resolve_inside, xml_parser
from authoring.svgart import resvg_problem, svg_problem, svg_text

MAX_ART_PIXELS = 120_000_000
"""Largest image accepted (a 10,000 x 8,000 px map is 80 million)."""
POINT_TOLERANCE = 0.05
"""A calibration point further than this fraction of a hex from its fitted centre is reported."""
ASPECT_TOLERANCE = 0.02
PRINT_DPI = 300
MAP_PRINT_DPI = 150
"""Resolution of the tiled print maps (`build.TILE_DPI`)."""
PICTURE_SHARE = 0.5
"""The picture slot is at most about half the counter edge: the art needs that much at 300 dpi."""
_SVG_LENGTH = re.compile(r"\s*([0-9.]+)\s*(px|pt|mm|cm|in)?\s*\Z")
_SVG_UNIT = MappingProxyType({"px": 1.0, None: 1.0, "pt": 4 / 3, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0})


def art_image(ctx: Ctx, root: Path, base: Path, name: str, path: tuple, svg: bool) -> ArtImage | None:
    """The image `name` (relative to `base`, inside `root`), or None with a located error."""
    try:
        real = resolve_inside(root, name, "image", base=base)
    except UnsafePath as exc:
        ctx.error(HW_PATH_010, str(exc), path, help=exc.help)
        return None
    if not real.exists():
        ctx.error(
            HW_PATH_011,
            f"image file {name!r} not found",
            path,
            help="paths are relative to the folder of the file that names them",
        )
        return None
    try:
        data = read_limited(real, MAX_ART_BYTES)
    except OSError as exc:  # a named pipe, a device, a folder, a file over the limit
        ctx.error(
            HW_ART_010,
            f"image file {name!r} cannot be read: {exc.strerror or exc}",
            path,
            help="name a PNG, JPEG or SVG file saved by an image editor",
        )
        return None
    kinds = "PNG, JPEG or SVG" if svg else "PNG or JPEG"
    if svg and (real.suffix.lower() == ".svg" or data.lstrip()[:5] in (b"<?xml", b"<svg ")):
        size = svg_pixels(data)
        if size is None:
            ctx.error(
                HW_ART_010,
                f"{name!r} is not an SVG image hexwright can read",
                path,
                help="give the <svg> element a width and height or a viewBox",
            )
            return None
        if _svg_links_out(data):
            ctx.error(
                HW_ART_010,
                f"SVG art {name!r} links to other files",
                path,
                help="embed pictures in the SVG (data: URIs), so the art is one self-contained file",
            )
            return None
        problem = _svg_drawable(data)
        if problem:
            ctx.error(
                HW_ART_016,
                f"SVG art {name!r} cannot be drawn: {problem}",
                path,
                help="simplify the drawing (flatten nested <use> clones), or save the art as PNG",
            )
            return None
        return ArtImage(name, hashlib.sha256(data).hexdigest(), "SVG", size, str(real), ctx.loc(path))
    fmt, size = raster.header(data)
    if fmt not in ("PNG", "JPEG"):
        ctx.error(HW_ART_010, f"{name!r} is not a {kinds} image", path, help=f"save the art as {kinds}")
        return None
    if size[0] * size[1] > MAX_ART_PIXELS:
        ctx.error(
            HW_ART_011,
            f"{name!r} is {size[0]:,} x {size[1]:,} px, over the limit of {MAX_ART_PIXELS:,} pixels",
            path,
            help="scale the art down; 150-300 px per hex is plenty",
        )
        return None
    short = raster.cut_short(data, fmt)
    if short:
        ctx.error(
            HW_ART_010,
            f"{fmt} image {name!r} is incomplete: {short}",
            path,
            help="save the image again from the image editor (the file was cut short or damaged on the way)",
        )
        return None
    return ArtImage(name, hashlib.sha256(data).hexdigest(), fmt, size, str(real), ctx.loc(path))


def svg_art_problem(data: bytes) -> str | None:
    """Why SVG bytes cannot be a project's art (the checks `art_image` makes), or None: no size, a link to
    another file, or a drawing resvg cannot be given."""
    if svg_pixels(data) is None:
        return "it has no width and height nor a viewBox"
    if _svg_links_out(data):
        return "it links to other files"
    return _svg_drawable(data)


def svg_pixels(data: bytes) -> tuple[int, int] | None:
    """Width and height of an SVG from its root element (viewBox when no width/height): the pixels of its
    registration's frame."""

    try:
        svg = etree.fromstring(data, xml_parser())
    except etree.XMLSyntaxError:
        return None
    if not str(svg.tag).endswith("svg"):
        return None
    w, h = _svg_length(svg.get("width")), _svg_length(svg.get("height"))
    box = (svg.get("viewBox") or "").replace(",", " ").split()
    if (w is None or h is None) and len(box) == 4:
        try:
            w, h = float(box[2]), float(box[3])
        except ValueError:
            return None
    if not w or not h:
        return None
    return max(1, round(w)), max(1, round(h))


def _svg_drawable(data: bytes) -> str | None:
    """Why resvg cannot be given this SVG (`svgart`), or None."""

    try:
        text = svg_text(data)
    except ValueError as exc:
        return str(exc)
    return svg_problem(etree.fromstring(data, xml_parser())) or resvg_problem(text)


def _svg_links_out(data: bytes) -> bool:
    """Whether an SVG names any file or address (href other than '#id' or 'data:'), which resvg would read."""

    svg = etree.fromstring(data, xml_parser())
    for element in svg.iter():
        for key, value in element.attrib.items():
            if key.endswith("href") and not value.strip().startswith(("#", "data:")):
                return True
    return b"url(" in data and any(
        not ref.strip(b" '\"").startswith((b"#", b"data:")) for ref in re.findall(rb"url\(([^)]*)\)", data)
    )


def _svg_length(text: str | None) -> float | None:
    m = _SVG_LENGTH.match(text or "")
    return float(m.group(1)) * _SVG_UNIT[m.group(2)] if m else None


# --- maps ---------------------------------------------------------------------------------------


def resolve_map_art(ctx: Ctx, root: Path, file: Path, m: Map, features: frozenset[str] = frozenset()) -> Map:
    """`m` with its `art` (when the map file names one), every art finding recorded in `ctx`."""
    spec = ctx.src.data.get("art")
    if not spec:
        return m
    image = art_image(ctx, root, file.parent, spec["image"], ("art", "image"), svg=True)
    if image is None:
        return m
    points = []
    for label, xy in (spec.get("points") or {}).items():
        h = m.grid.label_to_hex(str(label))
        if h is None:
            wanted = padded(str(label), m.grid.label_to_hex)
            ctx.error(
                HW_HEX_001,
                f"calibration point {str(label)!r} is not a hex of map {m.id!r}",
                ("art", "points", label),
                help=zeros_help([wanted], "hex id", ctx.src.path) if wanted else "",
            )
            continue
        points.append(ArtPoint(h, str(label), (float(xy[0]), float(xy[1])), ctx.loc(("art", "points", label))))
    reg = None
    if "hex_size" in spec:
        origin = spec["origin"]
        h = m.grid.label_to_hex(str(origin["hex"]))
        if h is None:
            wanted = padded(str(origin["hex"]), m.grid.label_to_hex)
            ctx.error(
                HW_HEX_001,
                f"origin hex {str(origin['hex'])!r} is not on map {m.id!r}",
                ("art", "origin", "hex"),
                help=zeros_help([wanted], "hex id", ctx.src.path) if wanted else "",
            )
            return m
        sx, sy = spec.get("stretch") or (1.0, 1.0)
        reg = Registration(
            m.grid.spec.orientation,
            float(spec["hex_size"]),
            h,
            (float(origin["x"]), float(origin["y"])),
            (float(sx), float(sy)),
            float(spec.get("rotation", 0.0)),
        )
        _check_points(ctx, reg, points)
        _check_coverage(ctx, reg, image, m)
        if image.format != "SVG":  # a drawing has every resolution
            _check_print_size(ctx, reg, m)
    elif points:
        ctx.diags.append(
            HW_ART_014.at(
                f"map {m.id!r} has calibration points but no registration",
                ctx.loc(("art",)),
                help=f"run `hexwright calibrate {ctx.src.path} --write` to fit and write the registration",
                path=("art",),
            )
        )
    overlay = tuple(str(f) for f in spec.get("overlay") or ())
    for i, fid in enumerate(overlay):
        ctx.ref(fid, features, "hex feature", ("art", "overlay", i))
    return replace(m, art=MapImage(image, reg, tuple(points), ctx.loc(("art",)), overlay))


def _check_points(ctx: Ctx, reg: Registration, points: list[ArtPoint]) -> None:
    for p in points:
        fx, fy = reg.hex_to_image(p.hex)
        off = ((fx - p.at[0]) ** 2 + (fy - p.at[1]) ** 2) ** 0.5
        if off > POINT_TOLERANCE * reg.hex_px:
            ctx.diags.append(
                HW_ART_012.at(
                    f"hex {p.label} is at ({p.at[0]:g}, {p.at[1]:g}) on the art but the registration "
                    f"puts its centre at ({fx:.1f}, {fy:.1f}), {off:.1f} px off ({off / reg.hex_px:.0%} of a hex)",
                    p.loc,
                    help="re-read the point, or run `hexwright calibrate MAP --write` for a new registration; "
                    "`hexwright check MAP --image out.png` shows the grid on the art",
                    path=("art", "points", p.label),
                )
            )


def _check_coverage(ctx: Ctx, reg: Registration, image: ArtImage, m: Map) -> None:
    w, h = image.size
    outside = []
    for hx in m.grid.hexes:
        x, y = reg.hex_to_image(hx)
        if not (-0.5 <= x <= w - 0.5 and -0.5 <= y <= h - 0.5):
            outside.append(m.grid.hex_to_label(hx))
    if outside:
        shown = ", ".join(outside[:5]) + (", ..." if len(outside) > 5 else "")
        ctx.error(
            HW_ART_013,
            f"{len(outside)} of {len(m.grid.hexes)} hex centres fall outside the "
            f"{w} x {h} px map art ({shown}): the registration does not fit the image",
            ("art",),
            help="check hex_size and origin against the art (`hexwright check MAP --image out.png`), "
            "or fit them with `hexwright calibrate`",
        )


def _check_print_size(ctx: Ctx, reg: Registration, m: Map) -> None:
    need = m.hex_size_in * MAP_PRINT_DPI
    have = reg.hex_px * min(reg.stretch)
    if have < need * 0.98:
        ctx.diags.append(
            HW_ART_015.at(
                f"the map art has {have:.0f} px per hex; printing {m.hex_size_in:g} in hexes at "
                f"{MAP_PRINT_DPI} dpi needs {need:.0f}, so the print is scaled up",
                ctx.loc(("art", "hex_size")),
                help="scan or export the art at a higher resolution",
                path=("art", "hex_size"),
            )
        )


# --- counters -----------------------------------------------------------------------------------


def resolve_counter_art(ctx: Ctx, root: Path, file: Path, counters: list[Counter], counter_in: float) -> list[Counter]:
    """Counters with their faces' images (face `image`/`picture`, else the counter's)."""
    items = ctx.src.data.get("counters", [])
    by_id = {str(c.get("id")): (i, c) for i, c in enumerate(items)}
    seen: dict[str, ArtImage | None] = {}
    out = []
    for counter in counters:
        i, data = by_id.get(counter.id, (None, None))
        if data is None or not _names_art(data):
            out.append(counter)
            continue
        faces = []
        for j, face in enumerate(counter.faces):
            fdata = data["faces"][j] if j < len(data["faces"]) else {}
            found: dict[str, ArtImage | None] = {}
            for field in ("image", "picture"):
                path = ("counters", i, "faces", j, field) if fdata.get(field) else ("counters", i, field)
                name = fdata.get(field) or data.get(field)
                if not name:
                    continue
                key = f"{field}:{name}"
                if key not in seen:
                    art = seen[key] = art_image(ctx, root, file.parent, name, path, svg=True)
                    if art is not None:
                        _check_counter_art(ctx, art, field, counter_in, path)
                found[field] = seen[key]
            if found:
                face = replace(face, image=found.get("image", face.image), picture=found.get("picture", face.picture))
            faces.append(face)
        out.append(replace(counter, faces=tuple(faces)))
    return out


def _names_art(data: dict) -> bool:
    return bool(
        data.get("image")
        or data.get("picture")
        or any(f.get("image") or f.get("picture") for f in data.get("faces", ()) if isinstance(f, dict))
    )


def _check_counter_art(ctx: Ctx, art: ArtImage, field: str, counter_in: float, path: tuple) -> None:
    w, h = art.size
    if art.format != "SVG" and w * h > MAX_COUNTER_ART_PIXELS:
        ctx.error(
            HW_ART_011,
            f"counter art {art.name!r} is {w:,} x {h:,} px, over the limit of "
            f"{MAX_COUNTER_ART_PIXELS:,} pixels for counter art",
            path,
            help="scale the art down: a 3in face at 300 dpi is 900 px across",
        )
        return
    if field == "image" and max(w, h) / min(w, h) > FACE_ART_ASPECT:
        ctx.error(
            HW_ART_022,
            f"face art {art.name!r} is {w:,} x {h:,} px (aspect {max(w, h) / min(w, h):,.2f}); "
            f"full-face art is cut to the square face, and art longer than {FACE_ART_ASPECT:g} to 1 cannot "
            "be drawn",
            path,
            help="crop the art to a square, or show it in the picture slot (picture:)",
        )
        return
    if field == "image" and abs(w / h - 1) > ASPECT_TOLERANCE:
        ctx.diags.append(
            HW_ART_020.at(
                f"face art {art.name!r} is {w} x {h} px (aspect {w / h:.2f}); "
                "a counter face is square, so its edges are cut off",
                art.loc,
                help="crop the art to a square",
                path=path,
            )
        )
    small = too_small(art, field, counter_in, path)
    if small is not None:
        ctx.diags.append(small)


def too_small(art: ArtImage, field: str, counter_in: float, path: tuple = ()):
    """HW-ART-021 when raster art has fewer pixels than `PRINT_DPI` needs at `counter_in` (else None)."""
    if art.format == "SVG":
        return None
    w, h = art.size
    need = round(counter_in * PRINT_DPI * (PICTURE_SHARE if field == "picture" else 1.0))
    if min(w, h) >= need:
        return None
    what = f"the picture slot of a {counter_in:g} in counter" if field == "picture" else f"a {counter_in:g} in counter"
    return HW_ART_021.at(
        f"{art.name!r} is {w} x {h} px, too small for {what} at {PRINT_DPI} dpi (needs {need} px)",
        art.loc,
        help="supply larger art, or SVG, which prints sharp at any size",
        path=path,
    )


def counter_art_findings(counters, counter_in: float) -> list:
    """HW-ART-021 for every image too small at a chosen counter size (`build sheets --counter-size`)."""
    seen, out = set(), []
    for c in sorted(counters, key=lambda c: c.id):
        for f in c.faces:
            for field, art in (("image", f.image), ("picture", f.picture)):
                if art is not None and (field, art.name, art.loc) not in seen:
                    seen.add((field, art.name, art.loc))
                    small = too_small(art, field, counter_in)
                    if small is not None:
                        out.append(small)
    return out


def art_files(maps, counters) -> tuple[Path, ...]:
    """Every image file the game uses, for the build's content digests."""
    found = {m.art.image.path for m in maps if m.art is not None}
    found |= {a.path for c in counters for f in c.faces for a in (f.image, f.picture) if a is not None}
    return tuple(sorted(Path(p) for p in found if p and os.path.isfile(p)))
