"""Box boards (reinforcements by turn, off-map boxes and pools, dead piles) laid out from the data.

Each box must hold the largest stack any scenario puts in it (up to `MAX_BOX_STACK`). VASSAL draws a stack from its
bottom piece, centred on the stack's point, each next piece `sep` pixels right and up
(`StackMetrics.getContents`, unexpanded); so a stack of n counters of c pixels covers
c + (n-1)*sep each way, up and right of its point. The boxes of a section share one size, the
one its largest stack needs; each stack point is placed so that the box's own stack is centred
in the box below its label, and labels wrap to the box width (shrinking to a floor) so they
never run into a neighbour. Box maps get their own StackMetrics with this `sep`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from authoring.render.shared.fonts import font
from authoring.vassal.art import image_name

PAPER = (250, 248, 240)
INK = (30, 30, 30)
BOX_LINE = (90, 90, 90)
MAX_WIDTH = 580
"""Board width to aim for: VASSAL 3.6 opens a toolbar map window at 600 x 400 (`Map.setup`), so a
board this wide needs no sideways scrolling; a row holds as many boxes as fit (at least one). A
board that would then be taller than wide gets wider rows instead (fewer screens to scroll)."""
MAX_BOX_STACK = 40
"""The largest stack a box is sized to show whole: a box that must hold more (5,000 reinforcements on one
turn) is drawn for this many, the rest of its stack running on up and to the right, as VASSAL draws any
stack past its box. Sized for every counter, that one box was a 2-billion-pixel board (9.6 GB to draw)."""


@dataclass(frozen=True)
class BoxSpec:
    """A box to draw: its region name, its printed title and the largest stack it holds."""

    region: str
    title: str
    capacity: int = 1


@dataclass(frozen=True)
class Box:
    """A labelled box on a box board; pieces snap to its stack point (a VASSAL Region)."""

    name: str
    title: str
    x: int
    y: int
    rect: tuple[int, int, int, int] = (0, 0, 0, 0)
    """left, top, right, bottom of the box outline."""
    capacity: int = 1
    label_bottom: int = 0
    """Where the label ends: stacks stay below it."""


@dataclass(frozen=True)
class BoxBoard:
    image: str
    size: tuple[int, int]
    boxes: tuple[Box, ...]
    sep: int = 0
    """StackMetrics separation (x right, y up) of unexpanded stacks on this board."""
    counter_px: int = 0


def stack_sep(counter_px: int) -> int:
    """Unexpanded stack offset on box boards: enough to see every counter's edge."""
    return max(4, round(counter_px * 0.12))


def stack_extent(x: int, y: int, count: int, counter_px: int, sep: int) -> tuple[int, int, int, int]:
    """left, top, right, bottom covered by a stack of `count` counters whose point is (x, y)."""
    half = counter_px / 2
    spread = (max(count, 1) - 1) * sep
    return (round(x - half), round(y - half - spread), round(x + half + spread), round(y + half))


def _wrap(text: str, width: float, size: float) -> list[str]:
    """Words of `text` in lines no wider than `width` at font `size` (a single long word stays whole)."""
    face = font(size)
    lines: list[str] = []
    for word in text.split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and face.getlength(trial) <= width:
            lines[-1] = trial
        else:
            lines.append(word)
    return lines or [""]


def _label_lines(titles: Sequence[str], width: float, size: float) -> tuple[float, list[list[str]]]:
    """The largest font size (down to 9 px) at which every title wraps within `width`."""
    while True:
        wrapped = [_wrap(t, width, size) for t in titles]
        face = font(size)
        if size <= 9 or all(face.getlength(line) <= width for lines in wrapped for line in lines):
            return size, wrapped
        size -= 1


def box_board(
    name: str, title: str, sections: Sequence[tuple[str, Sequence[BoxSpec]]], counter_px: int
) -> tuple[BoxBoard, Callable[[], Image.Image]]:
    """A board of labelled boxes in titled sections, each box sized for its section's largest stack,
    and the drawing of its image (left to the caller's image cache: same arguments, same image).

    Rows are at most MAX_WIDTH wide, or wider in steps while the board would be taller than wide."""
    for max_width in range(MAX_WIDTH, MAX_WIDTH * 3, 200):
        placed, width, height = _layout(sections, counter_px, max_width)
        if height <= width:
            break
    return _draw(name, title, placed, (width, height), counter_px)


def _layout(
    sections: Sequence[tuple[str, Sequence[BoxSpec]]], counter_px: int, max_width: int
) -> tuple[list[tuple[str, object]], int, int]:
    c, sep = counter_px, stack_sep(counter_px)
    pad, margin, head = _spacing(c)
    placed: list[tuple[str, object]] = []
    y, width = pad + head + pad, 0
    for section_title, specs in sections:
        if not specs:
            continue
        n = min(max(s.capacity for s in specs), MAX_BOX_STACK)
        stack = c + (n - 1) * sep
        bw = max(stack + 2 * margin, round(c * 2.2))
        size, wrapped = _label_lines([s.title for s in specs], bw - 8, max(11.0, c * 0.3))
        band = round(max(len(lines) for lines in wrapped) * size * 1.2) + 6
        bh = band + stack + 2 * margin
        per_row = max(1, min(len(specs), (max_width - pad) // (bw + pad)))
        placed.append(("title", (section_title, pad, y)))
        y += head
        for i, (spec, lines) in enumerate(zip(specs, wrapped)):
            left, top = pad + (i % per_row) * (bw + pad), y + (i // per_row) * (bh + pad)
            k = min(max(spec.capacity, 1), MAX_BOX_STACK)
            sx = left + bw // 2 - ((k - 1) * sep) // 2
            sy = top + band + margin + stack - (stack - (c + (k - 1) * sep)) // 2 - c // 2
            box = Box(spec.region, spec.title, sx, sy, (left, top, left + bw, top + bh), k, top + band)
            placed.append(("box", (box, lines, size)))
        rows = (len(specs) + per_row - 1) // per_row
        y += rows * (bh + pad) + pad
        width = max(width, pad + per_row * (bw + pad))
    return placed, max(width, pad * 2 + 200), y


def _spacing(c: int) -> tuple[int, int, int]:
    """Gap between boxes, margin inside a box, heading height."""
    return max(8, c // 5), max(6, c // 6), max(18, round(c * 0.5))


def _draw(
    name: str, title: str, placed: Sequence[tuple[str, object]], size: tuple[int, int], c: int
) -> tuple[BoxBoard, Callable[[], Image.Image]]:
    """The board and its image; its title shrinks a little, then the board widens, so the title is never cut."""
    pad, _, head = _spacing(c)
    size_px = head * 0.8
    while font(size_px, bold=True).getlength(title) > size[0] - 2 * pad and size_px > head * 0.55:
        size_px -= 1
    face = font(size_px, bold=True)
    size = (max(size[0], round(face.getlength(title)) + 2 * pad), size[1])
    boxes = tuple(what[0] for kind, what in placed if kind == "box")  # type: ignore[index]

    def paint() -> Image.Image:
        image = Image.new("RGB", size, PAPER)
        draw = ImageDraw.Draw(image)
        draw.text((pad, pad), title, font=face, fill=INK)
        for kind, what in placed:
            if kind == "title":
                text, x, top = what  # type: ignore[misc]
                draw.text((x, top), text, font=font(head * 0.6, bold=True), fill=INK)
                continue
            box, lines, line_px = what  # type: ignore[misc]
            left, top, right, bottom = box.rect
            draw.rectangle((left, top, right, bottom), outline=BOX_LINE, width=2)
            for j, line in enumerate(lines):
                draw.text(
                    ((left + right) // 2, top + 3 + j * line_px * 1.2), line, font=font(line_px), fill=INK, anchor="mt"
                )
        return image

    return BoxBoard(image_name("box", name), size, boxes, stack_sep(c), c), paint
