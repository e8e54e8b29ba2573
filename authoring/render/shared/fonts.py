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

from collections.abc import Callable, Mapping
from functools import lru_cache
from importlib.resources import files
from types import MappingProxyType
from typing import Any

from PIL import ImageFont

FONT_DIR = files("authoring.render.shared") / "fonts"
"""Package data: the wheel carries the TTFs (pyproject.toml's package-data)."""

FONT_FILES: Mapping[tuple[bool, bool], str] = MappingProxyType(
    {
        # (bold, condensed) -> file
        (False, False): "DejaVuSans.ttf",
        (True, False): "DejaVuSans-Bold.ttf",
        (False, True): "DejaVuSansCondensed.ttf",
        (True, True): "DejaVuSansCondensed-Bold.ttf",
    }
)
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
    """The bundled face at `size_px`. Process-wide, keyed by size and style: the bundled font files do not
    change while hexwright runs."""
    path = FONT_DIR / FONT_FILES[(bold, condensed)]
    return MemoFont(str(path), size_px, layout_engine=ImageFont.Layout.BASIC)


MEMO_ENTRIES = 4096
"""Measurements remembered per font and method; past it the memo starts afresh (a print map's labels are
all distinct)."""
MASK_ENTRIES = 1024
"""Glyph masks remembered per font: a print map's hex ids are a few kilobytes each and never drawn twice,
so more would only hold memory in a map worker; a card's repeated strings fit."""


def _remembered(
    name: str,
    keep: Callable[[tuple, dict], bool] = lambda args, kwargs: True,
    entries: Callable[[], int] = lambda: MEMO_ENTRIES,
) -> Callable[..., Any]:
    """FreeTypeFont.`name`, answering a call it has seen from its memo: FreeType gives the same answer.

    Set-up cards and counter sheets draw the same few thousand strings tens of thousands of times
    (a card's 49,060 glyph masks are 3,314 distinct ones); each answer is an immutable tuple or a
    mask that Pillow only reads, so handing it out again draws the same pixels."""
    compute = getattr(ImageFont.FreeTypeFont, name)

    def method(self: MemoFont, *args: Any, **kwargs: Any) -> Any:
        key = (args, tuple(kwargs.items())) if kwargs else args
        memo = self.memos[name]
        try:
            hit = memo.get(key)
        except TypeError:  # an unhashable argument (a list of features): not remembered
            return compute(self, *args, **kwargs)
        if hit is None:
            hit = compute(self, *args, **kwargs)
            if keep(args, kwargs):
                if len(memo) >= entries():
                    memo.clear()
                memo[key] = hit
        return hit

    method.__name__ = name
    return method


def _grey_mask(args: tuple, kwargs: dict) -> bool:
    """Only greyscale glyph masks are shared: Pillow writes the alpha of an RGBA (colour-font) mask."""
    return (args[1] if len(args) > 1 else kwargs.get("mode", "")) != "RGBA"


class MemoFont(ImageFont.FreeTypeFont):
    """A FreeType font that remembers its measurements and glyph masks (see `_remembered`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.memos: dict[str, dict[tuple, Any]] = {"getbbox": {}, "getlength": {}, "getmask2": {}}

    getbbox = _remembered("getbbox")
    getlength = _remembered("getlength")
    getmask2 = _remembered("getmask2", _grey_mask, lambda: MASK_ENTRIES)
