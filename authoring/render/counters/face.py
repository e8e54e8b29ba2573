"""Counter faces: a layout engine that fits every text in its slot or says why, and its painter.

One routine serves 300 dpi print and 75 px VASSAL pieces. A face is laid out by a
``CounterLayout`` (``counter_layout.py``): slots with boxes in fractions of the safe area (1.2 mm
inside the cut) and font ranges in points at print scale. Each text is measured and placed in its
slot: it shrinks within the slot's range, then takes its declared short form (``short:`` in the
data), then a known abbreviation, and only then is cut and reported as a ``RenderIssue`` naming the
face, the slot and the text. Nothing is printed below 6 pt (``min_text_px``).

``layout_face`` decides where everything goes (pure; the tests and the overlap checker read it
through ``element_boxes``); ``draw_face`` paints that layout.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from PIL import Image, ImageColor, ImageDraw

from authoring.render.counters.fit import (
    Fitted,
    Placed,
    RenderIssue,
    align_left,
    fit_slot,
    place_one,
)
from authoring.render.counters.icons import is_icon, render_icon
from authoring.render.counters.layout import DEFAULTS, UNIT, CounterLayout, Facts, Slot, choose
from authoring.render.counters.symbols import (
    FRAME_RATIO,
    letter_mark_width,
    render_letter_mark,
    render_size_mark,
    render_symbol,
    size_mark_is_drawn,
)
from authoring.render.shared.fonts import SIZE_STEP, font, snap_size

SAFE_MM = 1.2
"""Text and art stay this far inside the cut line."""

MIN_TEXT_PT = 6.0
"""Nothing printed smaller than this."""

MIN_SCREEN_TEXT_PX = 7.0
"""Floor for on-screen pieces, where points mean nothing."""

DEFAULT_COUNTER_MM = 15.875
"""5/8", assumed when the caller gives no physical size."""

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class FaceArt:
    """Everything printed on one side of a counter, independent of the data model."""

    background: str
    foreground: str
    symbol: str
    size_mark: str = ""
    designation: str = ""
    values: tuple[str, ...] = ()
    boxed_value: int | None = None
    filled_value: int | None = None
    setup_code: str = ""
    band: str = ""
    band_color: str = "#ffffff"
    reduced: bool = False
    label: str = ""
    symbol_fill: str | None = None
    value_ids: tuple[str, ...] = ()
    """Ids of ``values``, in the same order (for layouts that pick values or print templates)."""
    designation_short: str = ""
    """The data's short form of the designation, used before it is reported."""
    label_short: str = ""
    symbol_color: str | None = None
    """Ink of the unit symbol when a rule colours it (Typhoon 2.4: Guards red, NKVD green)."""
    fill_color: str | None = None
    """Colour of a filled value (Typhoon 2.4: a yellow-filled movement allowance); default the text colour."""
    state_mark: str = ""
    """The strength state's printed mark (a step marker, e.g. a dot on a reduced face)."""
    badge: str = ""
    """Badges of the counter's flags (a flag's ``badge:`` text), in a ``badge`` slot."""
    fields: tuple[tuple[str, str], ...] = ()
    """Counter fields a ``text`` template may print beside the values (``{stacking}``: stacking points)."""
    halo: str | None = None
    """A thin outline of this colour around every text (text over a designer's painted face stays legible
    on any art: a black designation over a black tank)."""
    abbreviations: tuple[tuple[str, str], ...] = ()
    """The game's own (phrase, short form) pairs, tried after the short form."""
    layout: CounterLayout | None = None
    """The layout to use; None chooses among the defaults."""
    picture: Any = field(default=None, compare=False)
    """A PIL image drawn, scaled to fit, in the layout's ``picture`` slot (supplied by the caller)."""


@dataclass(frozen=True)
class TextBox:
    """Where a piece of text was put: ink bounds in image pixels (bleed included), and its slot."""

    role: str
    text: str
    box: Box
    size_px: float
    slot: Box = (0, 0, 0, 0)


@dataclass(frozen=True)
class ValuesLine:
    """The factor line: one run per value and dash, decorations, and its ink box."""

    segments: tuple[tuple[str, int, str], ...]  # text, pen x, decoration ("", "box", "fill")
    baseline: int
    size_px: float
    condensed: bool
    pad: int
    box: Box


@dataclass(frozen=True)
class FaceLayout:
    """The decisions for one face, in face pixels (origin at the cut corner)."""

    size_px: int
    inset: int
    min_text_px: float
    layout_id: str
    texts: tuple[Placed, ...]
    symbol_box: Box | None
    picture_box: Box | None
    band: Box | None
    values: ValuesLine | None
    values_slot: Box | None
    issues: tuple[RenderIssue, ...]


def safe_inset_px(size_px: int, counter_mm: float) -> int:
    """Pixels equal to 1.2 mm on a counter ``counter_mm`` wide drawn ``size_px`` wide."""
    return round(size_px * SAFE_MM / counter_mm)


_default_inset = safe_inset_px  # layout_face's parameter of the same name shadows it


def min_text_px(size_px: int, counter_mm: float, floor_px: float = MIN_SCREEN_TEXT_PX) -> float:
    """Em size in px of 6 pt text at the scale implied by ``size_px`` per ``counter_mm``."""
    return max(floor_px, MIN_TEXT_PT * px_per_pt(size_px, counter_mm))


def px_per_pt(size_px: int, counter_mm: float) -> float:
    return size_px / counter_mm * 25.4 / 72


# --- layout -------------------------------------------------------------------


@dataclass(frozen=True)
class _Scale:
    """Turns a slot's fractions and points into face pixels."""

    size: int
    inset: int
    per_pt: float
    floor: float

    def box(self, slot: Slot) -> Box:
        span = self.size - 2 * self.inset
        x0, y0, x1, y1 = slot.box
        return (
            self.inset + round(x0 * span),
            self.inset + round(y0 * span),
            self.inset + round(x1 * span),
            self.inset + round(y1 * span),
        )

    def fonts(self, slot: Slot) -> tuple[float, float]:
        """(largest, smallest) em in px: the slot's range, never below the legibility floor."""
        lo = max(self.floor, slot.font[0] * self.per_pt)
        lo = math.ceil(lo / SIZE_STEP - 1e-9) * SIZE_STEP
        return max(lo, slot.font[1] * self.per_pt), lo


def default_layout(face: FaceArt, counter_mm: float = DEFAULT_COUNTER_MM) -> CounterLayout:
    marker = face.symbol == "marker" and not face.setup_code and not face.designation
    facts = Facts(
        None, None, frozenset(), marker, bool(face.label), "", bool(face.band), counter_mm / 25.4, bool(face.setup_code)
    )
    return choose(DEFAULTS, facts)


def _value_styles(face: FaceArt) -> dict[int, str]:
    styles = {}
    if face.boxed_value is not None:
        styles[face.boxed_value] = "box"
    if face.filled_value is not None:
        styles[face.filled_value] = "fill"
    return styles


def _picked_values(face: FaceArt, slot: Slot) -> tuple[tuple[str, str], ...]:
    """(text, decoration) of the values the slot prints, in its order."""
    styles = _value_styles(face)
    if not slot.values:
        return tuple((v, styles.get(i, "")) for i, v in enumerate(face.values))
    index = {vid: i for i, vid in enumerate(face.value_ids)}
    return tuple((face.values[index[v]], styles.get(index[v], "")) for v in slot.values if v in index)


def template_text(face: FaceArt, template: str) -> str:
    """A ``text`` slot's template filled from the face's values and counter fields; blank when any is missing."""
    known = dict(face.fields) | dict(zip(face.value_ids, face.values))
    names = re.findall(r"{([^{}]+)}", template)
    if not names or any(n not in known for n in names):
        return ""
    return re.sub(r"{([^{}]+)}", lambda m: str(known[m.group(1)]), template)


def _symbol_box(box: Box) -> Box | None:
    x0, y0, x1, y1 = box
    if y1 - y0 < 4 or x1 - x0 < 6:
        return None
    height = min(y1 - y0, round((x1 - x0) / FRAME_RATIO))
    width = round(height * FRAME_RATIO)
    left, top = x0 + (x1 - x0 - width) // 2, y0 + (y1 - y0 - height) // 2
    return left, top, left + width, top + height


def _picture_box(box: Box, picture) -> Box | None:
    if picture is None:
        return None
    w, h = picture.size
    x0, y0, x1, y1 = box
    scale = min((x1 - x0) / max(1, w), (y1 - y0) / max(1, h))
    pw, ph = max(1, int(w * scale)), max(1, int(h * scale))
    left, top = x0 + (x1 - x0 - pw) // 2, y0 + (y1 - y0 - ph) // 2
    return left, top, left + pw, top + ph


_TEXT_CONTENT = MappingProxyType(
    {
        "setup_code": lambda f: (f.setup_code, ""),
        "designation": lambda f: (f.designation, f.designation_short),
        "label": lambda f: (f.label, f.label_short),
        "band": lambda f: (f.band, ""),
        "state_mark": lambda f: (f.state_mark, ""),
        "badge": lambda f: (f.badge, ""),
    }
)


def layout_face(
    face: FaceArt,
    size_px: int,
    safe_inset_px: int | None = None,
    min_text_px: float | None = None,
    name: str = "",
    counter_mm: float | None = None,
) -> FaceLayout:
    """Decide every position on a face; pure and deterministic."""
    mm = counter_mm or DEFAULT_COUNTER_MM
    inset = safe_inset_px if safe_inset_px is not None else _default_inset(size_px, mm)
    floor = min_text_px if min_text_px is not None else MIN_SCREEN_TEXT_PX
    floor = math.ceil(floor / SIZE_STEP - 1e-9) * SIZE_STEP  # on the font-size grid, never below
    scale = _Scale(size_px, inset, px_per_pt(size_px, mm), floor)
    layout = face.layout or default_layout(face, mm)
    name = name or face.designation or face.label or face.symbol
    issues: list[RenderIssue] = []
    texts: list[Placed] = []
    symbol_box = picture_box = band = values = values_slot = None
    for slot in layout.slots:
        box = scale.box(slot)
        hi, lo = scale.fonts(slot)
        if slot.content == "symbol":
            if face.symbol not in ("marker", "") and face.picture is None:
                symbol_box = _symbol_box(box)
        elif slot.content == "picture":
            picture_box = _picture_box(box, face.picture)
        elif slot.content == "values":
            picked = _picked_values(face, slot)
            if picked:
                values, values_slot = _values(picked, box, hi, lo, issues, name), box
        elif slot.content == "size_mark":
            if face.size_mark:
                texts.extend(_size_mark(face.size_mark, box, slot, hi, lo, issues, name))
        else:
            text, short = (
                (template_text(face, slot.text), "") if slot.content == "text" else _TEXT_CONTENT[slot.content](face)
            )
            if text:
                texts.extend(fit_slot(slot.content, text, short, box, slot, hi, lo, issues, name, face.abbreviations))
                if slot.content == "band":
                    band = box
    return FaceLayout(
        size_px,
        inset,
        floor,
        layout.id,
        tuple(texts),
        symbol_box,
        picture_box,
        band,
        values,
        values_slot,
        tuple(issues),
    )


def _size_mark(
    mark: str, box: Box, slot: Slot, hi: float, lo: float, issues: list[RenderIssue], name: str
) -> list[Placed]:
    """A size mark is text (II, XXX) or a drawn sign (the group bracket): a drawn one is a fixed-size run."""
    if size_mark_is_drawn(mark):
        height = min(box[3] - box[1], round(hi * 0.73))
        width = min(box[2] - box[0], round(height * 2.4))
        run = Fitted(mark, hi, True, False, width, height)
        return [place_one("size_mark", run, box, slot.align, box)]
    if slot.drawn and letter_mark_width(mark, 1.0):
        height = min(box[3] - box[1], round(hi * 0.58))
        width = round(letter_mark_width(mark, height))
        if width <= box[2] - box[0]:
            run = Fitted(mark, lo, True, False, width, height, drawn=True)
            return [place_one("size_mark", run, box, slot.align, box)]
    return fit_slot("size_mark", mark, "", box, slot, hi, lo, issues, name)


def _values_at(picked, size: float, condensed: bool, row: Box, align: str = "centre") -> ValuesLine:
    """The factor line set at ``size``, in ``row`` with its ink on the row's bottom."""
    f = font(size, True, condensed)
    pad = max(1, round(0.12 * size))
    segments, x = [], 0
    left = top = 10**6
    right = bottom = -(10**6)
    sep = "/" if any(str(v).startswith(("-", "+")) for v, _ in picked) else "-"  # -2/-2, never -2--2
    for i, (value, deco) in enumerate(picked):
        parts = [(sep, "")] if i else []
        for text, d in parts + [(value, deco)]:
            x += pad if d else 0
            l, t, r, b = f.getbbox(text, anchor="ls")
            p = pad if d else 0
            left, right = min(left, x + l - p), max(right, x + r + p)
            top, bottom = min(top, t - p), max(bottom, b + p)
            segments.append((text, x, d))
            x += round(f.getlength(text)) + (pad if d else 0)
    shift_x = align_left(row, right - left, align) - left
    baseline = row[3] - bottom
    box = (left + shift_x, top + baseline, right + shift_x, bottom + baseline)
    segments = tuple((text, sx + shift_x, d) for text, sx, d in segments)
    return ValuesLine(segments, baseline, snap_size(size), condensed, pad, box)


def _values(picked, row: Box, hi: float, lo: float, issues: list[RenderIssue], name: str) -> ValuesLine | None:
    """The largest factor line that fits the row: wide bold first, condensed if that is bigger."""
    width, height = row[2] - row[0], row[3] - row[1]
    best = []
    for condensed in (False, True):
        trial = _values_at(picked, hi, condensed, row)
        w, h = trial.box[2] - trial.box[0], trial.box[3] - trial.box[1]
        size = max(lo, snap_size(hi * min(1.0, width / max(1, w), height / max(1, h))))
        while size >= lo:
            line = _values_at(picked, size, condensed, row)
            if line.box[2] - line.box[0] <= width and line.box[3] - line.box[1] <= height:
                best.append(line)
                break
            size -= SIZE_STEP
    if not best:
        text = "-".join(v for v, _ in picked)
        issues.append(
            RenderIssue(
                name,
                f"slot 'values': {text!r} does not fit in {width}x{height} px at the "
                f"{lo:g} px minimum text size; left out",
            )
        )
        return None
    if len(best) == 2 and best[0].condensed is False and best[0].size_px < 0.9 * best[1].size_px:
        return best[1]
    return best[0]


# --- painting -----------------------------------------------------------------


def _rgb(color: str) -> tuple[int, int, int]:
    return ImageColor.getrgb(color)[:3]


def _luminance(rgb: tuple[int, int, int]) -> float:
    return (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255


def contrast_ink(color: str) -> tuple[int, int, int]:
    """Black or white, whichever reads on ``color``."""
    return (0, 0, 0) if _luminance(_rgb(color)) > 0.55 else (255, 255, 255)


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def reduced_tint(face: FaceArt) -> tuple[int, int, int]:
    """The reduced-side stripe: the background pushed away from the text colour."""
    bg, fg = _rgb(face.background), _rgb(face.foreground)
    toward = (255, 255, 255) if _luminance(fg) < 0.5 else (0, 0, 0)
    return _mix(bg, toward, 0.5)


def _paint_values(draw: ImageDraw.ImageDraw, face: FaceArt, line: ValuesLine, offset: int) -> None:
    f = font(line.size_px, True, line.condensed)
    fg = _rgb(face.foreground)
    fill = _rgb(face.fill_color) if face.fill_color else fg
    fill_ink = contrast_ink(face.fill_color) if face.fill_color else _rgb(face.background)
    stroke = max(1, round(line.size_px * 0.06))
    for text, x, deco in line.segments:
        l, t, r, b = f.getbbox(text, anchor="ls")
        box = (
            x + l - line.pad + offset,
            line.baseline + t - line.pad + offset,
            x + r + line.pad + offset - 1,
            line.baseline + b + line.pad + offset - 1,
        )
        if deco == "fill":
            side = max(box[2] - box[0], box[3] - box[1])
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            if box[2] - box[0] <= box[3] - box[1]:  # one digit: a disc
                draw.ellipse(
                    (cx - side / 2, box[1], cx + side / 2, box[3]), fill=fill, outline=fg, width=max(1, stroke // 2)
                )
            else:
                draw.rounded_rectangle(
                    box, radius=(box[3] - box[1]) // 2, fill=fill, outline=fg, width=max(1, stroke // 2)
                )
            _ = cy
        elif deco == "box":
            draw.rectangle(box, outline=fg, width=stroke)
        halo = _halo(face, line.size_px) if deco != "fill" else {}
        draw.text(
            (x + offset, line.baseline + offset),
            text,
            font=f,
            anchor="ls",
            fill=fill_ink if deco == "fill" else fg,
            **halo,
        )


def _halo(face: FaceArt, size_px: float) -> dict:
    """Pillow's stroke arguments for a face's text halo (none without one)."""
    if face.halo is None:
        return {}
    return {"stroke_width": max(1, round(size_px * HALO_RATIO)), "stroke_fill": _rgb(face.halo)}


HALO_RATIO = 0.06
"""Halo width as a fraction of the text's size."""


def _text_color(face: FaceArt, role: str) -> tuple[int, int, int]:
    if role == "band":
        return contrast_ink(face.band_color)
    return _rgb(face.foreground)


def _paint_band(draw: ImageDraw.ImageDraw, face: FaceArt, layout: FaceLayout, full: int, o: int) -> None:
    """A stripe across the whole face at the band slot's height; at the top or bottom it runs into the bleed."""
    _, y0, _, y1 = layout.band
    top = 0 if y0 <= layout.inset else y0 + o
    bottom = full if y1 >= layout.size_px - layout.inset else y1 + o
    draw.rectangle((0, top, full, bottom), fill=_rgb(face.band_color))


def draw_face(
    face: FaceArt,
    size_px: int,
    bleed_px: int = 0,
    safe_inset_px: int | None = None,
    min_text_px: float | None = None,
    name: str = "",
    counter_mm: float | None = None,
) -> tuple[Image.Image, list[RenderIssue]]:
    """Paint a face: a (size_px + 2*bleed_px) square RGB image and what did not fit.

    The bleed is art extended past the cut (background, band, stripe);
    text and symbol stay inside the safe inset.
    """
    layout = layout_face(face, size_px, safe_inset_px, min_text_px, name, counter_mm)
    full = size_px + 2 * bleed_px
    image = Image.new("RGB", (full, full), _rgb(face.background))
    draw = ImageDraw.Draw(image)
    o = bleed_px
    if face.reduced and layout.values_slot:
        draw.rectangle((0, layout.values_slot[1] + o - max(1, size_px // 80), full, full), fill=reduced_tint(face))
    if layout.band is not None:
        _paint_band(draw, face, layout, full, o)
    if layout.symbol_box:
        x0, y0, x1, y1 = layout.symbol_box
        ink = face.symbol_color or face.foreground
        symbol = (
            render_icon(face.symbol, x1 - x0, y1 - y0, ink)
            if is_icon(face.symbol)
            else render_symbol(face.symbol, x1 - x0, y1 - y0, ink, face.symbol_fill)
        )
        image.paste(symbol, (x0 + o, y0 + o), symbol)
    if layout.picture_box and face.picture is not None:
        x0, y0, x1, y1 = layout.picture_box
        pic = face.picture.convert("RGBA").resize((x1 - x0, y1 - y0), Image.Resampling.LANCZOS)
        image.paste(pic, (x0 + o, y0 + o), pic)
    for p in layout.texts:
        if p.role == "size_mark" and (p.run.drawn or size_mark_is_drawn(p.run.text)):
            paint = render_letter_mark if p.run.drawn else render_size_mark
            mark = paint(p.run.text, p.run.width, p.run.height, face.foreground)
            image.paste(mark, (p.left + o, p.top + o), mark)
            continue
        f = font(p.run.size_px, p.run.bold, p.run.condensed)
        l, t, _, _ = f.getbbox(p.run.text)
        draw.text(
            (p.left - l + o, p.top - t + o),
            p.run.text,
            font=f,
            fill=_text_color(face, p.role),
            **(_halo(face, p.run.size_px) if p.role != "band" else {}),
        )
    if layout.values:
        _paint_values(draw, face, layout.values, o)
    return image, list(layout.issues)


def _shift(box: Box, d: int) -> Box:
    return box[0] + d, box[1] + d, box[2] + d, box[3] + d


def element_boxes(layout: FaceLayout, bleed_px: int = 0) -> list[TextBox]:
    """Every printed element (texts, values, symbol, picture) with its slot, in image pixels."""
    out = [
        TextBox(
            p.role,
            p.run.text,
            _shift((p.left, p.top, p.left + p.run.width, p.top + p.run.height), bleed_px),
            p.run.size_px,
            _shift(p.slot, bleed_px),
        )
        for p in layout.texts
    ]
    if layout.values:
        v = layout.values
        out.append(
            TextBox(
                "values",
                "".join(seg[0] for seg in v.segments),
                _shift(v.box, bleed_px),
                v.size_px,
                _shift(layout.values_slot, bleed_px),
            )
        )
    for role, box in (("symbol", layout.symbol_box), ("picture", layout.picture_box)):
        if box:
            out.append(TextBox(role, "", _shift(box, bleed_px), 0.0, _shift(box, bleed_px)))
    return out


def text_boxes(
    face: FaceArt,
    size_px: int,
    bleed_px: int = 0,
    safe_inset_px: int | None = None,
    min_text_px: float | None = None,
    counter_mm: float | None = None,
) -> list[TextBox]:
    """Ink bounds of every text run ``draw_face`` prints, in image pixels."""
    layout = layout_face(face, size_px, safe_inset_px, min_text_px, counter_mm=counter_mm)
    return [tb for tb in element_boxes(layout, bleed_px) if tb.role not in ("symbol", "picture")]


__all__ = (
    "FaceArt",
    "RenderIssue",
    "TextBox",
    "FaceLayout",
    "draw_face",
    "layout_face",
    "text_boxes",
    "element_boxes",
    "safe_inset_px",
    "min_text_px",
    "contrast_ink",
    "reduced_tint",
    "UNIT",
)
