"""NATO-style unit symbols, drawn at any size from proportions only.

Every painter works in a box given in supersampled pixels and derives all
lengths from that box, so the same code serves a 300 dpi print face and a
75 px VASSAL piece. ``render_symbol`` draws at ``SUPERSAMPLE`` times the target
size and downsamples with LANCZOS, which is the antialiasing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from PIL import Image, ImageColor, ImageDraw

from authoring.render.shared.fonts import font

SUPERSAMPLE = 4
"""Drawing scale before the LANCZOS downsample."""

FRAME_RATIO = 1.5
"""Width to height of the land-unit frame (APP-6 friendly rectangle)."""

STROKE_RATIO = 0.055
"""Line width as a fraction of the symbol height."""

Box = tuple[float, float, float, float]
RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class Pen:
    """What a painter needs: a draw surface at supersampled scale and its inks."""

    draw: ImageDraw.ImageDraw
    ink: RGBA
    fill: RGBA | None
    stroke: float


Painter = Callable[[Pen, Box], None]


# --- geometry helpers -------------------------------------------------------


def _size(box: Box) -> tuple[float, float]:
    return box[2] - box[0], box[3] - box[1]


def _at(box: Box, fx: float, fy: float) -> tuple[float, float]:
    """The point at fractions (fx, fy) of a box."""
    return box[0] + fx * (box[2] - box[0]), box[1] + fy * (box[3] - box[1])


def _frame_box(box: Box) -> Box:
    """The largest 3:2 frame centred in ``box``."""
    w, h = _size(box)
    fh = min(h, w / FRAME_RATIO)
    fw = fh * FRAME_RATIO
    x0 = box[0] + (w - fw) / 2
    y0 = box[1] + (h - fh) / 2
    return x0, y0, x0 + fw, y0 + fh


def _inset(box: Box, d: float) -> Box:
    return box[0] + d, box[1] + d, box[2] - d, box[3] - d


def pen_line(pen: Pen, *points: tuple[float, float]) -> None:
    pen.draw.line(list(points), fill=pen.ink, width=max(1, round(pen.stroke)), joint="curve")


def _frame(pen: Pen, frame: Box) -> Box:
    """Draw the unit frame (with its fill) and return the area inside the line."""
    s = max(1, round(pen.stroke))
    pen.draw.rectangle(frame, fill=pen.fill, outline=pen.ink, width=s)
    return _inset(frame, s)


# --- icons: drawn inside a frame's inner box ----------------------------------


def _cross(pen: Pen, b: Box) -> None:
    pen_line(pen, (b[0], b[1]), (b[2], b[3]))
    pen_line(pen, (b[0], b[3]), (b[2], b[1]))


def _oval(pen: Pen, b: Box) -> None:
    w, h = _size(b)
    x0, y0 = _at(b, 0.2, 0.27)
    x1, y1 = _at(b, 0.8, 0.73)
    r = (y1 - y0) / 2
    pen.draw.rounded_rectangle((x0, y0, x1, y1), radius=r, outline=pen.ink, width=max(1, round(pen.stroke)))


def _slash(pen: Pen, b: Box) -> None:
    pen_line(pen, (b[0], b[3]), (b[2], b[1]))


def _dot(pen: Pen, b: Box) -> None:
    cx, cy = _at(b, 0.5, 0.5)
    r = 0.2 * _size(b)[1]
    pen.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pen.ink)


def _bridge(pen: Pen, b: Box) -> None:
    """The engineer's 'E' on its back: a span with three piers."""
    y_top, y_leg = _at(b, 0, 0.3)[1], _at(b, 0, 0.7)[1]
    xl, xm, xr = _at(b, 0.25, 0)[0], _at(b, 0.5, 0)[0], _at(b, 0.75, 0)[0]
    pen_line(pen, (xl, y_leg), (xl, y_top), (xr, y_top), (xr, y_leg))
    pen_line(pen, (xm, y_top), (xm, y_leg))


def _mountain(pen: Pen, b: Box) -> None:
    w, h = _size(b)
    cx, base = _at(b, 0.5, 1.0)
    pen.draw.polygon([(cx - 0.16 * w, base), (cx + 0.16 * w, base), (cx, base - 0.36 * h)], fill=pen.ink)


def _ski(pen: Pen, b: Box) -> None:
    """A runner with an upturned tip under the crossing."""
    x0, y = _at(b, 0.3, 0.84)
    x1, _ = _at(b, 0.66, 0.84)
    tip = _at(b, 0.76, 0.64)
    pen_line(pen, (x0, y), (x1, y), tip)


def _star(pen: Pen, cx: float, cy: float, r: float) -> None:
    points = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.42
        a = -math.pi / 2 + i * math.pi / 5
        points.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    pen.draw.polygon(points, fill=pen.ink)


def _guards_star(pen: Pen, b: Box) -> None:
    cx, cy = _at(b, 0.5, 0.24)
    _star(pen, cx, cy, 0.22 * _size(b)[1])


def _shock_arrow(pen: Pen, b: Box) -> None:
    """A solid arrowhead in the upper wedge: the breakthrough unit."""
    w, h = _size(b)
    cx, top = _at(b, 0.5, 0.06)
    pen.draw.polygon(
        [(cx, top), (cx + 0.12 * w, top + 0.34 * h), (cx, top + 0.25 * h), (cx - 0.12 * w, top + 0.34 * h)],
        fill=pen.ink,
    )


def _supply_bar(pen: Pen, b: Box) -> None:
    y = _at(b, 0, 0.68)[1]
    pen_line(pen, (b[0], y), (b[2], y))


def _wheels_axis(pen: Pen, b: Box) -> None:
    cx = _at(b, 0.5, 0)[0]
    pen_line(pen, (cx, b[1]), (cx, b[3]))


def _wings(pen: Pen, b: Box) -> None:
    """Airborne: two shallow arcs under the crossing."""
    w, h = _size(b)
    s = max(1, round(pen.stroke))
    cy = _at(b, 0, 0.86)[1]
    for fx in (0.38, 0.62):
        cx = _at(b, fx, 0)[0]
        pen.draw.arc((cx - 0.12 * w, cy - 0.12 * h, cx + 0.12 * w, cy + 0.2 * h), 200, 340, fill=pen.ink, width=s)


def _antitank(pen: Pen, b: Box) -> None:
    pen_line(pen, (b[0], b[3]), _at(b, 0.5, 0.0), (b[2], b[3]))


def _antiair(pen: Pen, b: Box) -> None:
    w, h = _size(b)
    s = max(1, round(pen.stroke))
    pen.draw.arc((b[0] + 0.1 * w, b[1] + 0.35 * h, b[2] - 0.1 * w, b[3] + 0.6 * h), 180, 360, fill=pen.ink, width=s)


def _question(pen: Pen, b: Box) -> None:
    h = _size(b)[1]
    cx, cy = _at(b, 0.5, 0.5)
    pen.draw.text((cx, cy), "?", fill=pen.ink, font=font(h * 0.85, bold=True), anchor="mm")


# --- painters: whole symbols ----------------------------------------------


def framed(*icons: Callable[[Pen, Box], None]) -> Painter:
    """A land-unit painter: the frame, then each icon inside it."""

    def paint(pen: Pen, box: Box) -> None:
        frame = _frame_box(_inset(box, pen.stroke / 2))
        inner = _frame(pen, frame)
        for icon in icons:
            icon(pen, inner)
        # Outline again on top so icon line ends tuck under the frame.
        pen.draw.rectangle(frame, outline=pen.ink, width=max(1, round(pen.stroke)))

    return paint


def paint_hq(pen: Pen, box: Box) -> None:
    """Headquarters: a frame on a staff dropping from its lower-left corner."""
    b = _inset(box, pen.stroke / 2)
    w, h = _size(b)
    frame = _frame_box((b[0], b[1], b[2], b[1] + 0.74 * h))
    frame = (b[0] + (w - (frame[2] - frame[0])) / 2, frame[1], b[0] + (w + (frame[2] - frame[0])) / 2, frame[3])
    inner = _frame(pen, frame)
    fx, fy = _at(inner, 0.5, 0.5)
    flag_h = 0.36 * _size(inner)[1]
    pen.draw.polygon(
        [(fx - flag_h, fy - flag_h), (fx + flag_h * 1.2, fy - flag_h * 0.3), (fx - flag_h, fy + flag_h * 0.4)],
        fill=pen.ink,
    )
    pen_line(pen, (fx - flag_h, fy - flag_h), (fx - flag_h, fy + flag_h))
    x = frame[0] + pen.stroke / 2
    pen_line(pen, (x, frame[3]), (x, b[3]))


def _plane(pen: Pen, box: Box, wing_sweep: float, span: float, engines: int) -> None:
    """A top-down aircraft silhouette fitted into a square centred in ``box``."""
    w, h = _size(box)
    side = min(w, h)
    x0, y0 = box[0] + (w - side) / 2, box[1] + (h - side) / 2

    def p(fx: float, fy: float) -> tuple[float, float]:
        return x0 + fx * side, y0 + fy * side

    body = 0.05 if engines else 0.04
    pen.draw.rounded_rectangle((*p(0.5 - body, 0.02), *p(0.5 + body, 0.96)), radius=body * side, fill=pen.ink)
    half = span / 2
    pen.draw.polygon(
        [
            p(0.5, 0.3),
            p(0.5 + half, 0.42 + wing_sweep),
            p(0.5 + half, 0.52 + wing_sweep),
            p(0.5, 0.5),
            p(0.5 - half, 0.52 + wing_sweep),
            p(0.5 - half, 0.42 + wing_sweep),
        ],
        fill=pen.ink,
    )
    pen.draw.polygon(
        [p(0.5, 0.76), p(0.68, 0.9), p(0.68, 0.95), p(0.5, 0.9), p(0.32, 0.95), p(0.32, 0.9)], fill=pen.ink
    )
    for i in range(engines):
        fx = 0.5 + (-1) ** i * (0.15 + 0.14 * (i // 2))
        pen.draw.rounded_rectangle((*p(fx - 0.035, 0.3), *p(fx + 0.035, 0.5)), radius=0.03 * side, fill=pen.ink)


def paint_fighter(pen: Pen, box: Box) -> None:
    _plane(pen, box, wing_sweep=0.14, span=0.78, engines=0)


def paint_bomber(pen: Pen, box: Box) -> None:
    _plane(pen, box, wing_sweep=0.02, span=0.98, engines=4)


def _anchor(pen: Pen, b: Box) -> None:
    """Naval: an anchor (shank, stock and flukes)."""
    w, h = _size(b)
    cx = _at(b, 0.5, 0)[0]
    top, bottom = _at(b, 0, 0.16)[1], _at(b, 0, 0.84)[1]
    pen_line(pen, (cx, top), (cx, bottom))
    pen_line(pen, (cx - 0.1 * w, _at(b, 0, 0.32)[1]), (cx + 0.1 * w, _at(b, 0, 0.32)[1]))
    s = max(1, round(pen.stroke))
    pen.draw.arc((cx - 0.2 * w, bottom - 0.5 * h, cx + 0.2 * w, bottom), 20, 160, fill=pen.ink, width=s)


def _propeller(pen: Pen, b: Box) -> None:
    """Air (APP-6 fixed wing): two lobes meeting at the centre."""
    w, h = _size(b)
    cx, cy = _at(b, 0.5, 0.5)
    s = max(1, round(pen.stroke))
    for sign in (-1, 1):
        x0 = cx if sign > 0 else cx - 0.3 * w
        pen.draw.ellipse((x0, cy - 0.17 * h, x0 + 0.3 * w, cy + 0.17 * h), outline=pen.ink, width=s)


def _rocket(pen: Pen, b: Box) -> None:
    """Rocket artillery: an upward arrowhead over a dot."""
    w, h = _size(b)
    cx = _at(b, 0.5, 0)[0]
    top = _at(b, 0, 0.1)[1]
    pen_line(pen, (cx - 0.14 * w, top + 0.3 * h), (cx, top), (cx + 0.14 * w, top + 0.3 * h))
    _dot(pen, (b[0], b[1] + 0.3 * h, b[2], b[3]))


def _lightning(pen: Pen, b: Box) -> None:
    """Signals: a zig-zag from the upper-left to the lower-right corner."""
    pen_line(pen, (b[0], b[1]), _at(b, 0.55, 0.6), _at(b, 0.45, 0.4), (b[2], b[3]))


def _red_cross(pen: Pen, b: Box) -> None:
    """Medical: an upright cross."""
    cx, cy = _at(b, 0.5, 0.5)
    w, h = _size(b)
    pen_line(pen, (cx, b[1] + 0.15 * h), (cx, b[3] - 0.15 * h))
    pen_line(pen, (cx - 0.22 * w, cy), (cx + 0.22 * w, cy))


def _mp(pen: Pen, b: Box) -> None:
    """Security / military police: the letters MP."""
    h = _size(b)[1]
    cx, cy = _at(b, 0.5, 0.5)
    pen.draw.text((cx, cy), "MP", fill=pen.ink, font=font(h * 0.6, bold=True), anchor="mm")


def _tracks(pen: Pen, b: Box) -> None:
    """Self-propelled: the armour oval along the bottom."""
    x0, y0 = _at(b, 0.2, 0.7)
    x1, y1 = _at(b, 0.8, 0.92)
    pen.draw.rounded_rectangle((x0, y0, x1, y1), radius=(y1 - y0) / 2, outline=pen.ink, width=max(1, round(pen.stroke)))


def _upper_dot(pen: Pen, b: Box) -> None:
    _dot(pen, (b[0], b[1], b[2], b[1] + 0.7 * _size(b)[1]))


def _rails(pen: Pen, b: Box) -> None:
    """Armoured train: a rail car on its wheels on a rail line (no armour oval: Typhoon 13.3.2 says it is
    not an armoured unit)."""
    w, h = _size(b)
    x0, y0 = _at(b, 0.22, 0.3)
    x1, y1 = _at(b, 0.78, 0.62)
    pen.draw.rectangle((x0, y0, x1, y1), outline=pen.ink, width=max(1, round(pen.stroke)))
    r = 0.09 * h
    for fx in (0.34, 0.66):
        cx, cy = _at(b, fx, 0.62)
        pen.draw.ellipse((cx - r, cy, cx + r, cy + 2 * r), fill=pen.ink)
    y = _at(b, 0, 0.62)[1] + 2 * r + pen.stroke / 2
    pen_line(pen, (b[0], y), (b[2], y))


def paint_arrow(pen: Pen, box: Box) -> None:
    """An arrow to the counter's top edge, unframed: the way a marker or unit is turned to point (a rail cut
    along its line, Typhoon 12.4.6)."""
    w, h = _size(box)
    cx = box[0] + w / 2
    head = min(0.45 * h, 0.6 * w)
    shaft = max(1.0, 0.12 * min(w, h * 1.2))
    pen.draw.polygon([(cx, box[1]), (cx - head * 0.55, box[1] + head), (cx + head * 0.55, box[1] + head)], fill=pen.ink)
    pen.draw.rectangle((cx - shaft / 2, box[1] + head - 1, cx + shaft / 2, box[3]), fill=pen.ink)


def paint_bridge(pen: Pen, box: Box) -> None:
    """A bridge unit: a span across an arrow to the counter's top edge, which is turned to the bridged hexside
    (Typhoon 13.2.1)."""
    paint_arrow(pen, box)
    w, h = _size(box)
    y_top, y_leg = box[1] + 0.62 * h, box[3]
    xl, xr = box[0] + 0.12 * w, box[2] - 0.12 * w
    pen_line(pen, (xl, y_leg), (xl, y_top), (xr, y_top), (xr, y_leg))


def paint_nothing(pen: Pen, box: Box) -> None:
    """Markers carry a label instead of a symbol."""


SYMBOLS: Mapping[str, Painter] = MappingProxyType(
    {
        "infantry": framed(_cross),
        "armor": framed(_oval),
        "mechanized": framed(_cross, _oval),
        "motorized": framed(_cross, _wheels_axis),
        "cavalry": framed(_slash),
        "recon": framed(_slash, _oval),
        "artillery": framed(_dot),
        "hq": paint_hq,
        "engineer": framed(_bridge),
        "mountain": framed(_cross, _mountain),
        "ski": framed(_cross, _ski),
        "shock": framed(_cross, _shock_arrow),
        "guards": framed(_cross, _guards_star),
        "airborne": framed(_cross, _wings),
        "antitank": framed(_antitank),
        "antiaircraft": framed(_antiair),
        "naval": framed(_anchor),
        "air": framed(_propeller),
        "rocket": framed(_rocket),
        "self-propelled-artillery": framed(_upper_dot, _tracks),
        "signal": framed(_lightning),
        "medical": framed(_red_cross),
        "security": framed(_mp),
        "armored-train": framed(_rails),
        "arrow": paint_arrow,
        "bridge": paint_bridge,
        "motorized-recon": framed(_slash, _wheels_axis),
        "fighter": paint_fighter,
        "bomber": paint_bomber,
        "supply": framed(_supply_bar),
        "marker": paint_nothing,
        "fallback": framed(_question),
    }
)
"""Symbol key -> painter (APP-6 land symbols as hex wargames use them). Unknown keys draw ``fallback``
(a frame with '?'). Army group and front are size marks (XXXXX, XXXXXX), not symbols."""

ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "armour": "armor",
        "tank": "armor",
        "anti-tank": "antitank",
        "anti-aircraft": "antiaircraft",
        "aa": "antiaircraft",
        "reconnaissance": "recon",
        "headquarters": "hq",
        "parachute": "airborne",
        "mech": "mechanized",
        "motorised": "motorized",
        "mechanised": "mechanized",
        "police": "security",
        "nkvd": "security",
        "armored-cavalry": "recon",
        "armored-recon": "recon",
        "anti-air": "antiaircraft",
        "flak": "antiaircraft",
    }
)
"""Other spellings a designer may write."""


def symbol_key(kind: str) -> str:
    """The painter key for ``kind`` (aliases resolved; unknown kinds stay as they are)."""
    return ALIASES.get(kind, kind)


# --- size marks that are signs, not letters ------------------------------------


def _group_bracket(pen: Pen, box: Box) -> None:
    """The group sign: a bracket over the frame, its ends turned down."""
    s = pen.stroke
    x0, y0, x1, y1 = box[0] + s, box[1] + s, box[2] - s, box[3] - s
    mid = (y0 + y1) / 2
    pen_line(pen, (x0, y1), (x0, mid - (y1 - y0) * 0.25), (x1, mid - (y1 - y0) * 0.25), (x1, y1))
    cx = (x0 + x1) / 2
    pen.draw.polygon(
        [
            (cx - (y1 - y0) * 0.35, mid + (y1 - y0) * 0.5),
            (cx, mid - (y1 - y0) * 0.05),
            (cx + (y1 - y0) * 0.35, mid + (y1 - y0) * 0.5),
        ],
        fill=pen.ink,
    )


SIZE_MARKS: Mapping[str, Painter] = MappingProxyType({"group": _group_bracket, "[ ]": _group_bracket})
"""Size marks drawn as signs rather than set as text (the others, II ... XXXXXX, are letters)."""


def size_mark_is_drawn(mark: str) -> bool:
    return mark in SIZE_MARKS


@lru_cache(maxsize=64)
def render_size_mark(mark: str, width_px: int, height_px: int, color: str) -> Image.Image:
    """The size mark `mark` in a `width_px` x `height_px` box. Process-wide, keyed by small values the drawing
    is a pure function of: treat the result as read-only."""
    big = (max(1, width_px) * SUPERSAMPLE, max(1, height_px) * SUPERSAMPLE)
    layer = Image.new("RGBA", big, (0, 0, 0, 0))
    stroke = max(1.0, 0.16 * height_px) * SUPERSAMPLE
    SIZE_MARKS[mark](Pen(ImageDraw.Draw(layer), to_rgba(color), None, stroke), (0.0, 0.0, float(big[0]), float(big[1])))
    return layer.resize((max(1, width_px), max(1, height_px)), Image.Resampling.LANCZOS)


def to_rgba(color: str | None) -> RGBA | None:
    if color is None:
        return None
    r, g, b = ImageColor.getrgb(color)[:3]
    return r, g, b, 255


@lru_cache(maxsize=512)
def render_symbol(kind: str, width_px: int, height_px: int, color: str, fill: str | None = None) -> Image.Image:
    """The symbol ``kind`` as an RGBA image of exactly ``width_px`` x ``height_px``, antialiased.

    Cached process-wide (a countersheet repeats a few symbols thousands of times), keyed by small values the
    drawing is a pure function of: treat the result as read-only."""
    painter = SYMBOLS.get(symbol_key(kind), SYMBOLS["fallback"])
    big = (max(1, width_px) * SUPERSAMPLE, max(1, height_px) * SUPERSAMPLE)
    layer = Image.new("RGBA", big, (0, 0, 0, 0))
    stroke = max(1.0, STROKE_RATIO * min(height_px, width_px / FRAME_RATIO)) * SUPERSAMPLE
    pen = Pen(ImageDraw.Draw(layer), to_rgba(color), to_rgba(fill), stroke)
    painter(pen, (0.0, 0.0, float(big[0]), float(big[1])))
    return layer.resize((max(1, width_px), max(1, height_px)), Image.Resampling.LANCZOS)


X_CELL, I_CELL, MARK_GAP = 0.64, 0.16, 0.2
"""A drawn X's width, an I's width and the gap between signs, as fractions of the mark's height."""


def letter_mark_width(mark: str, height: float) -> float:
    """Width of a size mark of X's or of I's drawn as signs `height` tall; 0 for any other mark."""
    if mark and set(mark) == {"X"}:
        return height * (len(mark) * X_CELL + (len(mark) - 1) * MARK_GAP)
    if mark and set(mark) == {"I"}:
        return height * (len(mark) * I_CELL + (len(mark) - 1) * MARK_GAP)
    return 0.0


@lru_cache(maxsize=64)
def render_letter_mark(mark: str, width_px: int, height_px: int, color: str) -> Image.Image:
    """A size mark of X's (crossed strokes) or I's (bars) drawn in a `width_px` x `height_px` box (cached as
    `render_size_mark`: read-only)."""
    big_w, big_h = max(1, width_px) * SUPERSAMPLE, max(1, height_px) * SUPERSAMPLE
    layer = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    ink = to_rgba(color)
    stroke = max(SUPERSAMPLE, round(0.18 * big_h))
    cell = X_CELL if mark[0] == "X" else I_CELL
    scale = big_w / max(1e-6, letter_mark_width(mark, big_h))  # the signs fill the box's width exactly
    x = 0.0
    for _ in mark:
        w = cell * big_h * scale
        if mark[0] == "X":
            inset = stroke / 2
            draw.line([(x + inset, inset), (x + w - inset, big_h - inset)], fill=ink, width=stroke)
            draw.line([(x + inset, big_h - inset), (x + w - inset, inset)], fill=ink, width=stroke)
        else:
            draw.rectangle((x, 0, x + w, big_h), fill=ink)
        x += w + MARK_GAP * big_h * scale
    return layer.resize((max(1, width_px), max(1, height_px)), Image.Resampling.LANCZOS)
