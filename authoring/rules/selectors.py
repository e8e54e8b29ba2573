"""Unit selectors shared by many rule types (rules-spec): units, side, nationality, unit_type, size, flag (AND)."""

from __future__ import annotations

from collections.abc import Mapping

from authoring.model import Counter

SELECTOR_KEYS = ("units", "side", "nationality", "unit_type", "size", "flag")


def _one_of(value: str | None, wanted) -> bool:
    return value in (wanted if isinstance(wanted, (list, tuple)) else (wanted,))


def selects(params: Mapping, counter: Counter | None) -> bool:
    """Whether the rule's selectors pick this counter. Markers are picked only when listed by id."""
    if counter is None:
        return False
    if "units" in params:
        if counter.id not in params["units"]:
            return False
    elif counter.marker:
        return False
    checks = (
        ("side", counter.side),
        ("nationality", counter.nationality),
        ("unit_type", counter.type),
        ("size", counter.size),
    )
    if any(key in params and not _one_of(value, params[key]) for key, value in checks):
        return False
    return "flag" not in params or params["flag"] in counter.flags


def describe(params: Mapping) -> str:
    """The selection in words, for messages: 'soviet units', 'units sov-1shock'."""
    parts = [str(params["side"])] if "side" in params else []
    for key in ("nationality", "unit_type", "size", "flag"):
        if key in params:
            value = params[key]
            parts.append("/".join(value) if isinstance(value, (list, tuple)) else str(value))
    if "units" in params:
        return "units " + ", ".join(params["units"])
    return " ".join(parts + ["units"])
