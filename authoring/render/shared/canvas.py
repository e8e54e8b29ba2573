"""Player aids laid out like the counters: text drawn through a canvas that records every box, and
blocks flowed onto Letter or A4 pages.

A ``Canvas`` is an image plus the ink box of every text it printed and the box (cell, turn box,
column) that text had to stay in. ``flow`` stacks blocks (tables, turn-track rows, legend columns,
set-up card entries) top to bottom on pages of the chosen paper, inside the printable area, with a
title and a "page n of N" footer that never meet the content; a block is never cut in two (a
renderer splits long content into blocks that fit a page). The same box checker as the counters
(``counter_check.box_findings``) then proves nothing overlaps, leaves its place or the page's
printable area, or was cut short.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from authoring.render.counters.check import box_findings
from authoring.render.counters.face import TextBox
from authoring.render.shared.fonts import font
from authoring.render.shared.pdf import PAPER_IN

Box = tuple[int, int, int, int]

INK = (30, 28, 24)
MUTED = (105, 98, 90)
AID_DPI = 150
"""Resolution of charts and set-up cards."""
MARGIN_IN = 0.4
"""Page margin: above the 0.25" home printers need."""
MIN_AID_PT = 6.0
"""Nothing on a player aid printed smaller than this."""


@dataclass
class Canvas:
    """An RGB image that remembers where its texts went."""

    image: Image.Image
    boxes: list[TextBox] = field(default_factory=list)
    _pen: tuple[Image.Image, ImageDraw.ImageDraw] | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def new(cls, size: tuple[int, int], colour=(255, 255, 255)) -> Canvas:
        return cls(Image.new("RGB", size, colour))

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        """One drawing context per image (a card page asks for it twice per text: 95,000 times a build)."""
        if self._pen is None or self._pen[0] is not self.image:
            self._pen = (self.image, ImageDraw.Draw(self.image))
        return self._pen[1]

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: float,
        bold: bool = False,
        fill=INK,
        anchor: str = "la",
        slot: Box | None = None,
        role: str = "text",
    ) -> Box | None:
        """Draw ``text`` and record its ink box (and the box it must stay in)."""
        if not text:
            return None
        f = font(size, bold)
        self.draw.text(xy, text, font=f, fill=fill, anchor=anchor)
        box = tuple(int(round(v)) for v in self.draw.textbbox(xy, text, font=f, anchor=anchor))
        self.boxes.append(TextBox(role, text, box, size, slot or (0, 0, 0, 0)))
        return box

    def paste(self, child: Canvas, at: tuple[int, int]) -> None:
        self.image.paste(child.image, at)
        dx, dy = at
        for tb in child.boxes:
            shift = lambda b: (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)
            slot = tb.slot if tb.slot == (0, 0, 0, 0) else shift(tb.slot)
            self.boxes.append(TextBox(tb.role, tb.text, shift(tb.box), tb.size_px, slot))


HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_]-)(?=[^\W\d_])")
"""Where a word may break after its own hyphen: between letters ("non-|mot"), never in "-1"."""


def wrap(text: str, size: float, width: int, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``width`` px; a line may also break after a slash ("Snow/ Arctic") or a word's
    own hyphen ("non- mot"), and a
    word longer than the width is hyphenated (never clipped)."""
    fnt = font(size, bold)
    lines: list[str] = []
    for para in str(text).split("\n"):
        line = ""
        for word in para.split(" "):
            pieces = [bit for piece in re.findall(r"[^/]+/?|/", word) for bit in HYPHEN_BREAK.split(piece)] or [""]
            for k, piece in enumerate(pieces):
                glue = "" if k else " "
                trial = f"{line}{glue}{piece}" if line else piece
                if line and fnt.getlength(trial) > width:
                    lines.append(line)
                    line = piece
                else:
                    line = trial
                while fnt.getlength(line) > width and len(line) > 1:
                    cut = len(line) - 1
                    while cut > 1 and fnt.getlength(line[:cut] + "-") > width:
                        cut -= 1
                    lines.append(line[:cut] + "-")
                    line = line[cut:]
        lines.append(line)
    return lines


@dataclass(frozen=True)
class PageSpec:
    """A sheet of paper at a resolution: its pixels and the printable area inside the margins."""

    paper: str = "letter"
    dpi: int = AID_DPI
    margin_in: float = MARGIN_IN

    @property
    def size(self) -> tuple[int, int]:
        w, h = PAPER_IN[self.paper]
        return round(w * self.dpi), round(h * self.dpi)

    @property
    def printable(self) -> Box:
        m = round(self.margin_in * self.dpi)
        w, h = self.size
        return m, m, w - m, h - m

    @property
    def min_text_px(self) -> float:
        return MIN_AID_PT * self.dpi / 72

    @property
    def content(self) -> Box:
        """The printable area less the title band and the footer."""
        x0, y0, x1, y1 = self.printable
        return x0, y0 + self.title_h, x1, y1 - self.footer_h

    @property
    def title_h(self) -> int:
        return round(0.45 * self.dpi)

    @property
    def footer_h(self) -> int:
        return round(0.25 * self.dpi)

    @property
    def content_size(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.content
        return x1 - x0, y1 - y0


GAP_IN = 0.15
"""Space between blocks on a page."""


def flow(blocks: list[Canvas], spec: PageSpec, title: str, subtitle: str = "") -> list[Canvas]:
    """Stack ``blocks`` onto pages of ``spec`` under ``title``; a block that would overrun the page
    starts the next one. A block wider or taller than the content area is a renderer's bug: it
    raises, rather than being shrunk below legibility or cut."""
    return list(flowed(blocks, spec, title, subtitle))


def flowed(blocks: list[Canvas], spec: PageSpec, title: str, subtitle: str = "") -> Iterator[Canvas]:
    """`flow`'s pages one at a time, each made when asked for (a writer that encodes each page before it asks
    for the next holds one page, not all of them)."""
    x0, y0, x1, y1 = spec.content
    gap = round(GAP_IN * spec.dpi)
    pages: list[list[tuple[Canvas, int]]] = [[]]
    y = y0
    for block in blocks:
        w, h = block.image.size
        if w > x1 - x0 or h > y1 - y0:
            raise ValueError(f"a {w}x{h} px block does not fit the {x1 - x0}x{y1 - y0} px content area")
        if pages[-1] and y + h > y1:
            pages.append([])
            y = y0
        pages[-1].append((block, y))
        y += h + gap
    for n, placed in enumerate(pages, 1):
        page = Canvas.new(spec.size)
        _title(page, spec, title, subtitle)
        for block, top in placed:
            page.paste(block, (x0, top))
        _footer(page, spec, f"{title} - page {n} of {len(pages)}" if len(pages) > 1 else "")
        yield page


def fit_size(text: str, size: float, width: int, bold: bool, floor: float) -> float:
    length = font(size, bold).getlength(text)
    return size if length <= width else max(floor, size * width / length)


def _title(page: Canvas, spec: PageSpec, title: str, subtitle: str) -> None:
    """The title on the first line of the title band, the subtitle under it: they never meet."""
    x0, y0, x1, _ = spec.printable
    band = (x0, y0, x1, y0 + spec.title_h)
    line = spec.title_h // 2 - 2
    size = fit_size(title, line / 1.2, x1 - x0, True, spec.min_text_px)
    for text in wrap(title, size, x1 - x0, True)[:1]:
        page.text((x0, y0), text, size, True, slot=band, role="title")
    if subtitle:
        sub = fit_size(subtitle, line / 1.6, x1 - x0, False, spec.min_text_px)
        page.text((x0, y0 + line + 2), wrap(subtitle, sub, x1 - x0)[0], sub, False, MUTED, slot=band, role="subtitle")


def _footer(page: Canvas, spec: PageSpec, text: str) -> None:
    if not text:
        return
    x0, _, x1, y1 = spec.printable
    band = (x0, y1 - spec.footer_h, x1, y1)
    size = max(spec.min_text_px, spec.footer_h / 2)
    page.text((x1, y1 - spec.footer_h // 2), text, size, False, MUTED, anchor="rm", slot=band, role="footer")


def page_findings(page: Canvas, spec: PageSpec):
    """What is wrong with a laid-out aid page (same checks as a counter face)."""
    return box_findings(page.boxes, spec.printable, spec.min_text_px - 0.01)
