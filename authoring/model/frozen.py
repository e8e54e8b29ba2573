"""`@frozen`: the model's immutable records, as frozen, slotted dataclasses that are quick to build.

A frozen dataclass's `__init__` stores each field through `object.__setattr__` (its own
`__setattr__` refuses), a call per field, and a large game makes a model record for every unit in
a hex, every counter face and every river hexside. `frozen` keeps everything a frozen dataclass is
(fields, defaults, factories, repr, `replace`, pickling, refusing assignment after construction,
identity equality) and gives it an `__init__` that stores each field through its slot's setter: the
same values in the same order, several times faster (figures in docs/performance.md).

Slots, not an instance dict: a record is one block of memory and a field is read faster. The rules
engine reads a counter's and a placement's fields for every unit of every scenario, so a large game's
records must stay compact enough to fit in a core's cache.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import TypeVar, dataclass_transform

T = TypeVar("T", bound=type)


@dataclass_transform(eq_default=False, frozen_default=True)
def frozen(cls: T) -> T:
    """`@dataclass(frozen=True, eq=False, slots=True)`, with a fast `__init__` of the same signature."""
    cls = dataclass(frozen=True, eq=False, slots=True)(cls)  # type: ignore[assignment]  # slots make a new class
    cls.__init__ = _init(cls)  # type: ignore[misc]
    return cls


def _init(cls: type) -> Callable[..., None]:
    """An `__init__` taking the dataclass's fields in order, with their defaults, that stores each through
    its slot's own setter (a C call; the frozen class's `__setattr__` refuses)."""
    params, body, env = [], [], {}
    for f in fields(cls):
        if not f.init or f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: @frozen takes only positional fields set by __init__")
        if f.default is not MISSING:
            env[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
        elif f.default_factory is not MISSING:
            env[f"_f_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_FACTORY")
            body.append(f"    if {f.name} is _FACTORY: {f.name} = _f_{f.name}()")
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is MISSING and f.default_factory is MISSING:
            params.append(f.name)
        body.append(f"    _set_{f.name}(self, {f.name})")
    env["_FACTORY"] = _FACTORY
    src = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"
    exec(src, env)  # noqa: S102 (built from field names only, as dataclasses itself does)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


class _Factory:
    """The default of a field with a `default_factory`: the factory is called when this is seen."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()
