"""Fitting a text into a box: the largest size in a range, regular then condensed then regular weight,
then the data's short form, the game's abbreviations and known word abbreviations; only then cut
with an ellipsis and reported. Used by the counter layout engine (``face.py``) for every text slot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from authoring.render.counters.layout import Slot
from authoring.render.shared.fonts import SIZE_STEP, font, snap_size

Box = tuple[int, int, int, int]

ABBREVIATIONS: Mapping[str, str] = MappingProxyType(
    {
        "Airborne": "Abn",
        "Armored": "Arm",
        "Armoured": "Arm",
        "Army": "A",
        "Artillery": "Art",
        "Battalion": "Bn",
        "Brigade": "Bde",
        "Cavalry": "Cav",
        "Corps": "C",
        "Division": "Div",
        "Grenadier": "Gren",
        "Guards": "Gds",
        "Infantry": "Inf",
        "Mechanized": "Mech",
        "Motorized": "Mot",
        "Mountain": "Mtn",
        "Panzer": "Pz",
        "Regiment": "Rgt",
        "Reserve": "Res",
        "Rifle": "Rfl",
        "Shock": "Sh",
        "Tank": "Tk",
        "Emergency": "Emerg",
        "Supply": "Sup",
        "Reinforcement": "Reinf",
        "Withdrawal": "Wdr",
        "Replacement": "Repl",
        "Control": "Ctrl",
    }
)
"""Word -> short form tried after the data's own short form, before a text is reported."""


@dataclass(frozen=True)
class RenderIssue:
    """Text that could not be printed legibly in its slot."""

    face: str
    message: str


@dataclass(frozen=True)
class Fitted:
    """A text run that fits: what to print, in which font, and its ink size."""

    text: str
    size_px: float
    bold: bool
    condensed: bool
    width: int
    height: int
    drawn: bool = False
    """A sign painted in its box (a drawn size mark), not a text run."""


@dataclass(frozen=True)
class Placed:
    """A text run at its ink box's top-left corner, with the slot it belongs to."""

    role: str
    run: Fitted
    left: int
    top: int
    slot: Box


def _ink(text: str, size: float, bold: bool, condensed: bool) -> tuple[int, int, int, int]:
    return font(size, bold, condensed).getbbox(text)


def fit_text(
    text: str, width: int, height: int, pref: float, floor: float, bold: bool, condensed: bool
) -> Fitted | None:
    """The largest size <= ``pref`` and >= ``floor`` at which ``text`` fits, or None."""
    if not text or width <= 0 or height <= 0:
        return None
    pref = max(pref, floor)
    l, t, r, b = _ink(text, pref, bold, condensed)
    scale = min(1.0, width / max(1, r - l), height / max(1, b - t))
    size = max(floor, snap_size(pref * scale))  # the estimate may undershoot the floor by rounding
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


def _best_line(text: str, width: int, height: int, hi: float, lo: float, bold: bool) -> Fitted | None:
    """Regular width first; condensed when that is clearly bigger or the only fit; bold gives way to
    regular weight (condensed) before the text is shortened."""
    wide, narrow = (fit_text(text, width, height, hi, lo, bold, c) for c in (False, True))
    if wide and (not narrow or wide.size_px >= 0.9 * narrow.size_px):
        return wide
    if narrow is None and bold:
        return fit_text(text, width, height, hi, lo, False, True)
    return narrow


def own_abbreviations(text: str, pairs: tuple[tuple[str, str], ...]) -> list[str]:
    """``text`` with the game's declared phrases shortened, one more at a time."""
    forms, current = [], text
    for long, short in pairs:
        if long in current:
            current = current.replace(long, short)
            forms.append(current)
    return forms


def _split(text: str) -> tuple[str, str] | None:
    """Two lines broken at a space or after a hyphen or slash, the longer line as short as it can be."""
    cuts = [m.end() for m in re.finditer(r"[ \-/]", text) if 0 < m.end() < len(text)]
    if not cuts:
        return None
    f = font(20, True, True)
    cut = min(cuts, key=lambda i: (max(f.getlength(text[:i].rstrip()), f.getlength(text[i:].lstrip())), i))
    return text[:cut].rstrip(), text[cut:].lstrip()


def align_left(box: Box, width: int, align: str) -> int:
    if align == "left":
        return box[0]
    if align == "right":
        return box[2] - width
    return box[0] + (box[2] - box[0] - width) // 2


def place_one(role: str, run: Fitted, box: Box, align: str, slot: Box) -> Placed:
    top = box[1] + (box[3] - box[1] - run.height) // 2
    return Placed(role, run, align_left(box, run.width, align), top, slot)


def _fit_lines(role: str, text: str, box: Box, slot: Slot, hi: float, lo: float) -> list[Placed] | None:
    """``text`` on one line, or on two when the slot allows it and that prints bigger."""
    width, height = box[2] - box[0], box[3] - box[1]
    one = _best_line(text, width, height, hi, lo, slot.bold)
    parts = _split(text) if slot.lines >= 2 else None
    two = None
    if parts:
        gap = max(1, height // 20)
        half = (height - gap) // 2
        runs = [_best_line(p, width, half, hi, lo, slot.bold) for p in parts]
        if all(runs):
            size = min(r.size_px for r in runs)
            cond, bold = any(r.condensed for r in runs), all(r.bold for r in runs)
            runs = [fit_text(p, width, half, size, size, bold, cond) for p in parts]
            if all(runs):
                two = runs
    lighter = one is not None and slot.bold and not one.bold and two is not None and two[0].bold
    bold_two = lighter and two[0].size_px >= 0.8 * one.size_px  # two bold lines beat one lighter line
    if one and (two is None or one.size_px >= 0.8 * two[0].size_px) and not bold_two:
        return [place_one(role, one, box, slot.align, box)]
    if two:
        gap = max(1, height // 20)
        block = two[0].height + gap + two[1].height
        y = box[1] + (height - block) // 2
        upper = (box[0], y, box[2], y + two[0].height)
        lower = (box[0], y + two[0].height + gap, box[2], y + block)
        return [
            Placed(role, two[0], align_left(box, two[0].width, slot.align), upper[1], box),
            Placed(role, two[1], align_left(box, two[1].width, slot.align), lower[1], box),
        ]
    return None


def fit_slot(
    role: str,
    text: str,
    short: str,
    box: Box,
    slot: Slot,
    hi: float,
    lo: float,
    issues: list[RenderIssue],
    name: str,
    own: tuple[tuple[str, str], ...] = (),
) -> list[Placed]:
    """Fit ``text`` in its slot: shrink, then the short form, the game's abbreviations, then known ones;
    else cut and report."""
    candidates = (
        [text]
        + ([short] if short and short != text else [])
        + own_abbreviations(short or text, own)
        + abbreviations(short or text)
    )
    lighter = None  # a marker's label: its bold short form before its full text set lighter (one weight for all)
    for candidate in candidates:
        placed = _fit_lines(role, candidate, box, slot, hi, lo)
        if placed and (role != "label" or not slot.bold or all(p.run.bold for p in placed)):
            return placed
        lighter = lighter or placed
    if lighter:
        return lighter
    width, height = box[2] - box[0], box[3] - box[1]
    fallback = truncate_to_fit(short or text, width, height, lo, slot.bold)
    printed = f"printed as {fallback.text!r}" if fallback else "left out"
    issues.append(
        RenderIssue(
            name,
            f"slot {role!r}: {text!r} does not fit in {width}x{height} px at the "
            f"{lo:g} px minimum text size; {printed}",
        )
    )
    return [place_one(role, fallback, box, slot.align, box)] if fallback else []
