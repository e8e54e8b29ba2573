"""`@frozen`: the model's immutable records, as frozen dataclasses that are quick to build.

A frozen dataclass's `__init__` stores each field through `object.__setattr__` (its own
`__setattr__` refuses), a call per field: a 17-field counter took 3.0 us to make. Loading a large
game makes about 12,000 model records (a placement for every unit in a hex, a face for every
counter side, every river hexside), so that cost showed in `validate`. `frozen` keeps everything a
frozen dataclass is (fields, defaults, factories, repr, `replace`, refusing assignment after
construction, identity equality) and gives it an `__init__` that writes the new instance's
`__dict__` directly: the same values in the same order, 1.2 us for that counter.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Callable, TypeVar, dataclass_transform

T = TypeVar("T", bound=type)


@dataclass_transform(eq_default=False, frozen_default=True)
def frozen(cls: T) -> T:
    """`@dataclass(frozen=True, eq=False)`, with a fast `__init__` of the same signature."""
    cls = dataclass(frozen=True, eq=False)(cls)
    cls.__init__ = _init(cls)   # type: ignore[misc]
    return cls


def _init(cls: type) -> Callable[..., None]:
    """Source of an `__init__` taking the dataclass's fields in order, with their defaults."""
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
        else:
            params.append(f.name)
        body.append(f"    d[{f.name!r}] = {f.name}")
    env["_FACTORY"] = _FACTORY
    src = f"def __init__(self, {', '.join(params)}):\n    d = self.__dict__\n" + "\n".join(body) + "\n"
    exec(src, env)   # noqa: S102 (built from field names only, as dataclasses itself does)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


class _Factory:
    """The default of a field with a `default_factory`: the factory is called when this is seen."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()
