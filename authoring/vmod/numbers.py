"""Numbers read from a module (buildFile attributes, saved-game fields): finite and in range, or not at all.

A module is a stranger's file: `x0="1e400"` is infinity (`int()` of it raises OverflowError), `dy="1e-300"`
makes a board of 10^600 hexes, a board picker column of 1e10 a sum of 1e10 widths. Every number an import
reads goes through `whole` or `positive`, which give the default for anything that is not a finite number
within MAX_COORD."""

from __future__ import annotations

import math

MAX_COORD = 1_000_000
"""Largest pixel coordinate, size or offset read (the project's own range for numbers)."""
MIN_SPACING = 1.0
"""Smallest hex spacing in pixels: a finer grid is no grid a module draws."""


def finite(text: str | None) -> float | None:
    """`text` as a finite number within MAX_COORD, or None."""
    if text is None:
        return None
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) and abs(value) <= MAX_COORD else None


def whole(text: str | None, default: int) -> int:
    """`text` as a whole number (rounded towards zero, as the engine's `(int) Double.parseDouble`), or `default`."""
    value = finite(text)
    return default if value is None else int(value)


def positive(text: str | None) -> float | None:
    """`text` as a spacing from MIN_SPACING to MAX_COORD pixels, or None."""
    value = finite(text)
    return value if value is not None and value >= MIN_SPACING else None
