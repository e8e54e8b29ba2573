"""The schema files by `$id`, and copies with every `$ref` inlined (what `fastcheck` compiles and jsonschema
validates quickly). The files in schemas/ stay the one source of structure."""

from __future__ import annotations

import json
from functools import cache
from urllib.parse import unquote, urljoin

from authoring.bundled import schema_dir

SCHEMA_DIR = schema_dir()
KINDS = ("game", "map", "counters", "tables", "scenario", "setup-card")


@cache
def _documents() -> dict[str, dict]:
    """Every schema file by its `$id`. Process-wide: the bundled schemas, package data no process writes (the
    fingerprint covers them), read only by `_lookup` here and never handed out."""
    docs = {}
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        docs[doc["$id"]] = doc
    return docs


def _lookup(url: str):
    """The schema a `$ref` URL (already joined to its base) names: a file by `$id`, then a JSON pointer.

    The schemas only point into each other's `$defs`, so this is all of RFC 6901 they need; a test
    checks that the inlined schemas equal those the `referencing` library resolves."""
    doc_url, _, pointer = url.partition("#")
    node = _documents()[doc_url]
    for part in unquote(pointer).split("/")[1:] if pointer else ():
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def schema_text(kind: str) -> str:
    return (SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8")


_ANNOTATIONS = frozenset({"title", "examples", "$comment"})


def _inline(node, base: str, depth: int = 0, memo: dict | None = None):
    """A copy of a schema with every `$ref` replaced by its target, and annotations dropped.

    The files in schemas/ stay the source of truth; this copy only makes validation fast:
    resolving tens of thousands of references per file dominated load time. `memo`: each target already
    inlined in this copy, by its URL (a definition referred to from many places is inlined once and shared
    within the copy; nothing changes it).
    """
    if depth > 50:
        raise ValueError("schema references nest too deeply (a cycle?)")
    memo = {} if memo is None else memo
    if isinstance(node, list):
        return [_inline(x, base, depth, memo) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    if "$ref" in node:
        url = urljoin(base, node["$ref"])
        if url not in memo:
            memo[url] = _inline(_lookup(url), url.split("#")[0], depth + 1, memo)
        out.update(memo[url])
    for key, value in node.items():
        if key in ("$ref", "$schema", "$id", "$defs") or key in _ANNOTATIONS:
            continue
        if key in ("properties", "patternProperties"):
            out[key] = {k: _inline(v, base, depth, memo) for k, v in value.items()}
        else:
            out[key] = _inline(value, base, depth, memo)
    return out


def flat(kind: str) -> dict:
    """The bundled schema of file `kind`, its references inlined: a new dict each call, the caller's own (the
    validators that keep it are cached per kind in `load.schemas`)."""
    doc = json.loads(schema_text(kind))
    return _inline(doc, doc["$id"])


def inlined(url: str) -> dict:
    """The schema an absolute `$ref` URL names, with its references inlined (for `fastcheck`)."""
    return _inline({"$ref": url}, url.split("#")[0])


def inline_document(doc: dict) -> dict:
    """A schema kept outside schemas/ (the preview's request bodies) with its `$ref`s into schemas/ inlined."""
    return _inline(doc, doc["$id"])
