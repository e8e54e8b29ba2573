"""Pause Python's cyclic garbage collector while a game loads and is checked.

Loading builds about a million small containers (parsed values, locations, model objects) and
frees almost none of them until it ends. Each allocation burst triggers a collection that walks
every live object, so with the collector on, loading a large game takes several times as long
(docs/performance.md). Loading makes almost no reference cycles, and whatever it does make is
collected as soon as the collector runs again after the load.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)


def gc_paused(fn: F) -> F:
    """Run `fn` with the cyclic collector off (and restore its state after, also on errors or nesting)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not gc.isenabled():
            return fn(*args, **kwargs)
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.enable()

    return wrapper  # type: ignore[return-value]
