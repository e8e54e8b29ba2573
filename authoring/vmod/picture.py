"""Images of a module, opened with a limit on their pixels before anything is decoded.

A module's GIF, PNG or JPEG can declare 20,000 x 20,000 pixels in a few kilobytes (a decompression bomb),
and an SVG any size it likes. `opened` checks the declared size against MAX_PIXELS before the pixels
are decoded, whatever Pillow's own (process-wide) limit is set to, and says why in a `ValueError` that
the import turns into a finding."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from PIL import Image

MAX_PIXELS = 120_000_000
"""Pixels of one module image at most (as of a designer's art: `load.resolve_art.MAX_ART_PIXELS`)."""


class ImageTooLarge(ValueError):
    """An image with more pixels than MAX_PIXELS (its message says how many)."""


def pixel_problem(size: tuple[int, int]) -> str | None:
    """Why an image of `size` is not decoded, or None."""
    w, h = size
    if w * h > MAX_PIXELS:
        return f"{w:,} x {h:,} px is over the limit of {MAX_PIXELS:,} pixels"
    return None


def too_large(data: bytes) -> str | None:
    """Why the image `data` is not decoded, when it is too large ("is ... over the limit"), else None."""
    try:
        with opened(data):
            return None
    except ImageTooLarge as exc:
        return f"is not imported: {exc}"
    except Exception:  # noqa: BLE001 - bytes that are no image are another finding
        return None


@contextmanager
def opened(data: bytes) -> Iterator:
    """A Pillow image of `data`, not yet decoded, whose size is within MAX_PIXELS; `ImageTooLarge` otherwise
    (also for the bombs Pillow itself refuses to open), and Pillow's errors for bytes that are no image."""
    try:
        with warnings.catch_warnings():  # Pillow's warning for a size under its own limit: the check below says it
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:
        raise ImageTooLarge(f"the image is over the limit of {MAX_PIXELS:,} pixels (a decompression bomb?)") from None
    with image:
        problem = pixel_problem(image.size)
        if problem:
            raise ImageTooLarge(problem)
        yield image
