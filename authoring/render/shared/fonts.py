"""The bundled typeface, so every machine draws the same glyphs.

The TTFs under ``fonts/`` are DejaVu Sans 2.37 (Bitstream Vera licence plus
public-domain DejaVu changes, see ``fonts/LICENSE.txt``), copied unmodified
from the ``rinoh-typeface-dejavusans`` wheel on PyPI. They are vendored rather
than installed because a font upgrade would change every rendered counter, and
the reference images in the tests pin those pixels.

Text is laid out with Pillow's BASIC engine so output does not depend on
whether libraqm happens to be present.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")

FONT_FILES: dict[tuple[bool, bool], str] = {
    # (bold, condensed) -> file
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (False, True): "DejaVuSansCondensed.ttf",
    (True, True): "DejaVuSansCondensed-Bold.ttf",
}
"""Which file serves each style; factors use bold, designations condensed."""

SIZE_STEP = 0.25
"""Sizes are snapped to this many px so the cache stays small and output stable."""


def snap_size(size_px: float) -> float:
    """Round a font size down to the cache grid (never below one step)."""
    return max(SIZE_STEP, int(size_px / SIZE_STEP) * SIZE_STEP)


def font(size_px: float, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font at an em size of ``size_px`` pixels (6 pt at 300 dpi is 25 px)."""
    return _load(snap_size(size_px), bold, condensed)


@lru_cache(maxsize=512)
def _load(size_px: float, bold: bool, condensed: bool) -> ImageFont.FreeTypeFont:
    path = FONT_DIR / FONT_FILES[(bold, condensed)]
    return ImageFont.truetype(str(path), size_px, layout_engine=ImageFont.Layout.BASIC)
