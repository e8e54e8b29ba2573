"""A fast yes/no pre-check of a document against a (reference-free) JSON Schema.

jsonschema builds rich error objects and resolves keywords dynamically, which dominated load time
on large games. Valid documents are the common case, so `compile_schema` turns a schema into
nested closures that only answer "valid?"; only when that says no does `schemas.validate` run
jsonschema for the located, best-matched errors. A keyword this module does not know makes
`compile_schema` return None, and jsonschema alone is used: the answer never differs.
"""
from __future__ import annotations

import re
from typing import Callable

Check = Callable[[object], bool]

_TYPES: dict[str, Callable[[object], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}
_IGNORED = {"title", "description", "examples", "$comment", "default", "format", "$schema", "$id", "$defs",
            "readOnly", "writeOnly", "deprecated", "x-form"}


_HANDLED_ELSEWHERE = {"then", "else", "additionalProperties", "patternProperties"}


class _Unsupported(Exception):
    pass


def _same(a, b) -> bool:
    """JSON equality: booleans are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _compile(schema) -> Check:
    if schema is True:
        return lambda v: True
    if schema is False:
        return lambda v: False
    if not isinstance(schema, dict):
        raise _Unsupported(repr(schema))
    checks: list[Check] = []
    for key in schema:
        if key not in _HANDLERS and key not in _IGNORED and key not in _HANDLED_ELSEWHERE:
            raise _Unsupported(key)
    for key, handler in _HANDLERS.items():
        if key in schema:
            checks.append(handler(schema))
    if not checks:
        return lambda v: True
    return _chain(checks)


def _chain(checks: list[Check]) -> Check:
    """All of `checks`, as nested `and`s (a generator per value cost more than the checks themselves)."""
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        a, b = checks
        return lambda v: a(v) and b(v)
    a, b, c = checks[:3]
    if len(checks) == 3:
        return lambda v: a(v) and b(v) and c(v)
    rest = _chain(checks[3:])
    return lambda v: a(v) and b(v) and c(v) and rest(v)


_PY_TYPES = {"object": dict, "array": list, "string": str, "null": type(None)}


def _type(s) -> Check:
    names = s["type"] if isinstance(s["type"], list) else [s["type"]]
    if all(n in _PY_TYPES for n in names):  # the common case: one isinstance call
        kinds = tuple(_PY_TYPES[n] for n in names)
        return lambda v: isinstance(v, kinds)
    fns = [_TYPES[n] for n in names]
    if len(fns) == 1:
        return fns[0]
    if len(fns) == 2:   # e.g. a hex id, string or integer: no generator per value
        a, b = fns
        return lambda v: a(v) or b(v)
    return lambda v: any(f(v) for f in fns)


def _object(s) -> Check:
    props = {k: _compile(v) for k, v in s.get("properties", {}).items()}
    patterns = [(re.compile(p), _compile(v)) for p, v in s.get("patternProperties", {}).items()]
    extra = s.get("additionalProperties", True)
    extra_check = _compile(extra) if "additionalProperties" in s else None

    if not patterns:   # the common case: one dict lookup per key
        get = props.get

        def plain(v) -> bool:
            if not isinstance(v, dict):
                return True
            for k, item in v.items():
                c = get(k)
                if c is None:
                    if extra_check is not None and not extra_check(item):
                        return False
                elif not c(item):
                    return False
            return True
        return plain

    def check(v) -> bool:
        if not isinstance(v, dict):
            return True
        for k, item in v.items():
            matched = False
            if k in props:
                matched = True
                if not props[k](item):
                    return False
            for rx, c in patterns:
                if rx.search(k):
                    matched = True
                    if not c(item):
                        return False
            if not matched and extra_check is not None and not extra_check(item):
                return False
        return True
    return check


def _required(s) -> Check:
    req = frozenset(s["required"])
    return lambda v: not isinstance(v, dict) or req <= v.keys()


def _items(s) -> Check:
    c = _compile(s["items"])

    def check(v) -> bool:
        if isinstance(v, list):
            for x in v:
                if not c(x):
                    return False
        return True
    return check


def _enum(s) -> Check:
    allowed = list(s["enum"])
    if all(isinstance(a, str) for a in allowed):   # strings only: a set lookup answers the same
        names = frozenset(allowed)
        return lambda v: type(v) is str and v in names
    return lambda v: any(_same(v, a) for a in allowed)


def _const(s) -> Check:
    want = s["const"]
    return lambda v: _same(v, want)


def _pattern(s) -> Check:
    rx = re.compile(s["pattern"])
    return lambda v: not isinstance(v, str) or rx.search(v) is not None


def _bound(key: str, op) -> Callable:
    def make(s) -> Check:
        limit = s[key]
        return lambda v: not isinstance(v, (int, float)) or isinstance(v, bool) or op(v, limit)
    return make


def _length(key: str, kind: type, op) -> Callable:
    def make(s) -> Check:
        limit = s[key]
        return lambda v: not isinstance(v, kind) or op(len(v), limit)
    return make


def _any_of(s) -> Check:
    cs = [_compile(x) for x in s["anyOf"]]

    def check(v) -> bool:
        for c in cs:
            if c(v):
                return True
        return False
    return check


def _one_of(s) -> Check:
    cs = [_compile(x) for x in s["oneOf"]]
    return lambda v: sum(1 for c in cs if c(v)) == 1


def _all_of(s) -> Check:
    cs = [_compile(x) for x in s["allOf"]]
    return lambda v: all(c(v) for c in cs)


def _not(s) -> Check:
    c = _compile(s["not"])
    return lambda v: not c(v)


def _if(s) -> Check:
    cond = _compile(s["if"])
    then = _compile(s.get("then", True))
    other = _compile(s.get("else", True))
    return lambda v: then(v) if cond(v) else other(v)


def _property_names(s) -> Check:
    c = _compile(s["propertyNames"])
    return lambda v: not isinstance(v, dict) or all(c(k) for k in v)


_HANDLERS: dict[str, Callable[[dict], Check]] = {
    "type": _type,
    "properties": _object,
    "required": _required,
    "items": _items,
    "enum": _enum,
    "const": _const,
    "pattern": _pattern,
    "minimum": _bound("minimum", lambda a, b: a >= b),
    "maximum": _bound("maximum", lambda a, b: a <= b),
    "exclusiveMinimum": _bound("exclusiveMinimum", lambda a, b: a > b),
    "exclusiveMaximum": _bound("exclusiveMaximum", lambda a, b: a < b),
    "minItems": _length("minItems", list, lambda a, b: a >= b),
    "maxItems": _length("maxItems", list, lambda a, b: a <= b),
    "minLength": _length("minLength", str, lambda a, b: a >= b),
    "minProperties": _length("minProperties", dict, lambda a, b: a >= b),
    "maxProperties": _length("maxProperties", dict, lambda a, b: a <= b),
    "maxLength": _length("maxLength", str, lambda a, b: a <= b),
    "anyOf": _any_of,
    "oneOf": _one_of,
    "allOf": _all_of,
    "not": _not,
    "if": _if,
    "propertyNames": _property_names,
}


def compile_schema(schema) -> Check | None:
    """A yes/no checker for `schema`, or None when it uses a keyword this module does not know."""
    try:
        return _compile(_normalise(schema))
    except _Unsupported:
        return None


def _normalise(schema):
    """Route additionalProperties/patternProperties through the `properties` handler."""
    if isinstance(schema, list):
        return [_normalise(x) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for k, v in schema.items():
        if k in ("properties", "patternProperties"):
            out[k] = {pk: _normalise(pv) for pk, pv in v.items()}
        else:
            out[k] = _normalise(v)
    if ("additionalProperties" in out or "patternProperties" in out) and "properties" not in out:
        out["properties"] = {}
    return out
