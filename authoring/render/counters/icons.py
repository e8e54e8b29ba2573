"""Marker icons: simple unframed signs a marker prints over its label (``icon:`` in the counters data).

Drawn with the unit symbols' machinery (a ``Pen`` in a box, supersampled by ``render_symbol``), so a
marker's icon is inked like a unit's symbol, in the face's text colour. Each painter keeps to the
square centred in its box.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from PIL import Image, ImageDraw

from authoring.render.counters.symbols import SUPERSAMPLE, Box, Painter, Pen, pen_line, to_rgba


def _square(box: Box) -> Box:
    w, h = box[2] - box[0], box[3] - box[1]
    s = min(w, h)
    x0, y0 = box[0] + (w - s) / 2, box[1] + (h - s) / 2
    return x0, y0, x0 + s, y0 + s


def _p(b: Box, fx: float, fy: float) -> tuple[float, float]:
    return b[0] + fx * (b[2] - b[0]), b[1] + fy * (b[3] - b[1])


def _star_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.42
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def icon_turn(pen: Pen, box: Box) -> None:
    """An hourglass (a turn or time marker)."""
    b = _square(box)
    pen_line(pen, _p(b, 0.2, 0.08), _p(b, 0.8, 0.08))
    pen_line(pen, _p(b, 0.2, 0.92), _p(b, 0.8, 0.92))
    pen.draw.polygon(
        [_p(b, 0.27, 0.1), _p(b, 0.73, 0.1), _p(b, 0.5, 0.5)], outline=pen.ink, width=max(1, round(pen.stroke))
    )
    pen.draw.polygon([_p(b, 0.5, 0.5), _p(b, 0.27, 0.9), _p(b, 0.73, 0.9)], fill=pen.ink)


def icon_weather(pen: Pen, box: Box) -> None:
    """A snowflake: three crossing strokes with a chevron near each end."""
    b = _square(box)
    cx, cy = _p(b, 0.5, 0.5)
    r = 0.46 * (b[2] - b[0])
    width = max(1, round(pen.stroke * 0.7))
    for k in range(6):
        a = -math.pi / 2 + k * math.pi / 3
        ux, uy = math.cos(a), math.sin(a)
        pen.draw.line([(cx, cy), (cx + r * ux, cy + r * uy)], fill=pen.ink, width=width)
        tx, ty = cx + 0.5 * r * ux, cy + 0.5 * r * uy
        for turn in (0.8, -0.8):
            pen.draw.line(
                [(tx, ty), (tx + 0.32 * r * math.cos(a + turn), ty + 0.32 * r * math.sin(a + turn))],
                fill=pen.ink,
                width=width,
            )


def icon_supply(pen: Pen, box: Box) -> None:
    """A supply crate: a box with a band and a lid."""
    b = _square(box)
    s = max(1, round(pen.stroke))
    pen.draw.rectangle((*_p(b, 0.12, 0.3), *_p(b, 0.88, 0.88)), outline=pen.ink, width=s)
    pen.draw.rectangle((*_p(b, 0.06, 0.14), *_p(b, 0.94, 0.3)), fill=pen.ink)
    pen_line(pen, _p(b, 0.5, 0.3), _p(b, 0.5, 0.88))


def icon_out_of_supply(pen: Pen, box: Box) -> None:
    """The supply crate struck through."""
    icon_supply(pen, box)
    b = _square(box)
    pen.draw.line([_p(b, 0.0, 1.0), _p(b, 1.0, 0.0)], fill=pen.ink, width=max(1, round(pen.stroke * 1.8)))


def icon_disrupted(pen: Pen, box: Box) -> None:
    """A jagged zigzag (disorganised, disrupted)."""
    b = _square(box)
    pen_line(
        pen,
        _p(b, 0.05, 0.55),
        _p(b, 0.25, 0.2),
        _p(b, 0.42, 0.8),
        _p(b, 0.58, 0.2),
        _p(b, 0.75, 0.8),
        _p(b, 0.95, 0.45),
    )


def icon_fortification(pen: Pen, box: Box) -> None:
    """A crenellated wall."""
    b = _square(box)
    pts = [_p(b, 0.08, 0.9), _p(b, 0.08, 0.25)]
    for i in range(5):
        x0, x1 = 0.08 + i * 0.168, 0.08 + (i + 1) * 0.168
        y = 0.25 if i % 2 == 0 else 0.45
        pts += [_p(b, x0, y), _p(b, x1, y)]
    pts += [_p(b, 0.92, 0.25), _p(b, 0.92, 0.9)]
    pen.draw.polygon(pts, fill=pen.ink)


def icon_control(pen: Pen, box: Box) -> None:
    """A flag on a staff."""
    b = _square(box)
    pen_line(pen, _p(b, 0.25, 0.05), _p(b, 0.25, 0.95))
    pen.draw.polygon([_p(b, 0.25, 0.08), _p(b, 0.85, 0.22), _p(b, 0.25, 0.5)], fill=pen.ink)


def icon_victory(pen: Pen, box: Box) -> None:
    """A five-pointed star."""
    b = _square(box)
    cx, cy = _p(b, 0.5, 0.53)
    pen.draw.polygon(_star_points(cx, cy, 0.48 * (b[2] - b[0])), fill=pen.ink)


def icon_attack(pen: Pen, box: Box) -> None:
    """Two crossed arrows."""
    b = _square(box)
    for x0, y0, x1, y1 in ((0.1, 0.9, 0.85, 0.15), (0.9, 0.9, 0.15, 0.15)):
        pen_line(pen, _p(b, x0, y0), _p(b, x1, y1))
        dx, dy = (x1 - x0), (y1 - y0)
        n = math.hypot(dx, dy)
        ux, uy = dx / n, dy / n
        tip = _p(b, x1 + 0.06 * ux, y1 + 0.06 * uy)
        left = _p(b, x1 - 0.2 * ux - 0.12 * uy, y1 - 0.2 * uy + 0.12 * ux)
        right = _p(b, x1 - 0.2 * ux + 0.12 * uy, y1 - 0.2 * uy - 0.12 * ux)
        pen.draw.polygon([tip, left, right], fill=pen.ink)


def icon_step_loss(pen: Pen, box: Box) -> None:
    """A minus sign in a ring."""
    b = _square(box)
    s = max(1, round(pen.stroke))
    pen.draw.ellipse((*_p(b, 0.08, 0.08), *_p(b, 0.92, 0.92)), outline=pen.ink, width=s)
    pen.draw.rectangle((*_p(b, 0.25, 0.43), *_p(b, 0.75, 0.57)), fill=pen.ink)


def icon_rail(pen: Pen, box: Box) -> None:
    """A length of track: two rails and sleepers."""
    b = _square(box)
    pen_line(pen, _p(b, 0.3, 0.05), _p(b, 0.3, 0.95))
    pen_line(pen, _p(b, 0.7, 0.05), _p(b, 0.7, 0.95))
    for y in (0.15, 0.38, 0.62, 0.85):
        pen_line(pen, _p(b, 0.15, y), _p(b, 0.85, y))


def icon_no_retreat(pen: Pen, box: Box) -> None:
    """A bar a backward arrow stops at."""
    b = _square(box)
    pen_line(pen, _p(b, 0.8, 0.5), _p(b, 0.35, 0.5))
    pen.draw.polygon([_p(b, 0.2, 0.5), _p(b, 0.4, 0.32), _p(b, 0.4, 0.68)], fill=pen.ink)
    pen.draw.rectangle((*_p(b, 0.06, 0.15), *_p(b, 0.14, 0.85)), fill=pen.ink)


def icon_retreat(pen: Pen, box: Box) -> None:
    """A bold arrow pointing back."""
    b = _square(box)
    pen.draw.polygon(
        [
            _p(b, 0.05, 0.5),
            _p(b, 0.45, 0.12),
            _p(b, 0.45, 0.35),
            _p(b, 0.95, 0.35),
            _p(b, 0.95, 0.65),
            _p(b, 0.45, 0.65),
            _p(b, 0.45, 0.88),
        ],
        fill=pen.ink,
    )


def icon_replacement(pen: Pen, box: Box) -> None:
    """A plus sign in a ring."""
    b = _square(box)
    icon_step_loss(pen, box)
    pen.draw.rectangle((*_p(b, 0.43, 0.25), *_p(b, 0.57, 0.75)), fill=pen.ink)


def icon_activation(pen: Pen, box: Box) -> None:
    """A lightning bolt."""
    b = _square(box)
    pen.draw.polygon(
        [
            _p(b, 0.6, 0.02),
            _p(b, 0.2, 0.55),
            _p(b, 0.47, 0.55),
            _p(b, 0.35, 0.98),
            _p(b, 0.8, 0.42),
            _p(b, 0.53, 0.42),
            _p(b, 0.7, 0.02),
        ],
        fill=pen.ink,
    )


ICONS: Mapping[str, Painter] = MappingProxyType(
    {
        "turn": icon_turn,
        "weather": icon_weather,
        "supply-crate": icon_supply,
        "out-of-supply": icon_out_of_supply,
        "disrupted": icon_disrupted,
        "fortification": icon_fortification,
        "control": icon_control,
        "victory": icon_victory,
        "attack": icon_attack,
        "step-loss": icon_step_loss,
        "rail": icon_rail,
        "no-retreat": icon_no_retreat,
        "retreat": icon_retreat,
        "replacement": icon_replacement,
        "activation": icon_activation,
    }
)
"""Icon name -> painter: the names a marker's ``icon:`` may give (also valid as a ``symbol:``)."""


def is_icon(kind: str) -> bool:
    return kind in ICONS


@lru_cache(maxsize=64)
def render_icon(kind: str, width_px: int, height_px: int, color: str) -> Image.Image:
    """The icon ``kind`` as an RGBA image of ``width_px`` x ``height_px``, antialiased like a unit symbol.
    Process-wide, keyed by small values the drawing is a pure function of: treat the result as read-only."""
    big = (max(1, width_px) * SUPERSAMPLE, max(1, height_px) * SUPERSAMPLE)
    layer = Image.new("RGBA", big, (0, 0, 0, 0))
    stroke = max(1.0, 0.09 * min(height_px, width_px)) * SUPERSAMPLE
    ICONS[kind](Pen(ImageDraw.Draw(layer), to_rgba(color), None, stroke), (0.0, 0.0, float(big[0]), float(big[1])))
    return layer.resize((max(1, width_px), max(1, height_px)), Image.Resampling.LANCZOS)
