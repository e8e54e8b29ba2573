"""A read-only mapping whose values are made when first looked up.

A large game's maps hold thousands of hexes, and a load or a set-up check looks at a few hundred of them:
making every value up front (a map's `HexInfo`s, the rules' merged cells) was a fixed cost of every run.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LazyMapping(Mapping[K, V]):
    """`keys`, in their order, each with the value `make(key)` made on first lookup and kept: a key
    always gives the same object. A walk over every item (`items`, `values`) makes the rest once and
    then iterates one dict in C, as a plain mapping would."""

    __slots__ = ("_keys", "_make", "_made", "_all")

    def __init__(self, keys: Collection[K], make: Callable[[K], V]):
        self._keys, self._make = keys, make
        self._made: dict[K, V] = {}
        self._all: dict[K, V] | None = None

    def __getitem__(self, key: K) -> V:
        value = self._made.get(key)
        if value is None:
            if key not in self._keys:
                raise KeyError(key)
            value = self._made[key] = self._make(key)
        return value

    def get(self, key: K, default: Any = None) -> Any:  # type: ignore[override]  # Mapping.get's overloads, one body
        return self[key] if key in self._keys else default

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[K]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def items(self):
        return self._every().items()

    def values(self):
        return self._every().values()

    def _every(self) -> dict[K, V]:
        if self._all is None:
            self._all = {key: self[key] for key in self._keys}
        return self._all

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._every()!r})"
