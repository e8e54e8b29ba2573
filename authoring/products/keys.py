"""The one key recipe: a canonical text of the model slice an output shows, digested with the fingerprint.

`canonical` writes model data stably (dataclass fields by name, mappings sorted, source positions left out,
so moving a line in a YAML file changes no key); `digest` hashes it. Every product's key
(`products.catalogue`) starts from `code_version()` (the `fingerprint`: hexwright's code, fonts, schemas,
library versions) and adds exactly the data that product shows: same key, same bytes.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Mapping
from types import MappingProxyType

from authoring.products.fingerprint import fingerprint, with_options

__all__ = (
    "Memo",
    "canonical",
    "canonical_except",
    "code_version",
    "digest",
    "digest_state",
    "fingerprint",
    "with_options",
)

_SKIPPED_FIELDS = frozenset({"loc", "unit_locs", "hex_set_locs", "root", "path", "code_loc"})


Memo = dict[int, tuple[object, str]]
"""Each dataclass instance's canonical text, by identity (the instance is kept, so its id is not reused):
the keys of one module walk the same maps, terrain and counters many times; a caller that takes several
digests of the same model passes one `Memo` to all of them (the model does not change meanwhile)."""


def canonical(value: object, memo: Memo | None = None) -> str:
    """A stable text form of model data: dataclass fields by name, mappings sorted, no locations."""
    out: list[str] = []
    _walk(value, out, memo)
    return "".join(out)


_PLAIN = (str, int, float, bool, type(None))


@functools.cache
def _fields_of(kind: type) -> tuple[str, ...] | None:
    """The dataclass fields of `kind` in canonical order, or None for a type that is no dataclass."""
    is_class = dataclasses.is_dataclass(kind) and isinstance(kind, type)
    return tuple(f.name for f in dataclasses.fields(kind) if f.name not in _SKIPPED_FIELDS) if is_class else None


def _walk(value: object, out: list[str], memo: Memo | None) -> None:
    kind = type(value)
    if kind in _PLAIN:
        out.append(repr(value))
    elif kind is tuple or kind is list:
        _walk_items(value, out, memo)  # type: ignore[arg-type]
    elif (names := _fields_of(kind)) is not None:  # type: ignore[arg-type]  # a type is hashable
        _walk_dataclass(value, kind, names, out, memo)
    elif isinstance(value, (dict, MappingProxyType, Mapping)):
        made_from = getattr(value, "made_from", None)
        if made_from is not None:  # a lazy mapping (a map's hexes): what it is made from, not every value made
            out.append(kind.__name__ + "<")
            _walk(made_from(), out, memo)
            out.append(">")
            return
        out.append("{")
        keyed = sorted(zip(map(_key_text, value), value), key=_first)  # each key's text made once
        for text, key in keyed:
            out.append(text + ":")
            item = value[key]
            if type(item) in _PLAIN:
                out.append(repr(item))
            else:
                _walk(item, out, memo)
            out.append(",")
        out.append("}")
    elif isinstance(value, (set, frozenset)):
        out.append("{" + ",".join(sorted(repr(v) for v in value)) + "}")
    elif isinstance(value, tuple):
        out.append(repr(value))
    else:
        out.append(repr(value))


def _key_text(key: object) -> str:
    """A mapping key's text: a hex or hexside (a named tuple of numbers) by its type's name and its numbers,
    without the named tuple's `__repr__` (Python code, run for each of a map's thousands of hexes)."""
    kind = type(key)
    if kind in _PLAIN or not issubclass(kind, tuple):
        return repr(key)
    return kind.__name__ + tuple.__repr__(key)


def _first(pair: tuple[str, object]) -> str:
    return pair[0]


def _walk_items(items: list | tuple, out: list[str], memo: Memo | None) -> None:
    """`[a,b,]`: plain items written here, the rest walked (most items of the model are plain)."""
    out.append("[")
    for item in items:
        if type(item) in _PLAIN:
            out.append(repr(item))
        else:
            _walk(item, out, memo)
        out.append(",")
    out.append("]")


def _walk_dataclass(value: object, kind: type, names: tuple[str, ...], out: list[str], memo: Memo | None) -> None:
    if memo is not None:
        known = memo.get(id(value))
        if known is not None and known[0] is value:
            out.append(known[1])
            return
    part = [kind.__name__ + "("]
    for name in names:
        field = getattr(value, name)
        if type(field) in _PLAIN:
            part.append(f"{name}={field!r},")
        else:
            part.append(name + "=")
            _walk(field, part, memo)
            part.append(",")
    part.append(")")
    text = "".join(part)
    if memo is not None:
        memo[id(value)] = (value, text)
    out.append(text)


def canonical_except(value: object, *skipped: str) -> str:
    """`canonical(value)` of a dataclass without the named fields (a counter without its faces, for the
    key of one face), made without copying the object."""
    kind = type(value)
    names = _fields_of(kind)  # type: ignore[arg-type]  # a type is hashable
    if names is None:
        raise TypeError(f"Expected a dataclass but received: {kind.__name__}")
    out: list[str] = []
    _walk_dataclass(value, kind, tuple(n for n in names if n not in skipped), out, None)
    return "".join(out)


def digest(*parts: object, memo: Memo | None = None) -> str:
    """sha256 of the canonical form of `parts`, hex (`memo`: see `Memo`)."""
    return digest_state(None, *parts, memo=memo).hexdigest()


def digest_state(state, *parts: object, memo: Memo | None = None):
    """The sha256 state after `state` (None: none yet) and `parts`: `digest_state(digest_state(None, *a), *b)
    .hexdigest() == digest(*a, *b)`, so keys sharing their first parts take those once."""
    h = hashlib.sha256() if state is None else state.copy()
    for part in parts:
        h.update(canonical(part, memo).encode("utf-8"))
        h.update(b"\x00")
    return h


def code_version() -> str:
    """What every image key starts from (`fingerprint`: hexwright's code, fonts, schemas, library versions):
    new drawing code, a new font or a new Pillow invalidates the cache."""
    return fingerprint()
