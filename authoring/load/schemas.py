"""JSON Schema validation (Draft 2020-12) with errors mapped back to file:line:col.

The schemas in `schemas/` (package data, `authoring.bundled`) are the single source of structure (house
style 14); this module only turns jsonschema's errors into located diagnostics, with a "did you mean" for
unknown keys.
"""

from __future__ import annotations

import difflib
import itertools
import json
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from authoring.diagnostics import Diagnostic, Severity
from authoring.diagnostics.codes import (
    HW_SCHEMA_001,
    HW_SCHEMA_002,
    HW_SCHEMA_003,
    HW_SCHEMA_004,
    HW_SCHEMA_005,
    HW_SCHEMA_007,
    HW_SCHEMA_008,
)
from authoring.diagnostics.limits import MAX_PER_FILE
from authoring.diagnostics.limits import summary as limit_summary
from authoring.load.source import Source
from authoring.schema.documents import KINDS, SCHEMA_DIR, flat, inlined, schema_text  # noqa: F401 - the loader's view of them
from authoring.schema.fastcheck import compile_schema

if TYPE_CHECKING:  # jsonschema is imported only when a file fails the fast check (its import is slow)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

MAX_SCHEMA_ERRORS = 1000  # a file with a million bad values reports the first thousand, in bounded memory


@cache
def validator(kind: str) -> Draft202012Validator:
    """The jsonschema validator of file `kind` (words a finding). Process-wide, keyed by the kind: built from
    the bundled schema, which no process writes."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(flat(kind))


@cache
def _fast(kind: str):
    """The compiled fast check of file `kind`; process-wide for the reason `validator` is."""
    return compile_schema(flat(kind))


def validate(src: Source, kind: str) -> list[Diagnostic]:
    """All schema errors of one file, one diagnostic per failing location (best match of each)."""
    fast = _fast(kind)
    if fast is not None and fast(src.data):
        return []
    from jsonschema.exceptions import best_match

    errors = list(itertools.islice(validator(kind).iter_errors(src.data), MAX_SCHEMA_ERRORS))
    by_path: dict[tuple, list[ValidationError]] = {}
    for err in errors:
        by_path.setdefault(tuple(err.absolute_path), []).append(err)
    diags: list[Diagnostic] = []
    for path, errs in by_path.items():
        diags.extend(_describe(src, path, best_match(errs)))
    return diags


_MOVED = MappingProxyType(
    {
        ("counter_layouts", "carry"): "a carried value is declared once, on the value: "
        "`values: [{id: range, name: Range, carried: true}]` (the sheets, the module, the preview and the rules "
        "all read it)",
    }
)
"""(parent key, key) of keys the format moved elsewhere, and where they went."""


def _describe(src: Source, path: tuple, err: ValidationError) -> list[Diagnostic]:
    where = _where(path)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = sorted(err.schema.get("properties", {}))
        out = []
        unknown = sorted(k for k in err.instance if k not in allowed)
        if len(unknown) > MAX_PER_FILE:  # a file of 15,000 unknown keys: 200 findings and their count
            first_out = unknown[MAX_PER_FILE]
            out.append(limit_summary(Severity.ERROR, src.key_loc(path + (first_out,)), len(unknown) - MAX_PER_FILE))
            unknown = unknown[:MAX_PER_FILE]
        for key in unknown:
            close = difflib.get_close_matches(key, allowed, n=1)
            parent = next((str(p) for p in reversed(path) if isinstance(p, str)), "")
            hint = f"did you mean {close[0]!r}?" if close else f"allowed keys here: {', '.join(allowed)}"
            hint = _MOVED.get((parent, key), hint)
            out.append(
                HW_SCHEMA_002.at(
                    f"unknown key {key!r} in {where}",
                    src.key_loc(path + (key,)),
                    help=hint,
                    path=path + (key,),
                )
            )
        if out:
            return out
    if err.validator == "required":
        return [
            HW_SCHEMA_003.at(
                f"{where} is missing a required field: {err.message.split(' ')[0]}",
                src.loc(path),
                help="add the field; see `hexwright schema` for its meaning",
                path=path,
            )
        ]
    if err.validator == "type":
        expected = err.validator_value if isinstance(err.validator_value, str) else " or ".join(err.validator_value)
        return [
            HW_SCHEMA_004.at(
                f"{where} must be {_article(expected)}, got {_show(err.instance)}",
                src.loc(path),
                help=_schema_help(err),
                path=path,
            )
        ]
    if err.validator in ("enum", "const"):
        allowed = err.validator_value if err.validator == "enum" else [err.validator_value]
        close = difflib.get_close_matches(str(err.instance), [str(a) for a in allowed], n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"expected one of: {', '.join(map(str, allowed))}"
        return [
            HW_SCHEMA_005.at(
                f"{where}: {_show(err.instance)} is not one of {allowed}",
                src.loc(path),
                help=hint,
                path=path,
            )
        ]
    if err.validator == "pattern":
        form = err.schema.get("x-form") if isinstance(err.schema, dict) else None
        noun, _, how = (form or "").partition(": ")
        return [
            HW_SCHEMA_007.at(
                f"{where}: {_show(err.instance)} is not {noun or 'in the expected form'}",
                src.loc(path),
                help=f"write {how}" if how else _schema_help(err),
                path=path,
            )
        ]
    if err.validator in _LIMITS:
        return [_limit(src, path, where, err)]
    return [HW_SCHEMA_001.at(f"{where}: {err.message}", src.loc(path), help=_schema_help(err), path=path)]


_LIMITS = ("maxLength", "maxItems", "maximum", "minimum", "exclusiveMinimum", "exclusiveMaximum")


def _limit(src: Source, path: tuple, where: str, err: ValidationError) -> Diagnostic:
    """A value over one of the schema's limits, in words, without echoing a huge value (HW-SCHEMA-008)."""
    v, bound = err.instance, err.validator_value
    if err.validator == "maxLength":
        what = f"text is {len(v):,} characters long, over the limit of {bound:,}"
        fix = "shorten it: every text has a limit, so that no build stage can be made to run for ever"
    elif err.validator == "maxItems":
        what = f"list has {len(v):,} entries, over the limit of {bound:,}"
        fix = "split it (a table of more rows would not fit a printable chart)"
    else:
        shown = _show(v) if len(str(v)) <= 40 else f"a number of {len(str(v))} digits"
        word = {
            "maximum": "over the maximum of",
            "exclusiveMaximum": "not below",
            "minimum": "below the minimum of",
            "exclusiveMinimum": "not above",
        }[err.validator]
        what = f"{shown} is {word} {bound:,}" if isinstance(bound, int) else f"{shown} is {word} {bound}"
        fix = _schema_help(err) or "use a value in range"
    return HW_SCHEMA_008.at(f"{where}: {what}", src.loc(path), help=fix, path=path)


def _schema_help(err: ValidationError) -> str:
    desc = err.schema.get("description") if isinstance(err.schema, dict) else None
    return desc or ""


def _where(path: tuple) -> str:
    if not path:
        return "the document"
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return f"`{out}`"


def _article(t: str) -> str:
    names = {
        "object": "a mapping",
        "array": "a list",
        "string": "a string",
        "integer": "an integer",
        "number": "a number",
        "boolean": "true or false",
        "null": "empty",
    }
    return names.get(t, t)


def _show(value) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def counter_properties() -> dict[str, dict]:
    """The fields of one counter (name -> flattened schema), in schema order: the counters CSV's columns
    (read once, by the cached `columns.counter_columns`)."""
    return dict(flat("counters")["properties"]["counters"]["items"]["properties"])
