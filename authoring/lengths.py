"""Physical lengths as designers write them, one reading for data files and the command line.

`5/8`, `5/8in`, `5/8"`, `0.625`, `0.625in`, `16mm` and `12pt` are all accepted; a bare number
is in inches (counter and hex sizes are quoted in inches across the hobby)."""

from __future__ import annotations

import re
from types import MappingProxyType

_LENGTH = re.compile(r'\s*([0-9]+(?:\.[0-9]+)?)(?:\s*/\s*([0-9]+))?\s*(in|mm|pt|")?\s*\Z')
_PER_INCH = MappingProxyType({"in": 1.0, '"': 1.0, "mm": 1 / 25.4, "pt": 1 / 72, None: 1.0})
FORM = "a number and a unit, e.g. '5/8in', '0.625in', '16mm' or '12pt' (a bare number is in inches)"


def parse_length(value: str | float | int | None) -> float | None:
    """The length in inches, or None when `value` is not a length."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    m = _LENGTH.match(value)
    if not m:
        return None
    number, denominator, unit = m.groups()
    if denominator is not None and int(denominator) == 0:
        return None
    amount = float(number) / (int(denominator) if denominator else 1)
    return amount * _PER_INCH[unit]
