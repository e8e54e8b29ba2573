"""What every cache keys on besides its data: one fingerprint of the code and the libraries that draw.

A stage stamp, the module's manifest and every cached image are made under `fingerprint()`: hexwright's
code (every source file of the package, the model's included), its schemas and bundled fonts, and the
versions of Python and of the libraries whose bytes end up in an output (Pillow with its FreeType and
zlib, resvg, img2pdf, lxml, numpy, shapely). Any of them changed, and every cache misses. The options
of a build are added by each cache (`with_options`).
"""
from __future__ import annotations

import hashlib
import json
import sys
import zlib
from functools import lru_cache
from importlib import metadata
from pathlib import Path

CODE_SUFFIXES = (".py", ".ttf", ".otf", ".json")
"""The package's files that decide what an output holds: its code, its bundled fonts, its data."""
LIBRARIES = ("pillow", "resvg-py", "img2pdf", "lxml", "numpy", "shapely", "pyyaml", "jsonschema")


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """The hex digest of `ingredients()`, made once per process."""
    h = hashlib.sha256(b"hexwright-fingerprint 1\n")
    for name, value in sorted(ingredients().items()):
        _add(h, name.encode(), value)
    return h.hexdigest()


def with_options(*parts: object) -> str:
    """`fingerprint()` with a cache's own options (JSON-able values): the key prefix of one cache."""
    text = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(f"{fingerprint()}\n{text}".encode()).hexdigest()


def ingredients() -> dict[str, bytes]:
    """Each part of the fingerprint by name (a test changes one and sees every cache miss)."""
    return {"code": tree_digest(code_root()), "schemas": tree_digest(schema_root()),
            "python": sys.version.encode(), "freetype": _feature("freetype2"), "zlib": zlib.ZLIB_RUNTIME_VERSION.encode(),
            **{f"lib:{name}": _version(name) for name in LIBRARIES}}


def code_root() -> Path:
    from authoring.bundled import package
    return package()


def schema_root() -> Path:
    from authoring.bundled import schema_dir
    return schema_dir()


def tree_digest(folder: Path) -> bytes:
    """Digest of every code, font and data file under `folder`, by path and bytes."""
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts and path.is_file():
            _add(h, path.relative_to(folder).as_posix().encode(), path.read_bytes())
    return h.digest()


def _feature(name: str) -> bytes:
    from PIL import features
    return str(features.version(name)).encode()


def _version(distribution: str) -> bytes:
    try:
        return metadata.version(distribution).encode()
    except metadata.PackageNotFoundError:
        return b"-"


def _add(h, *parts: bytes) -> None:
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
