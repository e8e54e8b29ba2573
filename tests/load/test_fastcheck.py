"""The fast pre-check must agree with jsonschema on every document: same yes/no answer, always."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.load import schemas
from authoring.load.fastcheck import compile_schema
from authoring.load.source import load_source

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


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3000), st.floats(allow_nan=False, width=32),
                    st.sampled_from(["", "x", "0101", "#12ab3f", "flat", "0.5in", "bad id!", "river", "full"]))


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


MUTABLE = [(p, load_source(p).data) for p in DATA if p.stat().st_size < 60_000 and _kind(load_source(p).data)]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutations_agree(data):
    path, original = data.draw(st.sampled_from(MUTABLE))
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
