"""Process tuning, in one place: Python's cyclic garbage collector and the C library's free memory.

A build holds a loaded game (about a million small objects: parsed values, locations, model records) for
its whole length and makes almost no reference cycles. So the collector is paused while a game loads and
is checked (`gc_paused`), the loaded game is kept out of later passes (`kept`, `frozen_model`), and the
objects left at exit are frozen rather than walked (`at_exit`). Forked drawing workers collect as usual
(`in_worker`) and hand freed memory back to the system between jobs when memory is shared (`trim`).
docs/performance.md keeps the figures.

`HEXWRIGHT_TUNING=off` in the environment switches all of it off (to measure it, or to rule it out).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

F = TypeVar("F", bound=Callable)
T = TypeVar("T")

SWITCH = "HEXWRIGHT_TUNING"
"""The environment variable that switches the tuning off (`off`)."""


def tuned() -> bool:
    """Whether the tuning applies (read each time: a test or a bench may switch it)."""
    return os.environ.get(SWITCH, "").lower() != "off"


def gc_paused(fn: F) -> F:
    """Run `fn` with the cyclic collector off (and restore its state after, also on errors or nesting)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not gc.isenabled() or not tuned():
            return fn(*args, **kwargs)
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.enable()

    return wrapper  # type: ignore[return-value]


@contextmanager
def kept(load: Callable[[], T]) -> Iterator[T]:
    """``load()`` with the collector off, what it made then kept out of the collector's passes until the
    block ends: it stays loaded for the whole block, and a pass over a freshly loaded game (all of it
    young) walks every object in it."""
    if not tuned():
        yield load()
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        made = load()
        gc.freeze()
    finally:
        if enabled:
            gc.enable()
    try:
        yield made
    finally:
        gc.unfreeze()


@contextmanager
def frozen_model() -> Iterator[None]:
    """No collection passes in the block, and the objects that exist before it (the loaded model) kept out
    of later full passes: a module build's many small, acyclic objects made the collector walk the model
    again and again. Drawing workers collect as usual (`in_worker`)."""
    if not tuned():
        yield
        return
    first, enabled = gc.get_freeze_count() == 0, gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        if first:
            gc.unfreeze()


def in_worker() -> None:
    """A forked drawing worker collects as usual, whatever its parent paused."""
    gc.enable()


def at_exit() -> None:
    """The command ends: freeze what is left, so the interpreter's last collection does not walk every
    object of the loaded game to free memory the operating system takes back at once."""
    if tuned():
        gc.freeze()


def trim() -> None:
    """Hand the C library's freed heap pages back to the system (glibc; elsewhere nothing)."""
    c = libc()
    if c is not None and hasattr(c, "malloc_trim") and tuned():
        c.malloc_trim(0)


@functools.cache
def libc():
    """The C library (None where ctypes cannot open it), opened once per process: it cannot change."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
