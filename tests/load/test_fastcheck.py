"""The fast pre-check must agree with jsonschema on every document: same yes/no answer, always."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.load import schemas
from authoring.load.source import load_source
from authoring.schema import documents
from authoring.schema.fastcheck import compile_schema

ROOT = Path(__file__).resolve().parents[2]
DATA = sorted(p for d in ("maps", "counters", "scenarios") for p in (ROOT / d).rglob("*.yaml"))
DATA += sorted((ROOT / "tests" / "load" / "mini").rglob("*.yaml"))


def _kind(data) -> str | None:
    return data.get("kind") if isinstance(data, dict) and data.get("kind") in schemas.KINDS else None


def _agree(kind: str, data) -> None:
    fast = schemas._fast(kind)
    assert fast is not None, f"{kind} schema uses a keyword fastcheck does not know"
    slow_ok = not any(True for _ in schemas.validator(kind).iter_errors(data))
    assert fast(data) == slow_ok


@pytest.mark.parametrize("path", DATA, ids=[str(p.relative_to(ROOT)) for p in DATA])
def test_bundled_files_agree(path: Path):
    data = load_source(path).data
    if _kind(data):
        _agree(_kind(data), data)


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3000),
    st.floats(allow_nan=False, width=32),
    st.sampled_from(["", "x", "0101", "#12ab3f", "flat", "0.5in", "bad id!", "river", "full"]),
)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


def _set(doc, path, value):
    node = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


@functools.cache
def _mutable() -> list:
    """The documents the mutation tests start from (read when one runs, not when the suite is collected)."""
    return [(p, load_source(p).data) for p in DATA if p.stat().st_size < 60_000 and _kind(load_source(p).data)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutations_agree(data):
    path, original = data.draw(st.sampled_from(_mutable()))
    doc = copy.deepcopy(original)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        target = data.draw(st.sampled_from(paths))
        action = data.draw(st.sampled_from(["scalar", "delete", "list", "dict", "extra"]))
        parent = doc
        for p in target[:-1]:
            parent = parent[p]
        if action == "delete" and isinstance(parent, dict):
            del parent[target[-1]]
        elif action == "extra" and isinstance(parent, dict):
            parent["zz_unknown"] = 1
        elif action == "list":
            _set(doc, target, [data.draw(SCALARS)])
        elif action == "dict":
            _set(doc, target, {"id": data.draw(SCALARS)})
        else:
            _set(doc, target, data.draw(SCALARS))
    _agree(original["kind"], doc)


def test_unknown_keyword_falls_back():
    assert compile_schema({"type": "object", "dependentSchemas": {}}) is None
    assert compile_schema({"type": "string"})("x") is True


@pytest.mark.parametrize("keyword", ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"])
@pytest.mark.parametrize("typed", [None, "number", "integer"])
def test_bounds_agree_at_the_bound(keyword, typed):
    """Issue 48: a bound's edge (`hex_size: 0` against `exclusiveMinimum: 0`) is answered as jsonschema does,
    with and without a `type` before it (the inline form differs)."""
    from jsonschema import Draft202012Validator

    schema = {**({"type": typed} if typed else {}), keyword: 0}
    fast, slow = compile_schema(schema), Draft202012Validator(schema)
    for value in (-1, 0, 1, -0.5, 0.0, 0.5, True, "0"):
        assert fast(value) == slow.is_valid(value), (schema, value)


def _inline_with_referencing(node, base: str, registry):
    """The inlining `schemas._inline` did before it resolved references itself, through `referencing`."""
    from urllib.parse import urljoin

    if isinstance(node, list):
        return [_inline_with_referencing(x, base, registry) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    if "$ref" in node:
        url = urljoin(base, node["$ref"])
        resolved = registry.resolver(base_uri=base).lookup(url)
        out.update(_inline_with_referencing(resolved.contents, url.split("#")[0], registry))
    for key, value in node.items():
        if key in ("$ref", "$schema", "$id", "$defs") or key in documents._ANNOTATIONS:
            continue
        if key in ("properties", "patternProperties"):
            out[key] = {k: _inline_with_referencing(v, base, registry) for k, v in value.items()}
        else:
            out[key] = _inline_with_referencing(value, base, registry)
    return out


def test_inlined_schemas_equal_what_referencing_resolves():
    """`documents._lookup` (a few lines instead of importing `referencing`) finds what the library finds."""
    import json

    from referencing import Registry, Resource

    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(schemas.SCHEMA_DIR.glob("*.schema.json"))]
    registry = Registry().with_resources((d["$id"], Resource.from_contents(d)) for d in docs)
    for kind in schemas.KINDS:
        doc = json.loads(schemas.schema_text(kind))
        assert schemas.flat(kind) == _inline_with_referencing(doc, doc["$id"], registry), kind
    from authoring.rules.params import RULES_SCHEMA_ID

    for definition in ("setupRule", "stacking"):
        url = f"{RULES_SCHEMA_ID}#/$defs/{definition}"
        assert schemas.inlined(url) == _inline_with_referencing({"$ref": url}, url.split("#")[0], registry)


@functools.cache
def _rule_specs() -> list:
    """The bundled games' set-up rules and stacking rules (read when the test runs)."""
    specs: list = []
    for path in sorted((ROOT / "scenarios").glob("*/*.yaml")):
        doc = load_source(path).data
        if isinstance(doc, dict):
            specs += [r for r in doc.get("setup_rules", ()) or () if isinstance(r, dict)]
            specs += [dict(doc["stacking"])] if isinstance(doc.get("stacking"), dict) else []
    return specs


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_rule_parameters_agree(data):
    """The rules engine's fast check of a rule's parameters answers as jsonschema does (which then words
    the finding), on the bundled rules and mutations of them."""
    from authoring.rules import params

    rule = copy.deepcopy(data.draw(st.sampled_from(_rule_specs())))
    definition = "setupRule" if "type" in rule else "stacking"
    for _ in range(data.draw(st.integers(0, 2))):
        paths = [p for p in _paths(rule) if p]
        if not paths:
            break
        target = data.draw(st.sampled_from(paths))
        if data.draw(st.booleans()):
            _set(rule, target, data.draw(SCALARS))
        else:
            rule["zz_unknown"] = data.draw(SCALARS)
    fast = params._fast(definition)
    assert fast is not None
    assert fast(rule) == (not any(True for _ in params._validator(definition).iter_errors(rule)))
