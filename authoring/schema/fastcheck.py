"""A fast yes/no pre-check of a document against a (reference-free) JSON Schema.

jsonschema builds rich error objects and resolves keywords dynamically, which dominated load time
on large games. Valid documents are the common case, so `compile_schema` writes a schema as Python
source (`_Writer`) that only answers "valid?"; only when that says no does `schemas.validate` run
jsonschema for the located, best-matched errors. A keyword this module does not know makes
`compile_schema` return None, and jsonschema alone is used: the answer never differs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import cast

Check = Callable[[object], bool]

_IGNORED = frozenset(
    {
        "title",
        "description",
        "examples",
        "$comment",
        "default",
        "format",
        "$schema",
        "$id",
        "$defs",
        "readOnly",
        "writeOnly",
        "deprecated",
        "x-form",
    }
)


_HANDLED_ELSEWHERE = frozenset({"then", "else", "additionalProperties", "patternProperties"})


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


_SCALAR_KEYS = (
    "type",
    "enum",
    "const",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
)
"""Keywords that look at the value itself: a schema of only these becomes one inline expression."""
_PY_TYPES: Mapping[str, type] = MappingProxyType({"object": dict, "array": list, "string": str, "null": type(None)})
_TYPE_EXPR = MappingProxyType(
    {
        "boolean": "isinstance({v}, bool)",
        "number": "(type({v}) is int or _number({v}))",
        "integer": "(type({v}) is int or _integer({v}))",
        "object": "isinstance({v}, dict)",
        "array": "isinstance({v}, list)",
        "string": "isinstance({v}, str)",
        "null": "{v} is None",
    }
)
"""Each JSON type as a test; a plain int (most numbers) is answered without a call."""
_BOUNDS = MappingProxyType({"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"})
_LENGTHS = MappingProxyType(
    {
        "minItems": (list, ">="),
        "maxItems": (list, "<="),
        "minLength": (str, ">="),
        "maxLength": (str, "<="),
        "minProperties": (dict, ">="),
        "maxProperties": (dict, "<="),
    }
)
_MISSING = object()


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _integer(v) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())


def _enum_any(v, allowed: list) -> bool:
    return any(_same(v, a) for a in allowed)


class _Writer:
    """Writes a schema as Python source: one function per schema that needs a loop or a branch, and
    one inline boolean expression per schema of scalar keywords only (most of them: a hex id, a name).

    The closures this replaced cost a Python call per keyword per value; here a list of 300 hex ids
    is one loop with the pattern test inline. `known` is the Python type a value is already known to
    have (its `type` was checked just before), so that the type guards of later keywords drop out."""

    def __init__(self) -> None:
        self.env: dict[str, object] = {
            "_same": _same,
            "_enum_any": _enum_any,
            "_number": _number,
            "_integer": _integer,
            "MISSING": _MISSING,
        }
        self.patterns: dict[str, str] = {}  # name -> a `pattern`'s text, compiled with the first function that uses it
        self.defs: list[tuple[str, str]] = []  # (name, source) of each function and lookup table
        self.written: dict[str, str] = {}  # a schema's repr -> its function (inlined $refs repeat)

    def const(self, value: object) -> str:
        name = f"k{len(self.env) + len(self.patterns)}"
        self.env[name] = value
        return name

    def pattern(self, text: str) -> str:
        """The name of the compiled regular expression `text` (compiled with the first function that uses
        it: a fresh process compiled some 80 patterns for files that use a few)."""
        name = f"k{len(self.env) + len(self.patterns)}"
        self.patterns[name] = text
        return name

    def check(self, schema, v: str, known: type | None = None) -> str:
        """A boolean expression that says whether the value named `v` is valid against `schema`."""
        if schema is True:
            return "True"
        if schema is False:
            return "False"
        if not isinstance(schema, dict):
            raise _Unsupported(repr(schema))
        for key in schema:
            if key not in _HANDLED and key not in _IGNORED and key not in _HANDLED_ELSEWHERE:
                raise _Unsupported(key)
        if all(k in _SCALAR_KEYS or k in _IGNORED or k in _HANDLED_ELSEWHERE for k in schema):
            return self.scalar(schema, v, known)
        return f"{self.function(schema)}({v})"

    def scalar(self, schema: dict, v: str, known: type | None) -> str:
        terms = []
        for key in _SCALAR_KEYS:
            if key in schema:
                term = self.term(key, schema[key], v, known)
                if key == "type":
                    known = _single_type(schema[key])
                if term != "True":
                    terms.append(term)
        return "(" + " and ".join(terms) + ")" if terms else "True"

    def term(self, key: str, value, v: str, known: type | None) -> str:
        """One scalar keyword as an expression (jsonschema's meaning: a keyword about strings passes
        any value that is no string, and so on)."""
        if key == "type":
            names = value if isinstance(value, list) else [value]
            if known is not None and all(n in _PY_TYPES for n in names):
                return "True" if any(_PY_TYPES[n] is known for n in names) else "False"
            return "(" + " or ".join(_TYPE_EXPR[n].format(v=v) for n in names) + ")"
        if key == "enum":
            if all(isinstance(a, str) for a in value):
                return f"(type({v}) is str and {v} in {self.const(frozenset(value))})"
            return f"_enum_any({v}, {self.const(list(value))})"
        if key == "const":
            if isinstance(value, str):
                return f"(type({v}) is str and {v} == {self.const(value)})"
            return f"_same({v}, {self.const(value)})"
        if key == "pattern":
            test = f"{self.pattern(value)}.search({v}) is not None"
            return _guarded(str, known, v, test)
        if key in _BOUNDS:
            if known is int:  # a number (not a bool): its `type` said so
                return f"{v} {_BOUNDS[key]} {self.const(value)}"
            if known is not None:
                return "True"  # a known string, list, mapping or null is no number
            limit = self.const(value)
            return f"(not isinstance({v}, (int, float)) or isinstance({v}, bool) or {v} {_BOUNDS[key]} {limit})"
        kind, op = _LENGTHS[key]
        return _guarded(kind, known, v, f"len({v}) {op} {self.const(value)}")

    def function(self, schema: dict) -> str:
        """A function of one value `v` that returns False at the first failed keyword."""
        key = repr(schema)  # the inlined copies of one definition list its keys in the same order
        if key not in self.written:
            self.written[key] = self._function(schema)
        return self.written[key]

    def _function(self, schema: dict) -> str:
        name, slot = f"f{len(self.defs)}", len(self.defs)
        self.defs.append((name, ""))  # reserve the slot: nested schemas write their functions meanwhile
        body: list[str] = []
        known: type | None = None
        scalars = {k: schema[k] for k in _SCALAR_KEYS if k in schema}
        if scalars:
            test = self.scalar(scalars, "v", None)
            if test != "True":
                body.append(f"if not {test}: return False")
            known = _single_type(schema["type"]) if "type" in schema else None
        for key in _STRUCTURAL:
            if key in schema:
                body += getattr(self, "_" + key.lower())(schema, known)
        self.defs[slot] = (
            name,
            "\n".join([f"def {name}(v):"] + ["    " + line for line in body] + ["    return True"]),
        )
        return name

    def _guard(self, kind: type, known: type | None, lines: list[str]) -> list[str]:
        """`lines` (about a value of type `kind`) under an isinstance test, unless the type is known."""
        if known is kind:
            return lines
        if known is not None:
            return []
        return [f"if isinstance(v, {kind.__name__}):"] + ["    " + line for line in lines]

    def _properties(self, schema: dict, known: type | None) -> list[str]:
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True) if "additionalProperties" in schema else None
        if schema.get("patternProperties"):
            return self._guard(dict, known, self._pattern_loop(props, schema["patternProperties"], extra))
        lines = []
        names = self.const(frozenset(props))
        if extra is False:
            lines.append(f"if not v.keys() <= {names}: return False")
        elif extra is not None and extra is not True and props:
            lines += [
                "for k, x in v.items():",
                f"    if k not in {names} and not {self.check(extra, 'x')}: return False",
            ]
        elif extra is not None and extra is not True:  # a mapping of any keys (value id -> printed value)
            lines += ["for x in v.values():", f"    if not {self.check(extra, 'x')}: return False"]
        for key, sub in props.items():
            test = self.check(sub, "x")
            if test != "True":
                lines += [f"x = v.get({key!r}, MISSING)", f"if x is not MISSING and not {test}: return False"]
        return self._guard(dict, known, lines)

    def _pattern_loop(self, props: dict, patterns: dict, extra) -> list[str]:
        """The general object loop, for a schema with patternProperties (a key may match several)."""
        table, slot = f"t{len(self.defs)}", len(self.defs)
        self.defs.append((table, ""))
        entries = ", ".join(f"{k!r}: lambda x: {self.check(sub, 'x')}" for k, sub in props.items())
        self.defs[slot] = (table, f"{table} = {{{entries}}}")
        lines = [
            "for k, x in v.items():",
            f"    c = {table}.get(k)",
            "    m = c is not None",
            "    if m and not c(x): return False",
        ]
        for rx, sub in patterns.items():
            lines += [
                f"    if {self.pattern(rx)}.search(k):",
                "        m = True",
                f"        if not {self.check(sub, 'x')}: return False",
            ]
        if extra is not None:
            lines.append(f"    if not m and not {self.check(extra, 'x')}: return False")
        return lines

    def _required(self, schema: dict, known: type | None) -> list[str]:
        return self._guard(
            dict, known, [f"if not {self.const(frozenset(schema['required']))} <= v.keys(): return False"]
        )

    def _items(self, schema: dict, known: type | None) -> list[str]:
        test = self.check(schema["items"], "x")
        if test == "True":
            return []
        return self._guard(list, known, ["for x in v:", f"    if not {test}: return False"])

    def _anyof(self, schema: dict, known: type | None) -> list[str]:
        return [f"if not ({' or '.join(self.check(s, 'v', known) for s in schema['anyOf'])}): return False"]

    def _oneof(self, schema: dict, known: type | None) -> list[str]:
        count = " + ".join(f"(1 if {self.check(s, 'v', known)} else 0)" for s in schema["oneOf"])
        return [f"if ({count}) != 1: return False"]

    def _allof(self, schema: dict, known: type | None) -> list[str]:
        return [f"if not ({' and '.join(self.check(s, 'v', known) for s in schema['allOf'])}): return False"]

    def _not(self, schema: dict, known: type | None) -> list[str]:
        return [f"if {self.check(schema['not'], 'v', known)}: return False"]

    def _if(self, schema: dict, known: type | None) -> list[str]:
        then = self.check(schema.get("then", True), "v", known)
        other = self.check(schema.get("else", True), "v", known)
        return [
            f"if {self.check(schema['if'], 'v', known)}:",
            f"    if not {then}: return False",
            "else:",
            f"    if not {other}: return False",
        ]

    def _propertynames(self, schema: dict, known: type | None) -> list[str]:
        test = self.check(schema["propertyNames"], "k", str)
        return self._guard(dict, known, ["for k in v:", f"    if not {test}: return False"])

    def build(self, schema) -> Check:
        """The checker of `schema`. Each function is compiled when first called: compiling all of them
        took longer than checking a game, and most (the many kinds of set-up rule) are never needed."""
        top = self.check(schema, "v")
        env = dict(self.env)
        for name, source in self.defs:
            if source.startswith("def "):
                env[name] = _on_first_call(env, name, source, self.patterns)
            else:  # a patternProperties lookup table (rare): its lambdas call the functions by name
                _run(source, env, self.patterns)
        _run(f"def check(v):\n    return bool({top})", env, self.patterns)
        return cast(Check, env["check"])  # the function the line above defines


_NAME = re.compile(r"\bk\d+\b")


def _run(source: str, env: dict, patterns: Mapping[str, str]) -> None:
    """Compile and run `source` in `env`, with the regular expressions it names compiled first."""
    for name in _NAME.findall(source):
        if name in patterns and name not in env:
            env[name] = re.compile(patterns[name])
    exec(compile(source, "<fastcheck>", "exec"), env)  # noqa: S102 - written by `_Writer` from our schemas


def _on_first_call(env: dict, name: str, source: str, patterns: Mapping[str, str]) -> Check:
    """A stand-in for the function `name` that compiles its `source` into `env` (replacing itself) and runs it."""

    def first(v) -> bool:
        _run(source, env, patterns)
        return env[name](v)

    return first


def _single_type(value) -> type | None:
    """The one Python type a `type` keyword admits, if it admits exactly one of dict, list, str, None,
    or `int` for a number that is no bool (JSON "integer" or "number", either of which may be a float)."""
    names = value if isinstance(value, list) else [value]
    if len(names) != 1:
        return None
    return int if names[0] in ("integer", "number") else _PY_TYPES.get(names[0])


def _guarded(kind: type, known: type | None, v: str, test: str) -> str:
    if known is kind:
        return test
    if known is not None:
        return "True"
    return f"(not isinstance({v}, {kind.__name__}) or {test})"


_STRUCTURAL = ("properties", "required", "items", "anyOf", "oneOf", "allOf", "not", "if", "propertyNames")
_HANDLED = frozenset(_SCALAR_KEYS + _STRUCTURAL)


def compile_schema(schema) -> Check | None:
    """A yes/no checker for `schema`, or None when it uses a keyword this module does not know."""
    try:
        return _Writer().build(_normalise(schema))
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
