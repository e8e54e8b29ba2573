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
import os
import sys
import zlib
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from authoring.bundled import package, schema_dir

CODE_SUFFIXES = (".py", ".ttf", ".otf", ".json")
"""The package's files that decide what an output holds: its code, its bundled fonts, its data."""
LIBRARIES = ("pillow", "resvg-py", "img2pdf", "lxml", "numpy", "shapely", "pyyaml", "jsonschema")


def fingerprint() -> str:
    """The hex digest of `ingredients()`, made again whenever a code, font or schema file is saved (its
    stat changed), so a long `serve` or `watch` keys on the code it runs now, not on the code it began with."""
    return _fingerprint(code_stat())


def forget() -> None:
    """Drop the remembered fingerprint (a test that changes a library's version, which no stat shows)."""
    _fingerprint.cache_clear()


def code_stat() -> tuple[tuple[str, int, int], ...]:
    """(path, mtime_ns, size) of every file `tree_digest` reads (compiled caches left out): a stat walk, far
    cheaper than the digest."""
    return tuple(
        (path, st.st_mtime_ns, st.st_size)
        for root in (code_root(), schema_root())
        for top, _dirs, names in sorted(os.walk(root))
        if "__pycache__" not in Path(top).parts
        for path in sorted(os.path.join(top, n) for n in names if n.endswith(CODE_SUFFIXES))
        for st in (os.stat(path),)
    )


@lru_cache(maxsize=1)
def _fingerprint(stat: tuple[tuple[str, int, int], ...]) -> str:
    """Keyed by the code files' stat (a tuple of small values): a saved file is a new key, so it cannot go stale."""
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
    return {
        "code": tree_digest(code_root()),
        "schemas": tree_digest(schema_root()),
        "python": sys.version.encode(),
        "freetype": _freetype(),
        "zlib": zlib.ZLIB_RUNTIME_VERSION.encode(),
        **_versions(LIBRARIES),
    }


def code_root() -> Path:
    return package()


def schema_root() -> Path:
    return schema_dir()


def tree_digest(folder: Path) -> bytes:
    """Digest of every code, font and data file under `folder` (compiled caches left out), by path and bytes."""
    found = []
    for top, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found += [os.path.join(top, n) for n in names if n.endswith(CODE_SUFFIXES)]
    h = hashlib.sha256()
    for path in sorted(found):
        with open(path, "rb") as fh:
            _add(h, os.path.relpath(path, folder).replace(os.sep, "/").encode(), fh.read())
    return h.digest()


def _freetype() -> bytes:
    """The FreeType that Pillow draws text with (asked of its text module: `PIL.features` imports every plugin)."""
    try:
        from PIL import _imagingft
    except ImportError:
        return b"-"
    return str(getattr(_imagingft, "freetype2_version", "-")).encode()


def _versions(distributions: tuple[str, ...]) -> dict[str, bytes]:
    """`lib:<name>` -> the installed version of each distribution: from the name of its `.dist-info` folder (one
    listing of each folder on the path, where `importlib.metadata` searches them all for each name), else
    from `importlib.metadata`."""
    installed = _installed()
    return {f"lib:{name}": (installed.get(_normal(name)) or _version(name)).encode() for name in distributions}


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "-"


def _installed() -> dict[str, str]:
    """Normalised distribution name -> version, from the `name-version.dist-info` folders on `sys.path`."""
    out: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info") and name.count("-") == 1:
                dist, version = name[: -len(".dist-info")].split("-")
                out.setdefault(_normal(dist), version)
    return out


def _normal(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


def _add(h, *parts: bytes) -> None:
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
