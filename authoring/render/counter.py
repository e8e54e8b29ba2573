"""Counter faces: one drawing routine for 300 dpi print and 75 px VASSAL pieces.

Everything is laid out in fractions of the counter edge, so a face scales
with ``size_px``. Two physical limits do not scale and are passed in by the
caller who knows the dpi: the safe inset (1.2 mm inside the cut) and the
smallest legible text (about 6 pt in print, ~7 px on screen). Text that cannot
fit at that size is abbreviated, then truncated, and reported as a
``RenderIssue`` rather than drawn illegibly or outside the safe area.

``layout_face`` decides where everything goes (a pure function, used by the
tests through ``text_boxes``); ``draw_face`` paints that layout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageColor, ImageDraw

from authoring.render.fonts import SIZE_STEP, font, snap_size
from authoring.render.symbols import FRAME_RATIO, render_symbol

SAFE_MM = 1.2
"""Text and art stay this far inside the cut line."""

MIN_TEXT_PT = 6.0
"""Nothing printed smaller than this."""

MIN_SCREEN_TEXT_PX = 7.0
"""Floor for on-screen pieces, where points mean nothing."""

DEFAULT_COUNTER_MM = 15.875
"""5/8", assumed when the caller gives no physical size."""

# Row heights as fractions of the counter edge.
TOP_ROW = 0.12
SIZE_ROW = 0.09
DESIGNATION_ROW = 0.12
VALUES_ROW = 0.25
GAP = 0.015
SYMBOL_MAX_WIDTH = 0.7
"""Widest symbol, as a fraction of the safe width."""

CODE_SHARES = (0.35, 0.5, 0.65)
"""Widths of the top row a set-up code may take, tried in order."""

TEXT_INK = 0.95
"""Ink height per em of a line with brackets or a slash: the least a small-text band must offer."""

DIGIT_HEIGHT = 0.73
"""Cap/digit height of DejaVu Sans per em, to turn a row height into a font size."""

ABBREVIATIONS: dict[str, str] = {
    "Airborne": "Abn", "Armored": "Arm", "Armoured": "Arm", "Army": "A", "Artillery": "Art",
    "Battalion": "Bn", "Brigade": "Bde", "Cavalry": "Cav", "Corps": "C", "Division": "Div",
    "Grenadier": "Gren", "Guards": "Gds", "Infantry": "Inf", "Mechanized": "Mech", "Motorized": "Mot",
    "Mountain": "Mtn", "Panzer": "Pz", "Regiment": "Rgt", "Reserve": "Res", "Rifle": "Rfl",
    "Shock": "Sh", "Tank": "Tk", "Emergency": "Emerg", "Supply": "Sup", "Reinforcement": "Reinf",
    "Withdrawal": "Wdr", "Replacement": "Repl", "Control": "Ctrl",
}
"""Word -> short form tried before a designation is shrunk below legibility."""

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


@dataclass(frozen=True)
class RenderIssue:
    """Text that could not be printed legibly in its space."""

    face: str
    message: str


@dataclass(frozen=True)
class TextBox:
    """Where a piece of text was put: ink bounds in image pixels (bleed included)."""

    role: str
    text: str
    box: Box
    size_px: float


@dataclass(frozen=True)
class Fitted:
    """A text run that fits: what to print, in which font, and its ink size."""

    text: str
    size_px: float
    bold: bool
    condensed: bool
    width: int
    height: int


@dataclass(frozen=True)
class ValuesLine:
    """The factor line: one run per value and dash, decorations, and its ink box."""

    segments: tuple[tuple[str, int, str], ...]   # text, pen x, decoration ("", "box", "fill")
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
    texts: tuple[tuple[str, Fitted, int, int], ...]   # role, run, ink left, ink top
    symbol_box: Box | None
    band_bottom: int | None
    values: ValuesLine | None
    issues: tuple[RenderIssue, ...]


def safe_inset_px(size_px: int, counter_mm: float) -> int:
    """Pixels equal to 1.2 mm on a counter ``counter_mm`` wide drawn ``size_px`` wide."""
    return round(size_px * SAFE_MM / counter_mm)


_default_inset = safe_inset_px   # layout_face's parameter of the same name shadows it


def min_text_px(size_px: int, counter_mm: float, floor_px: float = MIN_SCREEN_TEXT_PX) -> float:
    """Em size in px of 6 pt text at the scale implied by ``size_px`` per ``counter_mm``."""
    px_per_pt = size_px / counter_mm * 25.4 / 72
    return max(floor_px, MIN_TEXT_PT * px_per_pt)


# --- fitting text -------------------------------------------------------------


def _ink(text: str, size: float, bold: bool, condensed: bool) -> tuple[int, int, int, int]:
    return font(size, bold, condensed).getbbox(text)


def fit_text(text: str, width: int, height: int, pref: float, floor: float,
             bold: bool, condensed: bool) -> Fitted | None:
    """The largest size <= ``pref`` and >= ``floor`` at which ``text`` fits, or None."""
    if not text or width <= 0 or height <= 0:
        return None
    pref = max(pref, floor)
    l, t, r, b = _ink(text, pref, bold, condensed)
    scale = min(1.0, width / max(1, r - l), height / max(1, b - t))
    size = snap_size(pref * scale)
    while size >= floor:
        l, t, r, b = _ink(text, size, bold, condensed)
        if r - l <= width and b - t <= height:
            return Fitted(text, size, bold, condensed, r - l, b - t)
        size -= SIZE_STEP
    return None


def abbreviations(text: str) -> list[str]:
    """Ever shorter forms of ``text``: known words shortened from the last one back."""
    words = text.split(" ")
    known = [i for i, word in enumerate(words) if word in ABBREVIATIONS]
    forms = []
    for count in range(1, len(known) + 1):
        short = set(known[-count:])
        forms.append(" ".join(ABBREVIATIONS[w] if i in short else w for i, w in enumerate(words)))
    return forms


def truncate_to_fit(text: str, width: int, height: int, floor: float, bold: bool) -> Fitted | None:
    """The longest prefix plus an ellipsis that fits at the legibility floor."""
    for end in range(len(text) - 1, 0, -1):
        fitted = fit_text(text[:end].rstrip() + "…", width, height, floor, floor, bold, True)
        if fitted:
            return fitted
    return None


def fit_run(role: str, text: str, space: tuple[int, int], pref: float, floor: float,
            bold: bool, issues: list[RenderIssue], name: str) -> Fitted | None:
    """Fit ``text``: wide font, condensed, abbreviated, else truncate and report."""
    width, height = space
    for candidate in [text, *abbreviations(text)]:
        wide, narrow = (fit_text(candidate, width, height, pref, floor, bold, c) for c in (False, True))
        if wide and (not narrow or wide.size_px >= 0.9 * narrow.size_px):
            return wide
        if narrow:
            return narrow
    fallback = truncate_to_fit(text, width, height, floor, bold)
    printed = f"printed as {fallback.text!r}" if fallback else "left out"
    issues.append(RenderIssue(name, f"{role} {text!r} does not fit in {width}x{height} px at the "
                                    f"{floor:g} px minimum text size; {printed}"))
    return fallback


# --- layout -------------------------------------------------------------------


@dataclass(frozen=True)
class _Rows:
    """Vertical bands of the safe area, top to bottom, in face pixels."""

    top: Box
    middle: Box
    designation: Box | None
    values: Box | None


def _rows(face: FaceArt, size: int, inset: int, floor: float) -> _Rows:
    """Bands as fractions of the edge, but a text band never lower than its smallest legible text
    (ink of capitals, digits and brackets at the floor size): on a 1/2" counter the symbol gives way."""
    gap = max(1, round(GAP * size))
    text_min = math.ceil(floor * TEXT_INK) + 1
    x0, x1, y0, y1 = inset, size - inset, inset, size - inset
    top = (x0, y0, x1, y0 + max(round(TOP_ROW * size), text_min))
    values = None
    if face.values:
        values = (x0, y1 - round(VALUES_ROW * size), x1, y1)
        y1 = values[1] - gap
    designation = None
    if face.designation:
        designation = (x0, y1 - max(round(DESIGNATION_ROW * size), text_min), x1, y1)
        y1 = designation[1] - gap
    return _Rows(top, (x0, top[3] + gap, x1, y1), designation, values)


def _place(role: str, run: Fitted, box: Box, align: str) -> tuple[str, Fitted, int, int]:
    """Ink-box placement of a run in ``box``: 'left', 'centre', vertically centred."""
    if align == "left":
        left = box[0]
    else:
        left = box[0] + (box[2] - box[0] - run.width) // 2
    top = box[1] + (box[3] - box[1] - run.height) // 2
    return role, run, left, top


def _em_for(height: int, share: float = 1.0) -> float:
    """Font size whose capitals fill ``share`` of a row ``height`` px high."""
    return height * share / DIGIT_HEIGHT


@dataclass(frozen=True)
class _RowText:
    """What one text row carries: the set-up code on the left, a centred text (band or size mark)."""

    code: str = ""
    centre: str = ""
    role: str = "size_mark"


def _fit_code(code: str, width: int, height: int, floor: float) -> Fitted | None:
    """A corner first; a long code (a prefixed hex id on a small counter) may take more of the row."""
    return next((r for share in CODE_SHARES
                 if (r := fit_text(code, int(width * share), height, _em_for(height, 0.6), floor, False, True))), None)


def _row(box: Box, want: _RowText, floor: float, issues: list[RenderIssue], name: str,
         last: bool) -> tuple[list, _RowText]:
    """Place a row's texts; what does not fit is handed back for the next row (or, on the last
    row, shortened and reported)."""
    placed: list = []
    width, height = box[2] - box[0], box[3] - box[1]
    pref = _em_for(height, 0.85)
    code = _fit_code(want.code, width, height, floor) if want.code else None
    centre = fit_text(want.centre, width, height, pref, floor, True, False) if want.centre else None
    if want.role == "band" and want.code and centre:  # the band is a stripe: it stays, the code may move
        beside = _beside(code, want, box, floor, pref) if code else None
        if beside is None:
            return [_place("band", centre, box, "centre")], _RowText(code=want.code)
        return beside, _RowText()
    if want.code and code is None and not last:
        return _row(box, _RowText(centre=want.centre, role=want.role), floor, issues, name, last)[0], \
            _RowText(code=want.code)
    if want.code:
        code = code or fit_run("setup code", want.code, (int(width * CODE_SHARES[-1]), height), floor, floor,
                               False, issues, name)
        if code:
            placed.append(_place("setup_code", code, box, "left"))
    if not want.centre:
        return placed, _RowText()
    beside = _beside(code, want, box, floor, pref) if code else None
    if beside is not None:
        return beside, _RowText()
    if code is None and centre:
        return placed + [_place(want.role, centre, box, "centre")], _RowText()
    if not last:
        return placed, _RowText(centre=want.centre, role=want.role)
    reserved = code.width + max(2, height // 3) if code else 0
    right = (box[0] + reserved, box[1], box[2], box[3])
    run = fit_run(want.role.replace("_", " "), want.centre, (width - reserved, height), pref, floor, True, issues, name)
    return placed + [_place(want.role, run, right, "centre")] if run else placed, _RowText()


def _beside(code: Fitted, want: _RowText, box: Box, floor: float, pref: float) -> list | None:
    """The code on the left and the centred text beside it, or None when they do not both fit."""
    width, height = box[2] - box[0], box[3] - box[1]
    reserved = code.width + max(2, height // 3)
    placed = [_place("setup_code", code, box, "left")]
    run = fit_text(want.centre, width - 2 * reserved, height, pref, floor, True, False)
    if run:
        return placed + [_place(want.role, run, box, "centre")]
    run = fit_text(want.centre, width - reserved, height, pref, floor, True, False)
    if run:
        return placed + [_place(want.role, run, (box[0] + reserved, box[1], box[2], box[3]), "centre")]
    return None


def _top_row(face: FaceArt, rows: _Rows, floor: float, issues: list[RenderIssue], name: str) -> tuple[list, _RowText]:
    """Setup code in the corner; band text or size mark centred beside it; leftovers go one row down."""
    want = _RowText(face.setup_code, face.band or face.size_mark, "band" if face.band else "size_mark")
    return _row(rows.top, want, floor, issues, name, last=False)


def _middle(face: FaceArt, rows: _Rows, size: int, floor: float, issues: list[RenderIssue],
            name: str, left: _RowText) -> tuple[list, Box | None]:
    """A second text row when needed (size mark under a band, or what the top row could not hold),
    then the symbol or the marker label."""
    placed: list = []
    x0, y0, x1, y1 = rows.middle
    second = _RowText(left.code, face.size_mark if face.band else left.centre, "size_mark")
    if second.code or second.centre:
        row = (x0, y0, x1, y0 + max(round(SIZE_ROW * size), math.ceil(floor * TEXT_INK) + 1))
        texts, _ = _row(row, second, floor, issues, name, last=True)
        placed.extend(texts)
        y0 = row[3] + max(1, round(GAP * size / 2))
    if face.label:
        placed.extend(_label(face.label, (x0, y0, x1, y1), floor, issues, name))
        return placed, None
    if face.symbol == "marker" or y1 - y0 < 4:
        return placed, None
    height = y1 - y0
    width = min(round((x1 - x0) * SYMBOL_MAX_WIDTH), round(height * FRAME_RATIO))
    height = min(height, round(width / FRAME_RATIO))
    left_x = x0 + (x1 - x0 - width) // 2
    top = y0 + (y1 - y0 - height) // 2
    return placed, (left_x, top, left_x + width, top + height)


def _label(text: str, box: Box, floor: float, issues: list[RenderIssue], name: str) -> list:
    """A marker's big centred text, on one line or split over two; abbreviated before it is cut."""
    for candidate in [text, *abbreviations(text)]:
        placed = _label_lines(candidate, box, floor)
        if placed is not None:
            return placed
    width, height = box[2] - box[0], box[3] - box[1]
    run = fit_run("label", text, (width, height), _em_for(height, 0.55), floor, True, issues, name)
    return [_place("label", run, box, "centre")] if run else []


def _label_lines(text: str, box: Box, floor: float) -> list | None:
    """The label on one line, or on two balanced lines; None when neither fits at the floor."""
    width, height = box[2] - box[0], box[3] - box[1]
    pref = _em_for(height, 0.55)
    one = fit_text(text, width, height, pref, floor, True, True)
    words = text.split(" ")
    if len(words) > 1 and (not one or one.size_px < 0.6 * pref):
        cut = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(text) / 2))
        lines = (" ".join(words[:cut]), " ".join(words[cut:]))
        half = (box[0], box[1], box[2], box[1] + height // 2)
        runs = [fit_text(line, width, height // 2, _em_for(height // 2, 0.8), floor, True, True) for line in lines]
        if all(runs):
            size = min(r.size_px for r in runs)
            runs = [fit_text(line, width, height // 2, size, size, True, True) for line in lines]
            lower = (box[0], box[1] + height // 2, box[2], box[3])
            return [_place("label", runs[0], half, "centre"), _place("label", runs[1], lower, "centre")]
    return [_place("label", one, box, "centre")] if one else None


def layout_face(face: FaceArt, size_px: int, safe_inset_px: int | None = None,
                min_text_px: float | None = None, name: str = "") -> FaceLayout:
    """Decide every position on a face; pure and deterministic."""
    inset = safe_inset_px if safe_inset_px is not None else _default_inset(size_px, DEFAULT_COUNTER_MM)
    floor = min_text_px if min_text_px is not None else MIN_SCREEN_TEXT_PX
    floor = math.ceil(floor / SIZE_STEP - 1e-9) * SIZE_STEP   # on the font-size grid, never below
    name = name or face.designation or face.label or face.symbol
    issues: list[RenderIssue] = []
    rows = _rows(face, size_px, inset, floor)
    texts, leftover = _top_row(face, rows, floor, issues, name)
    middle, symbol_box = _middle(face, rows, size_px, floor, issues, name, leftover)
    texts += middle
    if rows.designation:
        d = rows.designation
        run = fit_run("designation", face.designation, (d[2] - d[0], d[3] - d[1]), _em_for(d[3] - d[1], 0.8),
                      floor, True, issues, name)
        if run:
            texts.append(_place("designation", run, d, "centre"))
    values = _values(face, rows.values, floor, issues, name) if rows.values else None
    band_bottom = rows.top[3] + max(1, round(GAP * size_px / 2)) if face.band else None
    return FaceLayout(size_px, inset, floor, tuple(texts), symbol_box, band_bottom, values, tuple(issues))


def _decoration(face: FaceArt, index: int) -> str:
    if face.filled_value == index:
        return "fill"
    return "box" if face.boxed_value == index else ""


def _values_at(face: FaceArt, size: float, condensed: bool, row: Box) -> ValuesLine:
    """The factor line set at ``size``, centred in ``row`` with its ink on the row's bottom."""
    f = font(size, True, condensed)
    pad = max(1, round(0.1 * size))
    segments, x = [], 0
    left = top = 10**6
    right = bottom = -(10**6)
    for i, value in enumerate(face.values):
        parts = [("-", "")] if i else []
        for text, deco in parts + [(value, _decoration(face, i))]:
            x += pad if deco else 0
            l, t, r, b = f.getbbox(text, anchor="ls")
            p = pad if deco else 0
            left, right = min(left, x + l - p), max(right, x + r + p)
            top, bottom = min(top, t - p), max(bottom, b + p)
            segments.append((text, x, deco))
            x += round(f.getlength(text)) + (pad if deco else 0)
    shift_x = row[0] + (row[2] - row[0] - (right - left)) // 2 - left
    baseline = row[3] - bottom
    box = (left + shift_x, top + baseline, right + shift_x, bottom + baseline)
    segments = tuple((text, sx + shift_x, deco) for text, sx, deco in segments)
    return ValuesLine(segments, baseline, snap_size(size), condensed, pad, box)


def _values(face: FaceArt, row: Box, floor: float, issues: list[RenderIssue], name: str) -> ValuesLine | None:
    """The largest factor line that fits the row: wide bold first, condensed if that is bigger."""
    width, height = row[2] - row[0], row[3] - row[1]
    best = []
    for condensed in (False, True):
        pref = max(floor, _em_for(height, 0.95))
        trial = _values_at(face, pref, condensed, row)
        w, h = trial.box[2] - trial.box[0], trial.box[3] - trial.box[1]
        size = snap_size(pref * min(1.0, width / max(1, w), height / max(1, h)))
        while size >= floor:
            line = _values_at(face, size, condensed, row)
            if line.box[2] - line.box[0] <= width and line.box[3] - line.box[1] <= height:
                best.append(line)
                break
            size -= SIZE_STEP
    if not best:
        text = "-".join(face.values)
        issues.append(RenderIssue(name, f"values {text!r} do not fit in {width}x{height} px at the "
                                        f"{floor:g} px minimum text size; left out"))
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
    fg, bg = _rgb(face.foreground), _rgb(face.background)
    stroke = max(1, round(line.size_px * 0.06))
    for text, x, deco in line.segments:
        l, t, r, b = f.getbbox(text, anchor="ls")
        box = (x + l - line.pad + offset, line.baseline + t - line.pad + offset,
               x + r + line.pad + offset - 1, line.baseline + b + line.pad + offset - 1)
        if deco == "fill":
            draw.rounded_rectangle(box, radius=(box[3] - box[1]) // 2, fill=fg)
        elif deco == "box":
            draw.rectangle(box, outline=fg, width=stroke)
        draw.text((x + offset, line.baseline + offset), text, font=f, anchor="ls",
                  fill=bg if deco == "fill" else fg)


def _text_color(face: FaceArt, role: str) -> tuple[int, int, int]:
    if face.band and role in ("band", "setup_code"):
        return contrast_ink(face.band_color)
    return _rgb(face.foreground)


def draw_face(face: FaceArt, size_px: int, bleed_px: int = 0, safe_inset_px: int | None = None,
              min_text_px: float | None = None, name: str = "") -> tuple[Image.Image, list[RenderIssue]]:
    """Paint a face: a (size_px + 2*bleed_px) square RGB image and what did not fit.

    The bleed is art extended past the cut (background, band, stripe);
    text and symbol stay inside the safe inset.
    """
    layout = layout_face(face, size_px, safe_inset_px, min_text_px, name)
    full = size_px + 2 * bleed_px
    image = Image.new("RGB", (full, full), _rgb(face.background))
    draw = ImageDraw.Draw(image)
    o = bleed_px
    if face.reduced and layout.values:
        draw.rectangle((0, layout.values.box[1] - max(1, round(GAP * size_px)) + o, full, full), fill=reduced_tint(face))
    if layout.band_bottom is not None:
        draw.rectangle((0, 0, full, layout.band_bottom + o), fill=_rgb(face.band_color))
    if layout.symbol_box:
        x0, y0, x1, y1 = layout.symbol_box
        symbol = render_symbol(face.symbol, x1 - x0, y1 - y0, face.foreground, face.symbol_fill)
        image.paste(symbol, (x0 + o, y0 + o), symbol)
    for role, run, left, top in layout.texts:
        f = font(run.size_px, run.bold, run.condensed)
        l, t, _, _ = f.getbbox(run.text)
        draw.text((left - l + o, top - t + o), run.text, font=f, fill=_text_color(face, role))
    if layout.values:
        _paint_values(draw, face, layout.values, o)
    return image, list(layout.issues)


def text_boxes(face: FaceArt, size_px: int, bleed_px: int = 0, safe_inset_px: int | None = None,
               min_text_px: float | None = None) -> list[TextBox]:
    """Ink bounds of every text run ``draw_face`` prints, in image pixels."""
    layout = layout_face(face, size_px, safe_inset_px, min_text_px)
    boxes = [TextBox(role, run.text, (left + bleed_px, top + bleed_px, left + run.width + bleed_px,
                                      top + run.height + bleed_px), run.size_px)
             for role, run, left, top in layout.texts]
    if layout.values:
        v = layout.values
        box = tuple(c + bleed_px for c in v.box)
        boxes.append(TextBox("values", "".join(seg[0] for seg in v.segments), box, v.size_px))
    return boxes
