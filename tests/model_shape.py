"""A loaded game as plain nested tuples, for tests that compare two loads of the same files."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping


def shape(value: object) -> object:
    """The model as plain nested tuples, every field (locations too), mappings sorted: records compare by
    identity, so two loads of the same files are compared through this."""
    kind = type(value)
    if value is None or kind in (str, int, float, bool):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (kind.__name__, tuple((f.name, shape(getattr(value, f.name))) for f in dataclasses.fields(value)))
    if isinstance(value, (list, tuple)):
        return (kind.__name__, tuple(shape(x) for x in value))
    if isinstance(value, (set, frozenset)):
        return (kind.__name__, tuple(sorted(repr(shape(x)) for x in value)))
    if isinstance(value, Mapping):
        return (kind.__name__, tuple(sorted((repr(shape(k)), shape(v)) for k, v in value.items())))
    text = repr(value)  # a map's grid: its spec and origin
    assert " at 0x" not in text, f"no plain form for {kind.__name__}"
    return (kind.__name__, text)
